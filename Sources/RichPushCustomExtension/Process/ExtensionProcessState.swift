import Glibc
import RichPushCore

/// The rules of one extension process, without any I/O: an event in (a notification handed over, the host's hello, a
/// content handler call, a budget or linger that ran out, a memory sample, a line of output, the process's end),
/// the actions it calls for out. ``ExtensionProcess`` carries the actions out (writes to the process, tells the
/// notifications, ends the process) and feeds the events in, under one lock.
///
/// What it decides, as iOS does or as richpush reports it:
/// - the memory baseline is taken at the first hello and stands; a second hello ends the process (a protocol
///   violation that would reset it);
/// - cross-talk only on evidence: a handler that delivers a content made from another request, or a handler called
///   from inside another request's `didReceive` or `serviceExtensionTimeWillExpire()`;
/// - what the process prints, and the events it sends, go to the notifications still waiting for their handler (to
///   every one in flight when none waits), within bounds;
/// - each notification's end when the process ends.
struct ExtensionProcessState: Sendable {
    /// Why the system ended the process; the first reason wins.
    enum SystemEnd: Sendable, Equatable {
        case budget(id: String, label: String, budget: Duration, grace: Duration)
        case memory(used: Int, limit: Int)
        /// A second hello: what the process held above its first hello's baseline then.
        case greetedAgain(used: Int, limit: Int)
        case refused(version: Int, sdk: String?)
        case done
    }

    /// What the state asks of the process's I/O.
    enum Action: Sendable, Equatable {
        /// Write a command to the process.
        case send(HostCommand)
        /// Tell notification `id`.
        case tell(id: String, CustomExtensionEvent)
        /// The notification's run is decided.
        case finished(id: String)
        /// End the process (SIGKILL).
        case kill
        /// Carry out notification `id`'s `UNUserNotificationCenter` call and answer it with `serial`.
        case center(id: String, serial: Int, call: HostCenterCall)
    }

    /// A notification the process serves.
    struct Served: Sendable {
        var label: String
        var info: ExtensionProcessInfo
        var calls = 0
        var log: [String] = []
        var droppedLines = 0
        var events = 0
        var droppedEvents = 0
        /// Lines on the events channel that were no message (the first is named in the log).
        var malformed = 0
        var run: CustomExtensionRun?
        /// `serviceExtensionTimeWillExpire()` was called before its handler.
        var expired = false
        /// The evidence of state shared with another notification, the first found.
        var crossTalk: CrossTalk?
        /// `UNUserNotificationCenter` calls carried out, and those past ``centerCallLimit`` (answered, not carried out).
        var centerCalls = 0
        var droppedCenterCalls = 0
    }

    let mode: ExtensionProcessMode
    /// The footprint above the first hello's the process may reach: the limit of the notification handed to it last
    /// (a payload's own `given.extensionMemory`, else the run's), the host's until one names one.
    private(set) var memoryLimit: Int
    let logLimit: Int
    let eventLimit: Int
    let centerCallLimit: Int
    private(set) var greeted = false
    /// The process's pid (the extension's own in a sandbox) and its footprint at the first hello.
    private(set) var measured: (pid: Int32, baseline: Int)?
    /// Requests handed before the host said hello: sent, and their `started` told, then.
    private var pending: [(id: String, command: HostCommand)] = []
    /// Lines printed while no notification was in the process: the next notification's.
    private var unclaimedLog: [String] = []
    private(set) var served: [String: Served] = [:]
    /// Every notification the process was handed: its label, for cross-talk.
    private var labels: [String: String] = [:]
    private(set) var handed = 0
    private(set) var peak: Int?
    private(set) var systemEnd: SystemEnd?
    private var exit: (status: Int32?, signal: Int32?)?
    private var fatalLine: String?
    private var stderrTail: [String] = []
    private(set) var ended = false

    init(
        mode: ExtensionProcessMode, memoryLimit: Int, logLimit: Int = HostProtocol.maxLogLines,
        eventLimit: Int = HostProtocol.maxEventsPerNotification,
        centerCallLimit: Int = HostCenterCall.maxCallsPerNotification
    ) {
        self.mode = mode
        self.memoryLimit = memoryLimit
        self.logLimit = logLimit
        self.eventLimit = eventLimit
        self.centerCallLimit = centerCallLimit
    }

    /// Whether a notification handed now is refused: the process ended, or is being ended.
    var isEnding: Bool { ended || systemEnd != nil }

    /// The notifications what the process says or does goes to: those still waiting for their handler, or every one
    /// in flight when none waits. richpush cannot tell which instance printed a line or made a request, but one
    /// whose handler was called and that only lingers did not make the next one's.
    var listening: [String] {
        let open = served.keys.filter { served[$0]?.run == nil }
        let waiting = open.filter { served[$0]?.calls == 0 }
        return (waiting.isEmpty ? open : waiting).sorted()
    }

