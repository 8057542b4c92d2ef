import RichPushCore
import Testing

@testable import RichPushCustomExtension

/// The rules of an extension's process, without a process: each test feeds ``ExtensionProcessState`` the events a
/// run would and checks what it decides (milliseconds; the end-to-end tests run real extensions).
@Suite("An extension process's rules: hello, attribution, bounds, budget, linger, memory")
struct ExtensionProcessStateTests {
    static let megabyte = 1_048_576

    /// A process in `mode` that said hello with a footprint of 10 MB, serving the notifications `ids`.
    func process(
        _ mode: ExtensionProcessMode = .concurrent, serving ids: [String] = ["a", "b"], eventLimit: Int = 1_000
    ) -> ExtensionProcessState {
        var state = ExtensionProcessState(mode: mode, memoryLimit: 24 * Self.megabyte, eventLimit: eventLimit)
        _ = state.hello(version: HostProtocol.version, pid: 42, footprint: 10 * Self.megabyte, sdk: nil)
        for id in ids { _ = accept(&state, id) }
        return state
    }

    @discardableResult
    func accept(_ state: inout ExtensionProcessState, _ id: String) -> [ExtensionProcessState.Action] {
        state.accept(
            id: id, label: "\(id).json", request: .expire(id: id), pid: 42, age: 0
        )?.actions ?? []
    }

    // MARK: - Hello

    @Test("a request handed before hello waits for it; hello starts the process and sends it")
    func helloStarts() {
        var state = ExtensionProcessState(mode: .each, memoryLimit: 24 * Self.megabyte)
        #expect(accept(&state, "a").isEmpty)
        let actions = state.hello(version: HostProtocol.version, pid: 7, footprint: 5, sdk: nil)
        #expect(actions.first == .send(.start))
        #expect(actions.contains(.send(.expire(id: "a"))))
        #expect(state.measured?.baseline == 5)
    }

    @Test("a second hello ends the process, and the first baseline stands")
    func secondHello() {
        var state = process()
        #expect(state.hello(version: HostProtocol.version, pid: 42, footprint: 25 * Self.megabyte, sdk: nil) == [.kill])
        #expect(state.measured?.baseline == 10 * Self.megabyte)
        #expect(state.systemEnd == .greetedAgain(used: 15 * Self.megabyte, limit: 24 * Self.megabyte))
        _ = state.processEnded(richpushStopped: false)
        #expect(state.remove("a")?.end == .greetedAgain(usedBytes: 15 * Self.megabyte, limitBytes: 24 * Self.megabyte))
    }

    @Test("a host of another protocol version is refused")
    func otherVersion() {
        var state = ExtensionProcessState(mode: .each, memoryLimit: 1)
        #expect(state.hello(version: 3, pid: 1, footprint: 0, sdk: "/sdk") == [.kill])
        #expect(state.systemEnd == .refused(version: 3, sdk: "/sdk"))
    }

    // MARK: - Attribution

