import Foundation
import RichPushCore
import RichPushFiles
import RichPushHostProtocol
import RichPushNetwork
import Synchronization

/// One process of a team's extension in its sandbox, with its container and its network proxy, serving the
/// notifications richpush hands it (one in `each` mode, many in the others) and watched as iOS watches one: its
/// memory footprint (the process's, whatever it is serving), each notification's budget, its end. A crash, the memory
/// limit or a budget that runs out ends the process, and with it every notification in flight there, each told why.
final class ExtensionProcess: Sendable {
    let host: ExtensionProcessHost
    let mode: ExtensionProcessMode
    let child: ChildProcess
    let sandboxed: Bool
    let proxy: ExtensionProxy
    /// The process's container (temporary folder, caches, App Groups, attachment store): one for its life, as on iOS.
    let container: String
    let launchedAt = ContinuousClock.now
    private let state: Mutex<State>
    /// Fired when the process has ended and every notification in it was told.
    private let endedSignal = Signal()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// How often the memory footprint is read.
    static let memoryPollInterval = Duration.milliseconds(20)
    /// In `each` mode, how long the process may go on after its content handler (the host lingers 200 ms for a
    /// second call, then exits); an extension that keeps it busy is ended then.
    static let afterHandler = Duration.seconds(1)
    /// In the other modes, how long a notification waits after its first content handler call for a second one.
    static let linger = Duration.milliseconds(200)
    static let maxLogLines = 200
    static let maxLogLineCharacters = 1_000

    var store: String { container + "/AttachmentStore" }
    var pid: pid_t { state.withLock { $0.measured?.pid } ?? child.pid }

    /// Why the system ended the process; the first reason wins.
    enum SystemEnd: Sendable {
        case budget(id: String, label: String, budget: Duration, grace: Duration)
        case memory(used: Int, limit: Int)
        case refused(version: Int, sdk: String?)
        case done
    }

    /// A notification the process serves.
    private struct Served: Sendable {
        var label: String
        var emit: @Sendable (CustomExtensionEvent) -> Void
        var calls = 0
        var log: [String] = []
        var dropped = 0
        var run: CustomExtensionRun?
        let handlerCalled = Signal()
        let finished = Signal()
        var info: ExtensionProcessInfo
        /// Other notifications whose handler was called again while this one's was not called yet, and how often.
        var calledAgain: [(label: String, calls: Int)] = []
        /// Another notification whose content handler was called with this one's content.
        var deliveredThrough: String?
        /// `serviceExtensionTimeWillExpire()` was called before its handler.
        var expired = false
        /// Its handler was first called after `serviceExtensionTimeWillExpire()`.
        var calledOnlyAtExpiry = false
    }

    private struct State: Sendable {
        var greeted = false
        var started = false
        /// Requests handed before the host said hello: sent, and their `started` told, then.
        var pending: [(id: String, line: String)] = []
        /// Lines printed while no notification was in the process (its launch, before the first one was handed over):
        /// the next notification's.
        var unclaimedLog: [String] = []
        var served: [String: Served] = [:]
        /// Every notification the process was handed: its label, for cross-talk.
        var labels: [String: String] = [:]
        var handed = 0
        var measured: (pid: pid_t, baseline: Int)?
        var peak: Int?
        /// The memory limit of the notification handed last, when it named one (a payload's own).
        var memoryLimit: Int?
        var systemEnd: SystemEnd?
        var exit: (status: Int32?, signal: Int32?)?

        /// The notifications what the process says or does goes to: those still waiting for their handler, or every
        /// one in flight when none waits. richpush cannot tell which instance printed a line or made a request, but
        /// one whose handler was called and that only lingers (``ExtensionProcess/linger``) did not make the next one's.
        var listening: [String] {
            let open = served.keys.filter { served[$0]?.run == nil }
            let waiting = open.filter { served[$0]?.calls == 0 }
            return waiting.isEmpty ? open : waiting
        }
        var fatalLine: String?
        var stderrTail: [String] = []
        var ended = false
    }

    private init(
        host: ExtensionProcessHost, mode: ExtensionProcessMode, child: ChildProcess, sandboxed: Bool,
        proxy: ExtensionProxy, container: String
    ) {
        self.host = host
        self.mode = mode
        self.child = child
        self.sandboxed = sandboxed
        self.proxy = proxy
        self.container = container
        self.state = Mutex(State())
    }