    /// Whether the process serves notification `id` and its run is not decided yet.
    func inFlight(_ id: String) -> Bool {
        guard let notification = served[id] else { return false }
        return notification.run == nil
    }

    // MARK: - Notifications in

    /// Hands notification `id` to the process: told it started and sent at once once the host has said hello, else
    /// when it does. Nil when the process is ending.
    mutating func accept(
        id: String, label: String, request: HostCommand, pid: Int32, age: Double, memoryLimit: Int? = nil
    ) -> (info: ExtensionProcessInfo, actions: [Action])? {
        guard !isEnding else { return nil }
        if let memoryLimit { self.memoryLimit = memoryLimit }
        let instance = mode == .sameInstance ? 1 : handed + 1
        let info = ExtensionProcessInfo(
            mode: mode.rawValue, pid: measured?.pid ?? pid, handledBefore: handed, age: age, instance: "#\(instance)")
        var notification = Served(label: label, info: info)
        notification.log = unclaimedLog
        unclaimedLog = []
        served[id] = notification
        labels[id] = label
        handed += 1
        guard measured != nil else {
            pending.append((id, request))
            return (info, [])
        }
        return (info, [.tell(id: id, .started(info)), .send(request)])
    }

    /// The notification's record once its run is decided, removed.
    mutating func remove(_ id: String) -> CustomExtensionRun? {
        served.removeValue(forKey: id)?.run
    }

    // MARK: - The host

    /// The host's hello, with the process's pid and its footprint now. The first takes the baseline and starts the
    /// process; a second is a protocol violation that ends it, the first baseline standing.
    mutating func hello(version: Int, pid: Int32, footprint: Int, sdk: String?) -> [Action] {
        if let measured {
            return end(.greetedAgain(used: footprint - measured.baseline, limit: memoryLimit))
        }
        guard version == HostProtocol.version else { return end(.refused(version: version, sdk: sdk)) }
        greeted = true
        measured = (pid, footprint)
        var actions: [Action] = [.send(.start)]
        for (id, command) in pending {
            guard served[id] != nil else { continue }
            served[id]!.info.pid = pid
            actions += [.tell(id: id, .started(served[id]!.info)), .send(command)]
        }
        pending = []
        return actions
    }

    /// The host's `ready`: one that says it without hello speaks the first protocol, which had no version.
    mutating func ready(sdk: String?) -> [Action] {
        greeted ? [] : end(.refused(version: 1, sdk: sdk))
    }

    /// What a content handler call means: its number, and the cross-talk it is evidence of.
    struct HandlerCall: Sendable, Equatable {
        var call: Int
        /// Evidence about this notification, for its delivered content.
        var crossTalk: CrossTalk?
    }

    /// Notification `id`'s content handler was called with a content made from request `contentOf` (nil: the
    /// extension made it), from inside request `calledFrom`'s `didReceive` or expiry (nil: neither). The evidence is
    /// kept for the other notification even when `id`'s run is over (a static handler called long after); nil for a
    /// notification the process no longer serves.
    mutating func handlerCalled(id: String, contentOf: String?, calledFrom: String?, pid: Int32) -> HandlerCall? {
        let label = labels[id] ?? "another notification"
        var evidence: CrossTalk?
        if let other = contentOf, other != id, let otherLabel = labels[other] {
            evidence = CrossTalk(
                other: otherLabel,
                detail:
                    "the content handler delivered a content made from \(otherLabel)'s request (state shared between the notifications of process \(pid))"
            )
            note(
                other,
                CrossTalk(
                    other: label,
                    detail:
                        "its content was delivered through \(label)'s content handler (state shared between the notifications of process \(pid))"
                ))
        }
        if let caller = calledFrom, caller != id, let callerLabel = labels[caller] {
            let how = served[caller]?.expired == true ? "serviceExtensionTimeWillExpire()" : "didReceive"
            evidence =
                evidence
                ?? CrossTalk(
                    other: callerLabel,
                    detail:
                        "its content handler was called from \(callerLabel)'s \(how) (one handler kept for both in process \(pid))"
                )
            note(
                caller,
                CrossTalk(
                    other: label,
                    detail:
                        "its \(how) called \(label)'s content handler (one handler kept for both in process \(pid))"))
        }
        guard served[id] != nil else { return nil }
        served[id]!.calls += 1
        if let evidence { note(id, evidence) }
        return HandlerCall(call: served[id]!.calls, crossTalk: evidence)
    }

    /// Keeps the first evidence about notification `id`, while it is served.
    private mutating func note(_ id: String, _ crossTalk: CrossTalk) {
        guard served[id] != nil, served[id]!.crossTalk == nil else { return }
        served[id]!.crossTalk = crossTalk
    }

