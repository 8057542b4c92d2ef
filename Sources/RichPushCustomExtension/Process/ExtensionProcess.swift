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
///
/// The rules are ``ExtensionProcessState``'s (pure, tested in milliseconds); this class feeds it what happens (the
/// process's output and events, the clock, memory samples) under one lock and carries out the actions it returns:
/// commands written to the process, events told to the notifications, the process ended.
final class ExtensionProcess: Sendable {
    let host: ExtensionProcessHost
    let mode: ExtensionProcessMode
    let child: ChildProcess
    let sandboxed: Bool
    let proxy: ExtensionProxy
    /// The process's container (temporary folder, caches, App Groups, attachment store): one for its life, as on iOS.
    let container: String
    let launchedAt = ContinuousClock.now
    private let state: Mutex<ExtensionProcessState>
    /// Where each notification in flight is told what happens, and the signals its supervision waits on.
    private let sinks = Mutex<[String: Sink]>([:])
    /// Fired when the process has ended and every notification in it was told.
    private let endedSignal = Signal()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private struct Sink: Sendable {
        let emit: @Sendable (CustomExtensionEvent) -> Void
        /// The notification's `UNUserNotificationCenter`, which carries out its extension's calls.
        let center: NotificationCenterSession?
        let handlerCalled = Signal()
        let finished = Signal()
    }

    /// How often the memory footprint is read.
    static let memoryPollInterval = Duration.milliseconds(20)
    /// In `each` mode, how long the process may go on after its content handler (the host lingers
    /// ``HostProtocol/linger`` for a second call, then exits); an extension that keeps it busy is ended then.
    static let afterHandler = Duration.seconds(1)

    var store: String { container + "/AttachmentStore" }
    var pid: pid_t { state.withLock { $0.measured?.pid } ?? child.pid }

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
        self.state = Mutex(ExtensionProcessState(mode: mode, memoryLimit: host.memoryLimitBytes))
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
            HostProtocol.Environment.attachmentStore: container + "/AttachmentStore",
            HostProtocol.Environment.appGroupContainer: container + "/AppGroups",
            HostProtocol.Environment.eventsDescriptor: "3",
            HostProtocol.Environment.lingerMilliseconds: "\(HostProtocol.lingerMilliseconds)",
            HostProtocol.Environment.processMode: mode.rawValue,
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
    var hasEnded: Bool { state.withLock { $0.isEnding } }

    // MARK: - Carrying out the state's actions

    private func perform(_ actions: [ExtensionProcessState.Action]) {
        for action in actions {
            switch action {
            case .send(let command):
                do {
                    child.send(try HostProtocol.line(command))
                } catch {
                    // Never sent as something else: said in the log of every notification in flight.
                    state.withLock { $0.hostError(error.description) }
                }
            case .tell(let id, let event):
                sinks.withLock { $0[id] }?.emit(event)
            case .finished(let id):
                sinks.withLock { $0[id] }?.finished.fire()
            case .kill:
                child.kill()
            case .center(let id, let serial, let call):
                // Carried out in the order the calls came (this loop is the events channel's): a removal is seen by the
                // next lookup.
                let center = sinks.withLock { $0[id] }?.center
                let (answer, detail) =
                    center?.answer(call) ?? (HostCenterAnswer(), "\(call.kind.rawValue): no notification center")
                perform([.send(.answer(serial: serial, answer))])
                tell(id, .notificationCenter(detail))
            }
        }
    }

    /// Feeds the state one event under its lock and carries out what it asks for.
    private func update(_ change: (inout ExtensionProcessState) -> [ExtensionProcessState.Action]) {
        perform(state.withLock { change(&$0) })
    }

    // MARK: - Serving a notification