    /// Makes the container, the proxy and the process, and starts watching it.
    static func launch(host: ExtensionProcessHost, mode: ExtensionProcessMode) async
        -> Result<ExtensionProcess, CustomExtensionEnd.StartProblem>
    {
        let container = host.folder.path + "/containers/" + UUID().uuidString
        let made: String? = await host.computePool.run {
            do {
                for folder in ["tmp", "Library/Caches", "AppGroups", "AttachmentStore", "Home"] {
                    try FileManager.default.createDirectory(
                        atPath: container + "/" + folder, withIntermediateDirectories: true)
                }
                return nil
            } catch {
                return error.localizedDescription
            }
        }
        if let made { return .failure(.container(path: container, reason: made)) }
        // The proxy reports requests to the process, which exists only once the proxy does: a router in between.
        let router = LineRouter()
        let proxy: ExtensionProxy
        do {
            proxy = try await ExtensionProxy.start(fixtureCDN: host.fixtureCDN) { router.route($0) }
        } catch {
            await host.computePool.run { try? FileManager.default.removeItem(atPath: container) }
            return .failure(.proxy(reason: "\(error)"))
        }
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": container + "/Home", "TMPDIR": container + "/tmp",
            "XDG_CACHE_HOME": container + "/Library/Caches", "LANG": "C.UTF-8",
            "https_proxy": proxyURL, "HTTPS_PROXY": proxyURL, "http_proxy": proxyURL, "HTTP_PROXY": proxyURL,
            "no_proxy": "", "NO_PROXY": "",
            "RICHPUSH_ATTACHMENT_STORE": container + "/AttachmentStore",
            "RICHPUSH_APP_GROUP_CONTAINER": container + "/AppGroups",
            HostProtocol.eventsDescriptorVariable: "3", "RICHPUSH_LINGER_MS": "200",
            "RICHPUSH_PROCESS_MODE": mode.rawValue,
            // A crash ends with the runtime's own message ("Fatal error: …") as its last line, at once, rather than
            // after a symbolicated backtrace.
            "SWIFT_BACKTRACE": "enable=no",
            // glibc gives each thread that allocates an arena of its own and keeps what they free: an extension with
            // notifications in flight on several threads grew 20 MB over 200 notifications that way (the blueprint,
            // `concurrent`), where it holds 9 MB with one arena. One arena keeps the footprint the extension's own, as
            // iOS's allocator does not grow so.
            "MALLOC_ARENA_MAX": "1",
        ]
        let executable = host.built.executable
        let sandboxed: Bool
        let command: [String]
        if case .success(let sandbox) = host.sandbox {
            sandboxed = true
            command = sandbox.wrap([executable])
        } else {
            sandboxed = false
            command = [executable]
        }
        let child: ChildProcess
        do {
            child = try await ChildProcess.spawn(command, environment: environment)
        } catch {
            await proxy.stop()
            await host.computePool.run { try? FileManager.default.removeItem(atPath: container) }
            switch error {
            case .pipe(let code): return .failure(.spawn(path: command[0], errno: code))
            case .exec(let path, let code): return .failure(.spawn(path: path, errno: code))
            }
        }
        let process = ExtensionProcess(
            host: host, mode: mode, child: child, sandboxed: sandboxed, proxy: proxy, container: container)
        router.target = process
        process.tasks.withLock {
            $0 = [Task { await process.pump() }, Task { await process.watchMemory() }]
        }
        return .success(process)
    }

    /// Notifications in flight now.
    var inFlight: Int { state.withLock { $0.served.count } }
    /// Whether the process has ended (or been ended).
    var hasEnded: Bool { state.withLock { $0.ended || $0.systemEnd != nil } }

    // MARK: - Serving a notification

    /// Hands the notification to the process and supervises it until its run is decided: its budget, then
    /// `serviceExtensionTimeWillExpire()`, then the grace, then SIGKILL for the process; its handler calls. In `each`
    /// mode the run is decided when the process ends; in the others shortly after the first handler call.
    func serve(
        _ invocation: CustomExtensionInvocation, clock: any Clock<Duration>,
        emit: @escaping @Sendable (CustomExtensionEvent) -> Void
    ) async -> CustomExtensionRun? {
        let id = invocation.identifier
        let line = HostProtocol.line(HostCommand.request(Self.hostRequest(invocation)))
        // A process refused at its hello (another protocol version) refuses every notification handed to it: the
        // next process would be refused too, so that is the notification's end, not a reason to try another.
        if case .refused(let version, let sdk)? = state.withLock({ $0.systemEnd }) {
            return CustomExtensionRun(
                end: .failedToStart(.protocolVersion(found: version, expected: HostProtocol.version, sdk: sdk)),
                contentHandlerCalls: 0, log: [])
        }
        let accepted: (served: Served, sendNow: Bool)? = state.withLock { state in
            guard !state.ended, state.systemEnd == nil else { return nil }
            let instance = mode == .sameInstance ? 1 : state.handed + 1
            let info = ExtensionProcessInfo(
                mode: mode.rawValue, pid: state.measured?.pid ?? child.pid, handledBefore: state.handed,
                age: (ContinuousClock.now - launchedAt).seconds, instance: "#\(instance)")
            var served = Served(label: invocation.label, emit: emit, info: info)
            served.log = state.unclaimedLog
            state.unclaimedLog = []
            state.served[id] = served
            state.labels[id] = invocation.label
            state.handed += 1
            if let limit = invocation.memoryLimitBytes { state.memoryLimit = limit }
            if state.started { return (served, true) }
            state.pending.append((id, line))
            return (served, false)
        }
        guard let (served, sendNow) = accepted else { return nil }
        if sendNow {
            emit(.started(served.info))
            child.send(line)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.budget(invocation, clock: clock) }
            group.addTask {
                guard await served.handlerCalled.wait() else { return }
                if self.mode == .each {
                    // The host exits on its own shortly after; one that keeps the process busy is ended then.
                    guard (try? await Task.sleep(for: Self.afterHandler)) != nil else { return }
                    self.end(.done)
                } else {
                    guard (try? await Task.sleep(for: Self.linger)) != nil else { return }
                    self.finish(id, end: .contentHandlerCalled)
                }
            }
            await withTaskCancellationHandler {
                _ = await served.finished.wait()
            } onCancel: {
                if self.mode == .each { self.child.kill() }
                self.finish(id, end: .contentHandlerNeverCalled(.richpushStopped))
            }
            group.cancelAll()
        }
        return state.withLock { $0.served.removeValue(forKey: id)?.run }
            ?? CustomExtensionRun(end: .contentHandlerNeverCalled(.richpushStopped), contentHandlerCalls: 0, log: [])
    }

    /// The budget, then `serviceExtensionTimeWillExpire()`, then the grace, then SIGKILL for the process.
    private func budget(_ invocation: CustomExtensionInvocation, clock: any Clock<Duration>) async {
        let id = invocation.identifier
        let grace = host.grace
        guard (try? await clock.sleep(for: invocation.budget)) != nil else { return }
        guard let served = state.withLock({ $0.served[id] }), served.run == nil else { return }
        if served.calls == 0 {
            state.withLock { $0.served[id]?.expired = true }
            served.emit(.timeWillExpire)
            child.send(HostProtocol.line(HostCommand.expire(id: id)))
            guard (try? await clock.sleep(for: grace)) != nil else { return }
        }
        let stillWaiting = state.withLock { $0.served[id].map { $0.calls == 0 && $0.run == nil } ?? false }
        if stillWaiting {
            end(.budget(id: id, label: invocation.label, budget: invocation.budget, grace: grace))
        } else if mode == .each {
            end(.done)
        }
    }

    /// Decides one notification's run now (the process may go on).
    private func finish(_ id: String, end: CustomExtensionEnd) {
        let done: Served? = state.withLock { state in
            guard var served = state.served[id], served.run == nil else { return nil }
            served.run = run(of: served, end: end, peak: state.peak)
            state.served[id] = served
            return served
        }
        done?.finished.fire()
    }

    private func run(of served: Served, end: CustomExtensionEnd, peak: Int?) -> CustomExtensionRun {
        var log = served.log
        if served.dropped > 0 { log.append("… \(served.dropped) more lines not kept") }
        var run = CustomExtensionRun(
            end: served.calls > 0 ? .contentHandlerCalled : end, contentHandlerCalls: served.calls, log: log,
            peakFootprintBytes: peak)
        run.process = served.info
        // Only a notification that waited for its handler in vain, or until the budget ran out, lost it to another.
        guard served.calls == 0 || served.calledOnlyAtExpiry else { return run }
        let waited =
            served.calls == 0 ? "its content handler was never called" : "its handler was called only at expiry"
        if let other = served.deliveredThrough {
            run.crossTalk = CrossTalk(
                other: other,
                detail:
                    "its content was delivered through \(other)'s content handler and \(waited), in the same process (\(served.info.pid)): one handler kept for both"
            )
        } else if let other = served.calledAgain.first {
            run.crossTalk = CrossTalk(
                other: other.label,
                detail:
                    "\(waited), while \(other.label)'s was called \(other.calls) times in the same process (\(served.info.pid)): one handler kept for both"
            )
        }
        return run
    }

    /// Ends the process (SIGKILL), for `reason`; the first reason wins. Every notification in it is told when it has
    /// ended.
    func end(_ reason: SystemEnd) {
        state.withLock { state in
            if state.systemEnd == nil { state.systemEnd = reason }
        }
        child.kill()
    }

    /// Ends the process and waits for its watchers.
    func stop() async {
        end(.done)
        for task in tasks.withLock({ $0 }) { await task.value }
    }

    /// Returns once the process has ended and every notification in it was told.
    func waitUntilEnded() async {
        _ = await endedSignal.wait()
    }

    // MARK: - Watching the process

    /// Reads the process's output and events until it ends, then tells every notification in it how, and removes its
    /// container and proxy.
    private func pump() async {
        let kept = host.folder.path + "/" + AttachmentIntake.keptFolderName
        for await output in child.output {
            switch output {
            case .stdout(let line), .stderr(let line):
                state.withLock { state in
                    if case .stderr = output {
                        // The runtime's message ("…: Fatal error: …") says more than the stack that follows.
                        if state.fatalLine == nil, line.contains("Fatal error") { state.fatalLine = line }
                        state.stderrTail.append(line)
                        if state.stderrTail.count > 8 { state.stderrTail.removeFirst() }
                    }
                    let kept = String(line.prefix(Self.maxLogLineCharacters))
                    let listening = state.listening
                    if listening.isEmpty, state.unclaimedLog.count < Self.maxLogLines {
                        state.unclaimedLog.append(kept)
                    }
                    for id in listening {
                        if state.served[id]!.log.count < Self.maxLogLines {
                            state.served[id]!.log.append(kept)
                        } else {
                            state.served[id]!.dropped += 1
                        }
                    }
                }
            case .event(let line):
                guard let event = HostProtocol.decode(HostEvent.self, from: line) else { continue }
                await handle(event, kept: kept)
            case .exited(let status, let signal):
                state.withLock { $0.exit = (status, signal) }
            }
        }
        let ended: [Served] = state.withLock { state in
            state.ended = true
            let open = state.served.values.filter { $0.run == nil }
            for (id, served) in state.served where served.run == nil {
                state.served[id]!.run = run(of: served, end: processEnd(for: id, in: state), peak: state.peak)
            }
            return open
        }
        for served in ended { served.finished.fire() }
        await proxy.stop()
        await host.computePool.run { [container] in try? FileManager.default.removeItem(atPath: container) }
        endedSignal.fire()
    }

    /// What the process's end means for notification `id`, which had not called its handler.
    private func processEnd(for id: String, in state: State) -> CustomExtensionEnd {
        switch state.systemEnd {
        case .budget(let who, let label, let budget, let grace)?:
            if who == id { return .contentHandlerNeverCalled(.endedAfterBudget(budget: budget, grace: grace)) }
            return .contentHandlerNeverCalled(
                .endedWithTheProcess(
                    "the system ended it (SIGKILL) when the budget of \(budget.shortDescription) and a grace of \(grace.shortDescription) of \(label.isEmpty ? "another notification" : label) ran out"
                ))
        case .memory(let used, let limit)?:
            return .memoryLimit(usedBytes: used, limitBytes: limit)
        case .refused(let version, let sdk)?:
            return .failedToStart(.protocolVersion(found: version, expected: HostProtocol.version, sdk: sdk))
        case .done?, nil:
            if let signal = state.exit?.signal, signal != SIGKILL || state.systemEnd == nil {
                return .crashed(.init(signal: signal, fatalError: state.fatalLine, lastLines: state.stderrTail))
            }
            if let status = state.exit?.status, status != 0 {
                return .crashed(.init(status: status, fatalError: state.fatalLine, lastLines: state.stderrTail))
            }
            return Task.isCancelled ? .contentHandlerNeverCalled(.richpushStopped) : .contentHandlerNeverCalled(.exited)
        }
    }

    private func handle(_ event: HostEvent, kept: String) async {
        switch event {
        case .hello(let version):
            guard version == HostProtocol.version else { return refuse(version: version) }
            // In the sandbox the extension is `unshare`'s child, the first process of its namespace.
            let pid = (sandboxed ? child.firstChild() : nil) ?? child.pid
            let baseline = MemoryFootprint.bytes(of: pid) ?? 0
            let pending = state.withLock { state -> [(line: String, served: Served)] in
                state.greeted = true
                state.measured = (pid, baseline)
                state.started = true
                defer { state.pending = [] }
                return state.pending.compactMap { id, line in
                    state.served[id]?.info.pid = pid
                    return state.served[id].map { (line, $0) }
                }
            }
            child.send(HostProtocol.line(HostCommand.start))
            for (line, served) in pending {
                served.emit(.started(served.info))
                child.send(line)
            }
        case .ready:
            // A host that says ready without hello speaks the first protocol, which had no version.
            if !state.withLock({ $0.greeted }) { refuse(version: 1) }
        case .contentHandler(let id, _, let content, let contentOf):
            let lookup: (count: Int, served: Served, other: String?)? = state.withLock { state in
                guard state.served[id] != nil else { return nil }
                state.served[id]!.calls += 1
                let calls = state.served[id]!.calls
                if calls == 1, state.served[id]!.expired { state.served[id]!.calledOnlyAtExpiry = true }
                // This handler delivered another notification's content: that one lost its content to this handler.
                if let contentOf, contentOf != id, state.served[contentOf] != nil {
                    state.served[contentOf]!.deliveredThrough = state.labels[id] ?? "another notification"
                }
                if calls > 1, let label = state.labels[id] {
                    // A handler called again while another notification waits on its own: that one's call may have
                    // reached this handler.
                    for other in state.served.keys where other != id && state.served[other]!.calls == 0 {
                        state.served[other]!.calledAgain.removeAll { $0.label == label }
                        state.served[other]!.calledAgain.append((label, calls))
                    }
                }
                let other = contentOf.flatMap { $0 == id ? nil : state.labels[$0] ?? "another notification" }
                return (state.served[id]!.calls, state.served[id]!, other)
            }
            guard let lookup else { return }
            let store = self.store
            var handed = await host.computePool.run {
                AttachmentIntake.receive(content, call: lookup.count, store: store, kept: kept)
            }
            if let other = lookup.other {
                handed.crossTalk = CrossTalk(
                    other: other,
                    detail:
                        "the content handler delivered \(other)'s content (its userInfo): state shared between the notifications of process \(pid)"
                )
            }
            lookup.served.emit(.contentHandler(handed, call: lookup.count))
            if lookup.count == 1 { lookup.served.handlerCalled.fire() }
        case .attachmentFailed(let id, _, let url, let error):
            tell(
                id,
                .attachmentFailed(
                    "UNNotificationAttachment(identifier:url:options:) threw \(error) (for \(String(url.prefix(200))))")
            )
        case .error(let detail):
            state.withLock { state in
                for id in state.served.keys where state.served[id]!.log.count < Self.maxLogLines {
                    state.served[id]!.log.append("richpush host: \(detail.prefix(300))")
                }
            }
        case .wouldSend(let id, let vendor, let request):
            tell(id, .wouldSend("\(vendor.prefix(40)): \(request.summary.prefix(500))"))
        case .frameworkNote(let framework, let detail):
            broadcast(.frameworkNote("\(framework.prefix(40)): \(detail.prefix(500))"))
        case .imageFailed(let id, let vendor, let reason, let detail):
            // A claim from the extension's process: only a reason of the contract counts.
            let known = FallbackReason(rawValue: reason) ?? .networkError
            tell(id, .vendorImageFailed(known, "\(vendor.prefix(40)): \(detail.prefix(500))"))
        }
    }

    /// An event about no notification in particular goes to every notification in flight (one, but in
    /// `concurrent` mode).
    /// Tells the notification `id` names, while it is in flight; else ``broadcast(_:)``. A vendor's module names the
    /// request a report is about (the one whose payload it read), where richpush could not tell them apart.
    func tell(_ id: String?, _ event: CustomExtensionEvent) {
        let sink = id.flatMap { id in state.withLock { $0.served[id].flatMap { $0.run == nil ? $0.emit : nil } } }
        if let sink { sink(event) } else { broadcast(event) }
    }

    /// Tells the notifications ``State/listening`` what the process did.
    func broadcast(_ event: CustomExtensionEvent) {
        let sinks = state.withLock { state in state.listening.compactMap { state.served[$0]?.emit } }
        for sink in sinks { sink(event) }
    }

    private func refuse(version: Int) {
        let sdk = ProcessInfo.processInfo.environment["RICHPUSH_EXTENSION_SDK"].flatMap { $0.isEmpty ? nil : $0 }
        end(.refused(version: version, sdk: sdk))
    }

    /// Reads the process's footprint every ``memoryPollInterval`` once its baseline is known; SIGKILL over the limit.
    private func watchMemory() async {
        while !state.withLock({ $0.ended }) {
            guard (try? await Task.sleep(for: Self.memoryPollInterval)) != nil else { return }
            guard let pid = state.withLock({ $0.measured?.pid }), let footprint = MemoryFootprint.bytes(of: pid) else {
                continue
            }
            let over = state.withLock { state -> (used: Int, limit: Int)? in
                guard let measured = state.measured, state.systemEnd == nil else { return nil }
                let used = footprint - measured.baseline
                state.peak = max(state.peak ?? 0, used)
                let limit = state.memoryLimit ?? host.memoryLimitBytes
                return used > limit ? (used, limit) : nil
            }
            if let over {
                end(.memory(used: over.used, limit: over.limit))
                return
            }
        }
    }

    /// The request as the host protocol carries it: the content iOS builds from the payload (decoded once, by
    /// ``PayloadDecoder``) and the whole APNs payload as `userInfo`.
    static func hostRequest(_ invocation: CustomExtensionInvocation) -> HostRequest {
        let request = invocation.request
        let content = HostContent(
            title: request.content.title, subtitle: request.content.subtitle, body: request.content.body,
            badge: request.badge, sound: request.sound, threadIdentifier: request.threadID ?? "",
            categoryIdentifier: request.category ?? "", targetContentIdentifier: request.targetContentID,
            interruptionLevel: request.interruptionLevel, relevanceScore: request.relevanceScore)
        return HostRequest(
            id: invocation.identifier, content: content, userInfo: JSONWriter.string(.object(request.payload)))
    }
}

/// A one-shot signal: `wait()` returns true once `fire()` was called (before or after), false when the waiting task
/// is cancelled first.
final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [UUID: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Mutex(State())

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume(returning: true) }
    }

    func wait() async -> Bool {
        let key = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Bool? in
                    if state.fired { return true }
                    if Task.isCancelled { return false }
                    state.waiters[key] = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(returning: false)
        }
    }
}

/// Lines the proxy reports, to the process once it exists (a request made before is kept for it).
final class LineRouter: Sendable {
    private let state = Mutex<(target: ExtensionProcess?, early: [String])>((nil, []))

    var target: ExtensionProcess? {
        get { state.withLock { $0.target } }
        set {
            let early = state.withLock { state -> [String] in
                state.target = newValue
                defer { state.early = [] }
                return state.early
            }
            for line in early { newValue?.broadcast(.request(line)) }
        }
    }

    func route(_ line: String) {
        let target = state.withLock { state -> ExtensionProcess? in
            if state.target == nil { state.early.append(line) }
            return state.target
        }
        target?.broadcast(.request(line))
    }
}