    /// Whether an event about notification `id` (nil: about none in particular, for every one listening) is taken;
    /// past ``eventLimit`` a notification's events are counted, not kept. The notifications to tell.
    mutating func admitEvent(about id: String?) -> [String] {
        // An id the process does not serve (a request it never had, or lies about) is no target: `served[id]?.run`
        // is nil for it too.
        let targets = id.flatMap { inFlight($0) ? [$0] : nil } ?? listening
        return targets.filter { target in
            guard served[target]!.events < eventLimit else {
                served[target]!.droppedEvents += 1
                return false
            }
            served[target]!.events += 1
            return true
        }
    }

    /// The extension called `UNUserNotificationCenter`'s `call` from request `id`'s code (nil: from no request's, a
    /// timer or a queue of its own). Every call is answered, so no completion handler waits forever: carried out for
    /// the notification it names while that one is in flight, else for the first one listening; past
    /// ``centerCallLimit`` calls for a notification, or with no notification in flight, answered with an error and
    /// counted. A call's lists are cut to ``HostCenterCall/maxListItems`` here, before anything reads them.
    mutating func centerCall(serial: Int, id: String?, call: HostCenterCall) -> [Action] {
        let named = id.flatMap { inFlight($0) ? $0 : nil }
        guard let target = named ?? listening.first else {
            return [.send(.answer(serial: serial, HostCenterAnswer(error: "no notification in flight")))]
        }
        guard served[target]!.centerCalls < centerCallLimit else {
            served[target]!.droppedCenterCalls += 1
            return [
                .send(
                    .answer(
                        serial: serial,
                        HostCenterAnswer(
                            error:
                                "over richpush's bound of \(centerCallLimit) notification center calls a notification"
                        )))
            ]
        }
        served[target]!.centerCalls += 1
        var bounded = call
        bounded.identifiers = call.identifiers.map { Array($0.prefix(HostCenterCall.maxListItems)) }
        bounded.categories = call.categories.map { Array($0.prefix(HostCenterCall.maxListItems)) }
        // `omitted` is the host's word, clamped: a huge one must not overflow.
        let listed =
            (call.identifiers?.count ?? call.categories?.count ?? 0) + min(max(0, call.omitted ?? 0), 1 << 30)
        if listed > HostCenterCall.maxListItems {
            appendLog(
                "richpush host: \(call.kind.rawValue) named \(listed) \(call.kind == .setCategories ? "categories" : "identifiers"); the first \(HostCenterCall.maxListItems) were read",
                to: target)
        }
        return [.center(id: target, serial: serial, call: bounded)]
    }

    /// A line on the events channel that is no message of this protocol: the first named in the log of the
    /// notifications listening, the rest counted.
    mutating func malformed(_ line: String) {
        for id in listening {
            if served[id]!.malformed == 0 {
                appendLog("\(Self.malformedPrefix) \(HostProtocol.version): \(line.prefix(200))", to: id)
            }
            served[id]!.malformed += 1
        }
    }

    static let malformedPrefix = "richpush host: a line on the events channel that is no message of protocol"

    /// A line the process printed, for the notifications listening.
    mutating func output(_ line: String, standardError: Bool) {
        if standardError {
            // The runtime's message ("…: Fatal error: …") says more than the stack that follows.
            if fatalLine == nil, line.contains("Fatal error") { fatalLine = line }
            stderrTail.append(line)
            if stderrTail.count > 8 { stderrTail.removeFirst() }
        }
        let kept = String(line.prefix(HostProtocol.maxLogLineCharacters))
        let targets = listening
        if targets.isEmpty, unclaimedLog.count < logLimit { unclaimedLog.append(kept) }
        for id in targets { appendLog(kept, to: id) }
    }

    /// A note of the host's (`error`), for every notification in flight.
    mutating func hostError(_ detail: String) {
        for id in served.keys.sorted() { appendLog("richpush host: \(detail.prefix(300))", to: id) }
    }

    private mutating func appendLog(_ line: String, to id: String) {
        if served[id]!.log.count < logLimit {
            served[id]!.log.append(line)
        } else {
            served[id]!.droppedLines += 1
        }
    }

    // MARK: - Time

    /// What a budget that ran out calls for.
    enum BudgetStep: Sendable, Equatable {
        /// `serviceExtensionTimeWillExpire()`, then the grace (``graceRanOut(id:budget:grace:)``).
        case expire([Action])
        /// The handler was called: nothing waits (but the process's end in `each` mode).
        case done([Action])
    }