    /// Hands the notification to the process and supervises it until its run is decided: its budget, then
    /// `serviceExtensionTimeWillExpire()`, then the grace, then SIGKILL for the process; its handler calls. In `each`
    /// mode the run is decided when the process ends; in the others shortly after the first handler call.
    func serve(
        _ invocation: CustomExtensionInvocation, clock: any Clock<Duration>,
        emit: @escaping @Sendable (CustomExtensionEvent) -> Void
    ) async -> CustomExtensionRun? {
        let id = invocation.identifier
        // A process refused at its hello (another protocol version) refuses every notification handed to it: the
        // next process would be refused too, so that is the notification's end, not a reason to try another.
        if case .refused(let version, let sdk)? = state.withLock({ $0.systemEnd }) {
            return CustomExtensionRun(
                end: .failedToStart(.protocolVersion(found: version, expected: HostProtocol.version, sdk: sdk)),
                contentHandlerCalls: 0, log: [])
        }
        let command = HostCommand.request(Self.hostRequest(invocation))
        do {
            _ = try HostProtocol.line(command)
        } catch {
            return CustomExtensionRun(
                end: .failedToStart(.request(reason: error.description)), contentHandlerCalls: 0, log: [])
        }
        let sink = Sink(emit: emit, center: invocation.center)
        sinks.withLock { $0[id] = sink }
        defer { sinks.withLock { $0[id] = nil } }
        let age = (ContinuousClock.now - launchedAt).seconds
        guard
            let accepted = state.withLock({
                $0.accept(
                    id: id, label: invocation.label, request: command, pid: child.pid, age: age,
                    memoryLimit: invocation.memoryLimitBytes)
            })
        else { return nil }
        perform(accepted.actions)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.budget(invocation, clock: clock) }
            group.addTask {
                guard await sink.handlerCalled.wait() else { return }
                if self.mode == .each {
                    // The host exits on its own shortly after; one that keeps the process busy is ended then.
                    guard (try? await Task.sleep(for: Self.afterHandler)) != nil else { return }
                    self.end(.done)
                } else {
                    guard (try? await Task.sleep(for: HostProtocol.linger)) != nil else { return }
                    self.update { $0.lingerEnded(id: id) }
                }
            }
            await withTaskCancellationHandler {
                _ = await sink.finished.wait()
            } onCancel: {
                if self.mode == .each { self.child.kill() }
                self.update { $0.abandoned(id: id) }
            }
            group.cancelAll()
        }
        return state.withLock { $0.remove(id) }
            ?? CustomExtensionRun(end: .contentHandlerNeverCalled(.richpushStopped), contentHandlerCalls: 0, log: [])
    }

    /// The budget, then `serviceExtensionTimeWillExpire()`, then the grace, then SIGKILL for the process.
    private func budget(_ invocation: CustomExtensionInvocation, clock: any Clock<Duration>) async {
        let id = invocation.identifier
        guard (try? await clock.sleep(for: invocation.budget)) != nil else { return }
        switch state.withLock({ $0.budgetRanOut(id: id) }) {
        case .done(let actions):
            perform(actions)
        case .expire(let actions):
            perform(actions)
            guard (try? await clock.sleep(for: host.grace)) != nil else { return }
            update { $0.graceRanOut(id: id, budget: invocation.budget, grace: host.grace) }
        }
    }

    /// Ends the process (SIGKILL), for `reason`; the first reason wins. Every notification in it is told when it has
    /// ended.
    func end(_ reason: ExtensionProcessState.SystemEnd) {
        update { $0.end(reason) }
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
    /// container and proxy. The process's output is read only as fast as it is handled here: one that floods its
    /// channels waits on its own pipes, not on richpush's memory.
    private func pump() async {
        let kept = host.folder.path + "/" + AttachmentIntake.keptFolderName
        for await output in child.output {
            switch output {
            case .stdout(let line):
                state.withLock { $0.output(line, standardError: false) }
            case .stderr(let line):
                state.withLock { $0.output(line, standardError: true) }
            case .event(let line):
                if let event = HostProtocol.decode(HostEvent.self, from: line) {
                    await handle(event, kept: kept)
                } else {
                    state.withLock { $0.malformed(line) }
                }
            case .exited(let status, let signal):
                state.withLock { $0.exited(status: status, signal: signal) }
            }
            child.handled()
        }
        // Nothing reads any more: the reader must not wait for this loop.
        child.stopPacing()
        let richpushStopped = Task.isCancelled
        update { $0.processEnded(richpushStopped: richpushStopped) }
        await proxy.stop()
        await host.computePool.run { [container] in try? FileManager.default.removeItem(atPath: container) }
        endedSignal.fire()
    }

    /// The process whose memory counts: in the sandbox the extension is `unshare`'s child, the first process of its
    /// namespace.
    private func measuredPID() -> pid_t {
        state.withLock { $0.measured?.pid } ?? (sandboxed ? child.firstChild() : nil) ?? child.pid
    }

    private func handle(_ event: HostEvent, kept: String) async {
        switch event {
        case .hello(let version):
            let pid = measuredPID()
            let footprint = MemoryFootprint.bytes(of: pid) ?? 0
            update { $0.hello(version: version, pid: pid, footprint: footprint, sdk: Self.sdk) }
        case .ready:
            update { $0.ready(sdk: Self.sdk) }
        case .contentHandler(let id, _, let content, let contentOf, let calledFrom):
            let pid = self.pid
            let decided: (call: ExtensionProcessState.HandlerCall, admitted: Bool)? = state.withLock { state in
                guard let call = state.handlerCalled(id: id, contentOf: contentOf, calledFrom: calledFrom, pid: pid)
                else { return nil }
                // The first call always counts; later ones are events like any other, within the bound.
                return (call, call.call == 1 || state.admitEvent(about: id) == [id])
            }
            guard let decided, decided.admitted, let sink = sinks.withLock({ $0[id] }) else { return }
            let store = self.store
            var handed = await host.computePool.run {
                AttachmentIntake.receive(content, call: decided.call.call, store: store, kept: kept)
            }
            handed.crossTalk = decided.call.crossTalk
            sink.emit(.contentHandler(handed, call: decided.call.call))
            if decided.call.call == 1 { sink.handlerCalled.fire() }
        case .attachmentFailed(let id, _, let url, let error):
            tell(
                id,
                .attachmentFailed(
                    "UNNotificationAttachment(identifier:url:options:) threw \(error) (for \(String(url.prefix(200))))")
            )
        case .error(let detail):
            state.withLock { $0.hostError(detail) }
        case .wouldSend(let id, let vendor, let request):
            tell(id, .wouldSend("\(vendor.prefix(40)): \(request.summary.prefix(500))"))
        case .center(let serial, let id, let call):
            update { $0.centerCall(serial: serial, id: id, call: call) }
        case .frameworkNote(let framework, let detail):
            tell(nil, .frameworkNote("\(framework.prefix(40)): \(detail.prefix(500))"))
        case .imageFailed(let id, let vendor, let reason, let detail):
            tell(id, .vendorImageFailed(reason, "\(vendor.prefix(40)): \(detail.prefix(500))"))
        }
    }

    /// Tells the notification `id` names, while it is in flight; else every notification listening
    /// (``ExtensionProcessState/listening``): what the process did, within each one's bound of events. A vendor's
    /// module names the request a report is about (the one whose payload it read), where richpush could not tell them
    /// apart.
    func tell(_ id: String?, _ event: CustomExtensionEvent) {
        let targets = state.withLock { $0.admitEvent(about: id) }
        perform(targets.map { .tell(id: $0, event) })
    }

    /// The SDK folder richpush was pointed at, for a refusal's words.
    private static var sdk: String? {
        ProcessInfo.processInfo.environment["RICHPUSH_EXTENSION_SDK"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads the process's footprint every ``memoryPollInterval`` once its baseline is known; SIGKILL over the limit.
    private func watchMemory() async {
        while !state.withLock({ $0.ended }) {
            guard (try? await Task.sleep(for: Self.memoryPollInterval)) != nil else { return }
            guard let pid = state.withLock({ $0.measured?.pid }), let footprint = MemoryFootprint.bytes(of: pid) else {
                continue
            }
            let actions = state.withLock { $0.memorySample(footprint) }
            perform(actions)
            if !actions.isEmpty { return }
        }
    }

    /// The request as the host protocol carries it: the content iOS builds from the payload (decoded once, by
    /// ``PayloadDecoder``) and the whole APNs payload as `userInfo`.
    static func hostRequest(_ invocation: CustomExtensionInvocation) -> HostRequest {
        HostRequest(
            id: invocation.identifier, content: invocation.request.hostContent,
            userInfo: JSONWriter.string(.object(invocation.request.payload)))
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
            for line in early { newValue?.tell(nil, .request(line)) }
        }
    }

    func route(_ line: String) {
        let target = state.withLock { state -> ExtensionProcess? in
            if state.target == nil { state.early.append(line) }
            return state.target
        }
        target?.tell(nil, .request(line))
    }
}