    @Test("a handler called twice by its own request while another waits and expires is not cross-talk")
    func coincidenceIsNoEvidence() {
        var state = process()
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: "a", pid: 42)
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: nil, pid: 42)
        #expect(state.budgetRanOut(id: "b") == .expire([.tell(id: "b", .timeWillExpire), .send(.expire(id: "b"))]))
        _ = state.handlerCalled(id: "b", contentOf: "b", calledFrom: "b", pid: 42)
        _ = state.lingerEnded(id: "a")
        _ = state.lingerEnded(id: "b")
        #expect(state.remove("a")?.crossTalk == nil)
        #expect(state.remove("b")?.crossTalk == nil)
    }

    @Test("another request's content through this handler is evidence, for both notifications")
    func contentOfAnother() {
        var state = process()
        let call = state.handlerCalled(id: "b", contentOf: "a", calledFrom: nil, pid: 42)
        #expect(call?.crossTalk?.other == "a.json")
        #expect(call?.crossTalk?.detail.contains("content made from a.json's request") == true)
        _ = state.processEnded(richpushStopped: false)
        let a = state.remove("a")
        #expect(a?.crossTalk?.other == "b.json")
        #expect(a?.crossTalk?.detail.contains("delivered through b.json's content handler") == true)
    }

    @Test("a handler called from another request's expiry is evidence, and says so")
    func calledFromAnotherExpiry() {
        var state = process()
        _ = state.budgetRanOut(id: "a")
        let call = state.handlerCalled(id: "b", contentOf: "b", calledFrom: "a", pid: 42)
        #expect(call?.crossTalk?.other == "a.json")
        #expect(call?.crossTalk?.detail.contains("from a.json's serviceExtensionTimeWillExpire()") == true)
        _ = state.processEnded(richpushStopped: false)
        #expect(state.remove("a")?.crossTalk?.detail.contains("called b.json's content handler") == true)
    }

    @Test("a content the extension made itself, or of a request this process never had, is no evidence")
    func unknownOrigin() {
        var state = process()
        #expect(state.handlerCalled(id: "a", contentOf: nil, calledFrom: nil, pid: 42)?.crossTalk == nil)
        #expect(state.handlerCalled(id: "b", contentOf: "zzz", calledFrom: "yyy", pid: 42)?.crossTalk == nil)
    }

    @Test("evidence about a notification already decided still marks the one that delivered it")
    func finishedEarlier() {
        var state = process(.reuse, serving: ["a"])
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: "a", pid: 42)
        _ = state.lingerEnded(id: "a")
        _ = state.remove("a")
        accept(&state, "b")
        #expect(state.handlerCalled(id: "b", contentOf: "a", calledFrom: nil, pid: 42)?.crossTalk?.other == "a.json")
    }

    @Test("a finished notification's handler called from another's expiry is still evidence for the caller")
    func staticHandlerCalledLater() {
        var state = process(.concurrent, serving: ["a", "b"])
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: nil, pid: 42)
        _ = state.lingerEnded(id: "a")
        _ = state.remove("a")
        _ = state.budgetRanOut(id: "b")
        #expect(state.handlerCalled(id: "a", contentOf: "a", calledFrom: "b", pid: 42) == nil)
        _ = state.processEnded(richpushStopped: false)
        let b = state.remove("b")
        #expect(b?.crossTalk?.other == "a.json")
        #expect(b?.crossTalk?.detail.contains("its serviceExtensionTimeWillExpire() called a.json's") == true)
    }

    // MARK: - Bounds

    @Test("events are bounded per notification and the rest counted in its log")
    func eventBound() {
        var state = process(eventLimit: 3)
        for _ in 0..<10 { _ = state.admitEvent(about: "a") }
        #expect(state.admitEvent(about: "a").isEmpty)
        #expect(state.admitEvent(about: "b") == ["b"])
        _ = state.processEnded(richpushStopped: false)
        #expect(state.remove("a")?.log.last == "… 8 more events not kept (at most 3 for a notification)")
    }

    @Test("a malformed line is named once in the log, the rest counted")
    func malformedNamed() {
        var state = process(serving: ["a"])
        state.malformed(#"{"event":"hello""#)
        state.malformed("garbage")
        state.malformed("garbage")
        _ = state.processEnded(richpushStopped: false)
        let log = state.remove("a")?.log ?? []
        #expect(log.first?.hasPrefix(ExtensionProcessState.malformedPrefix) == true)
        #expect(log.first?.hasSuffix(#"{"event":"hello""#) == true)
        #expect(log.contains("… 2 more lines on the events channel that were no message"))
    }

    @Test("output goes to the notifications still waiting for their handler")
    func outputRouting() {
        var state = process()
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: nil, pid: 42)
        state.output("downloading b", standardError: false)
        _ = state.processEnded(richpushStopped: false)
        #expect(state.remove("a")?.log == [])
        #expect(state.remove("b")?.log == ["downloading b"])
    }

    // MARK: - Time and memory

    @Test("a budget that ran out with the handler not called expires it, and the grace ends the process")
    func budgetAndGrace() {
        var state = process(.each, serving: ["a"])
        guard case .expire = state.budgetRanOut(id: "a") else {
            Issue.record("no expiry")
            return
        }
        #expect(state.graceRanOut(id: "a", budget: .seconds(30), grace: .seconds(1)) == [.kill])
        _ = state.processEnded(richpushStopped: false)
        #expect(
            state.remove("a")?.end
                == .contentHandlerNeverCalled(.endedAfterBudget(budget: .seconds(30), grace: .seconds(1))))
    }

    @Test("the linger decides a called notification; a second call within it is counted")
    func linger() {
        var state = process(.reuse, serving: ["a"])
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: nil, pid: 42)
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: nil, pid: 42)
        #expect(state.lingerEnded(id: "a") == [.finished(id: "a")])
        let run = state.remove("a")
        #expect(run?.end == .contentHandlerCalled && run?.contentHandlerCalls == 2)
    }

    @Test("the limit is the one of the notification handed last, when it names one")
    func memoryLimitPerNotification() {
        var state = process(serving: ["a"])
        _ = state.accept(
            id: "b", label: "b.json", request: .expire(id: "b"), pid: 42, age: 0, memoryLimit: 200 * Self.megabyte)
        #expect(state.memorySample(100 * Self.megabyte).isEmpty)
        #expect(state.memorySample(215 * Self.megabyte) == [.kill])
    }

    @Test("memory above the first hello's baseline past the limit ends the process")
    func memoryLimit() {
        var state = process(serving: ["a"])
        #expect(state.memorySample(30 * Self.megabyte).isEmpty)
        #expect(state.memorySample(35 * Self.megabyte) == [.kill])
        #expect(state.systemEnd == .memory(used: 25 * Self.megabyte, limit: 24 * Self.megabyte))
    }

    // MARK: - The notification center

    @Test("a notification center call is carried out for the request that made it, and answered with its serial")
    func centerCallForItsRequest() {
        var state = process()
        let call = HostCenterCall(.removeDelivered, identifiers: ["x"])
        #expect(state.centerCall(serial: 3, id: "b", call: call) == [.center(id: "b", serial: 3, call: call)])
        // From no request's code: the first notification still waiting.
        #expect(state.centerCall(serial: 4, id: nil, call: call) == [.center(id: "a", serial: 4, call: call)])
        // A request the process never had (a hostile or stale id): the same.
        #expect(state.centerCall(serial: 5, id: "nope", call: call) == [.center(id: "a", serial: 5, call: call)])
    }

    @Test("past the bound a notification's calls are answered with an error, not carried out, and counted in its log")
    func centerCallsBounded() {
        var state = ExtensionProcessState(mode: .each, memoryLimit: 24 * Self.megabyte, centerCallLimit: 2)
        _ = state.hello(version: HostProtocol.version, pid: 42, footprint: 0, sdk: nil)
        accept(&state, "a")
        let call = HostCenterCall(.getDelivered)
        for serial in 1...2 {
            #expect(
                state.centerCall(serial: serial, id: "a", call: call) == [.center(id: "a", serial: serial, call: call)])
        }
        for serial in 3...1_000 {
            let actions = state.centerCall(serial: serial, id: "a", call: call)
            guard case .send(.answer(serial, let answer))? = actions.first, actions.count == 1 else {
                Issue.record("call \(serial) was carried out: \(actions)")
                return
            }
            #expect(answer.error?.contains("bound of 2") == true)
        }
        _ = state.handlerCalled(id: "a", contentOf: "a", calledFrom: "a", pid: 42)
        _ = state.lingerEnded(id: "a")
        #expect(
            state.remove("a")?.log.last
                == "… 998 more notification center calls not carried out (at most 2 for a notification)")
    }

    @Test("a huge list of identifiers is cut before anything reads it, and the log says so")
    func hugeListCut() {
        var state = process(serving: ["a"])
        let ids = (0..<100_000).map { "id-\($0)" }
        let actions = state.centerCall(serial: 1, id: "a", call: HostCenterCall(.removeDelivered, identifiers: ids))
        guard case .center(_, _, let call)? = actions.first else {
            Issue.record("not carried out: \(actions)")
            return
        }
        #expect(call.identifiers?.count == HostCenterCall.maxListItems)
        #expect(state.served["a"]?.log.last?.contains("named 100000 identifiers") == true)
        // The host says how many it left out; a lie as large as an Int can hold overflows nothing.
        _ = state.centerCall(
            serial: 2, id: "a", call: HostCenterCall(.removeDelivered, identifiers: ["x"], omitted: Int.max))
        #expect(state.served["a"]?.log.last?.contains("named 1073741825 identifiers") == true)
    }

    @Test("an event naming a request the process never had goes to the notifications listening, not a crash")
    func eventForAnUnknownRequest() {
        var state = process()
        #expect(state.admitEvent(about: "nope") == ["a", "b"])
    }

    @Test("a call with no notification in flight is answered at once, so no completion handler waits forever")
    func centerCallWithNobody() {
        var state = process(serving: [])
        #expect(
            state.centerCall(serial: 9, id: "a", call: HostCenterCall(.getSettings))
                == [.send(.answer(serial: 9, HostCenterAnswer(error: "no notification in flight")))])
    }
}