    /// Notification `id`'s budget ran out.
    mutating func budgetRanOut(id: String) -> BudgetStep {
        guard let notification = served[id], notification.run == nil else { return .done([]) }
        guard notification.calls == 0 else { return .done(mode == .each ? end(.done) : []) }
        served[id]!.expired = true
        return .expire([.tell(id: id, .timeWillExpire), .send(.expire(id: id))])
    }

    /// The grace after `serviceExtensionTimeWillExpire()` ran out: a notification still waiting ends the process.
    mutating func graceRanOut(id: String, budget: Duration, grace: Duration) -> [Action] {
        guard let notification = served[id] else { return [] }
        if notification.calls == 0, notification.run == nil {
            return end(.budget(id: id, label: notification.label, budget: budget, grace: grace))
        }
        return mode == .each ? end(.done) : []
    }

    /// The linger after a notification's first handler call ended: its run is decided (the process goes on).
    mutating func lingerEnded(id: String) -> [Action] {
        decide(id, end: .contentHandlerCalled)
    }

    /// richpush stopped waiting for notification `id`.
    mutating func abandoned(id: String) -> [Action] {
        decide(id, end: .contentHandlerNeverCalled(.richpushStopped))
    }

    // MARK: - Memory

    /// A sample of the process's footprint: the peak above the baseline, and the end over the limit.
    mutating func memorySample(_ footprint: Int) -> [Action] {
        guard let measured, systemEnd == nil else { return [] }
        let used = footprint - measured.baseline
        peak = max(peak ?? 0, used)
        return used > memoryLimit ? end(.memory(used: used, limit: memoryLimit)) : []
    }

    // MARK: - The end

    /// Ends the process for `reason`; the first reason wins.
    mutating func end(_ reason: SystemEnd) -> [Action] {
        if systemEnd == nil { systemEnd = reason }
        return [.kill]
    }

    mutating func exited(status: Int32?, signal: Int32?) {
        exit = (status, signal)
    }

    /// The process has ended: every notification not yet decided is decided by how it ended.
    mutating func processEnded(richpushStopped: Bool) -> [Action] {
        ended = true
        var actions: [Action] = []
        for id in served.keys.sorted() where served[id]!.run == nil {
            actions += decide(id, end: processEnd(for: id, richpushStopped: richpushStopped))
        }
        return actions
    }

    private mutating func decide(_ id: String, end: CustomExtensionEnd) -> [Action] {
        guard let notification = served[id], notification.run == nil else { return [] }
        var log = notification.log
        if notification.malformed > 1 {
            log.append("… \(notification.malformed - 1) more lines on the events channel that were no message")
        }
        if notification.droppedLines > 0 { log.append("… \(notification.droppedLines) more lines not kept") }
        if notification.droppedCenterCalls > 0 {
            log.append(
                "… \(notification.droppedCenterCalls) more notification center calls not carried out (at most \(centerCallLimit) for a notification)"
            )
        }
        if notification.droppedEvents > 0 {
            log.append(
                "… \(notification.droppedEvents) more events not kept (at most \(eventLimit) for a notification)")
        }
        var run = CustomExtensionRun(
            end: notification.calls > 0 ? .contentHandlerCalled : end, contentHandlerCalls: notification.calls,
            log: log, peakFootprintBytes: peak)
        run.process = notification.info
        run.crossTalk = notification.crossTalk
        served[id]!.run = run
        return [.finished(id: id)]
    }

    /// What the process's end means for notification `id`, which had not called its handler.
    private func processEnd(for id: String, richpushStopped: Bool) -> CustomExtensionEnd {
        switch systemEnd {
        case .budget(let who, let label, let budget, let grace)?:
            if who == id { return .contentHandlerNeverCalled(.endedAfterBudget(budget: budget, grace: grace)) }
            return .contentHandlerNeverCalled(
                .endedWithTheProcess(
                    "the system ended it (SIGKILL) when the budget of \(budget.shortDescription) and a grace of \(grace.shortDescription) of \(label.isEmpty ? "another notification" : label) ran out"
                ))
        case .memory(let used, let limit)?:
            return .memoryLimit(usedBytes: used, limitBytes: limit)
        case .greetedAgain(let used, let limit)?:
            return .greetedAgain(usedBytes: used, limitBytes: limit)
        case .refused(let version, let sdk)?:
            return .failedToStart(.protocolVersion(found: version, expected: HostProtocol.version, sdk: sdk))
        case .done?, nil:
            if let signal = exit?.signal, signal != SIGKILL || systemEnd == nil {
                return .crashed(.init(signal: signal, fatalError: fatalLine, lastLines: stderrTail))
            }
            if let status = exit?.status, status != 0 {
                return .crashed(.init(status: status, fatalError: fatalLine, lastLines: stderrTail))
            }
            return richpushStopped ? .contentHandlerNeverCalled(.richpushStopped) : .contentHandlerNeverCalled(.exited)
        }
    }
}
