import Foundation
import RichPushCore
import RichPushFiles
import RichPushHostProtocol
import RichPushNetwork
import Synchronization

/// One notification in one process of a team's extension: its container, its proxy, the process in its sandbox, and
/// the system's watchers (the budget and its grace, the memory footprint, the time after the content handler), each
/// a child of one task group, so all end with the run.
struct ExtensionRun: Sendable {
    let host: ExtensionProcessHost
    let invocation: CustomExtensionInvocation
    let clock: any Clock<Duration>
    let emit: @Sendable (CustomExtensionEvent) -> Void

    /// How often the memory footprint is read.
    static let memoryPollInterval = Duration.milliseconds(20)
    /// How long the process may go on after its first content handler call (the host lingers 200 ms for a second
    /// call, then exits).
    static let afterHandler = Duration.seconds(1)
    static let maxLogLines = 200
    static let maxLogLineCharacters = 1_000

    /// What the watchers found; the first reason to end the process wins.
    private final class Watch: Sendable {
        let state = Mutex(Found())

        func withLock<T: Sendable>(_ body: (inout Found) -> T) -> T { state.withLock { body(&$0) } }
    }

    private struct Found: Sendable {
        var calls = 0
        /// The extension's own process (in a sandbox, the namespace's first one) and its footprint before its
        /// principal class was made.
        var measured: (pid: pid_t, baseline: Int)?
        /// The largest footprint seen above the baseline.
        var peak: Int?
        var ended: CustomExtensionEnd?
    }

    func run() async -> CustomExtensionRun {
        let container = host.folder.path + "/containers/" + UUID().uuidString
        let store = container + "/AttachmentStore"
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
        if let made {
            return CustomExtensionRun(
                end: .failedToStart(.container(path: container, reason: made)), contentHandlerCalls: 0, log: [])
        }
        if let problem = host.trustProblem { emit(.request(problem)) }
        let proxy: ExtensionProxy
        do {
            proxy = try await ExtensionProxy.start(fixtureCDN: host.fixtureCDN) { [emit] in emit(.request($0)) }
        } catch {
            await removeContainer(container)
            return CustomExtensionRun(
                end: .failedToStart(.proxy(reason: "\(error)")), contentHandlerCalls: 0, log: [])
        }
        let ended = await supervise(container: container, store: store, proxyPort: proxy.port)
        await proxy.stop()
        await removeContainer(container)
        return ended
    }

    private func removeContainer(_ container: String) async {
        await host.computePool.run { try? FileManager.default.removeItem(atPath: container) }
    }

    private func supervise(container: String, store: String, proxyPort: Int) async -> CustomExtensionRun {
        let proxyURL = "http://127.0.0.1:\(proxyPort)"
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": container + "/Home", "TMPDIR": container + "/tmp",
            "XDG_CACHE_HOME": container + "/Library/Caches", "LANG": "C.UTF-8",
            "https_proxy": proxyURL, "HTTPS_PROXY": proxyURL, "http_proxy": proxyURL, "HTTP_PROXY": proxyURL,
            "no_proxy": "", "NO_PROXY": "",
            "RICHPUSH_ATTACHMENT_STORE": store, "RICHPUSH_APP_GROUP_CONTAINER": container + "/AppGroups",
            HostProtocol.eventsDescriptorVariable: "3", "RICHPUSH_LINGER_MS": "200",
            // A crash ends with the runtime's own message ("Fatal error: …") as its last line, at once, rather than
            // after a symbolicated backtrace.
            "SWIFT_BACKTRACE": "enable=no",
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
            let end: CustomExtensionEnd =
                switch error {
                case .pipe(let code): .failedToStart(.spawn(path: command[0], errno: code))
                case .exec(let path, let code): .failedToStart(.spawn(path: path, errno: code))
                }
            return CustomExtensionRun(end: end, contentHandlerCalls: 0, log: [])
        }

        let watch = Watch()
        let kept = host.folder.path + "/" + AttachmentIntake.keptFolderName
        var log: [String] = []
        var dropped = 0
        var stderrTail: [String] = []
        var fatalLine: String?
        var exit: (status: Int32?, signal: Int32?) = (nil, nil)
        var greeted = false
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await budget(child: child, watch: watch) }
            group.addTask { await watchMemory(child: child, watch: watch) }
            await withTaskCancellationHandler {
                for await output in child.output {
                    switch output {
                    case .stdout(let line), .stderr(let line):
                        if case .stderr = output {
                            // The runtime's message ("…: Fatal error: …") says more than the stack that follows.
                            if fatalLine == nil, line.contains("Fatal error") { fatalLine = line }
                            stderrTail.append(line)
                            if stderrTail.count > 8 { stderrTail.removeFirst() }
                        }
                        if log.count < Self.maxLogLines {
                            log.append(String(line.prefix(Self.maxLogLineCharacters)))
                        } else {
                            dropped += 1
                        }
                    case .event(let line):
                        guard let event = HostProtocol.decode(HostEvent.self, from: line) else { continue }
                        switch event {
                        case .hello(let version):
                            greeted = true
                            greet(version: version, child: child, sandboxed: sandboxed, watch: watch)
                        case .ready:
                            // A host that says ready without hello speaks the first protocol, which had no version.
                            if !greeted { refuse(version: 1, child: child, watch: watch) }
                            emit(.started("process \(child.pid)"))
                        case .contentHandler(_, _, let content):
                            let count = watch.withLock { state -> Int in
                                state.calls += 1
                                return state.calls
                            }
                            let handed = await host.computePool.run {
                                AttachmentIntake.receive(content, call: count, store: store, kept: kept)
                            }
                            emit(.contentHandler(handed, call: count))
                            if count == 1 {
                                // The host exits on its own shortly after the first call; an extension that keeps the
                                // process busy (a blocked main thread) is ended by the system, as iOS ends an extension
                                // it is done with.
                                group.addTask {
                                    do {
                                        try await Task.sleep(for: Self.afterHandler)
                                    } catch { return }
                                    child.kill()
                                }
                            }
                        case .attachmentFailed(_, _, let url, let error):
                            emit(
                                .attachmentFailed(
                                    "UNNotificationAttachment(identifier:url:options:) threw \(error) (for \(String(url.prefix(200))))"
                                ))
                        case .error(let detail):
                            if log.count < Self.maxLogLines { log.append("richpush host: \(detail.prefix(300))") }
                        case .wouldSend(_, let vendor, let request):
                            emit(.wouldSend("\(vendor.prefix(40)): \(request.summary.prefix(500))"))
                        case .frameworkNote(let framework, let detail):
                            emit(.frameworkNote("\(framework.prefix(40)): \(detail.prefix(500))"))
                        case .imageFailed(_, let vendor, let reason, let detail):
                            // A claim from the extension's process: only a reason of the contract counts.
                            let known = FallbackReason(rawValue: reason) ?? .networkError
                            emit(.vendorImageFailed(known, "\(vendor.prefix(40)): \(detail.prefix(500))"))
                        }
                    case .exited(let status, let signal):
                        exit = (status, signal)
                    }
                }
            } onCancel: {
                child.kill()
            }
            group.cancelAll()
        }
        if dropped > 0 { log.append("… \(dropped) more lines not kept") }
        let state = watch.withLock { $0 }
        let end: CustomExtensionEnd
        if let ended = state.ended {
            end = ended
        } else if state.calls > 0 {
            end = .contentHandlerCalled
        } else if let signal = exit.signal {
            end = .crashed(.init(signal: signal, fatalError: fatalLine, lastLines: stderrTail))
        } else if let status = exit.status, status != 0 {
            end = .crashed(.init(status: status, fatalError: fatalLine, lastLines: stderrTail))
        } else if Task.isCancelled {
            end = .contentHandlerNeverCalled(.richpushStopped)
        } else {
            end = .contentHandlerNeverCalled(.exited)
        }
        return CustomExtensionRun(
            end: end, contentHandlerCalls: state.calls, log: log, peakFootprintBytes: state.peak)
    }

    /// The host's hello: the version is checked and the baseline taken before the principal class exists, then the
    /// host is told to start and handed the request.
    private func greet(version: Int, child: ChildProcess, sandboxed: Bool, watch: Watch) {
        guard version == HostProtocol.version else { return refuse(version: version, child: child, watch: watch) }
        // In the sandbox the extension is `unshare`'s child, the first process of its namespace.
        let pid = (sandboxed ? child.firstChild() : nil) ?? child.pid
        let baseline = MemoryFootprint.bytes(of: pid) ?? 0
        watch.withLock { $0.measured = (pid, baseline) }
        child.send(HostProtocol.line(HostCommand.start))
        child.send(HostProtocol.line(HostCommand.request(hostRequest)))
    }

    private func refuse(version: Int, child: ChildProcess, watch: Watch) {
        let sdk = ProcessInfo.processInfo.environment["RICHPUSH_EXTENSION_SDK"].flatMap { $0.isEmpty ? nil : $0 }
        watch.withLock { state in
            if state.ended == nil {
                state.ended = .failedToStart(
                    .protocolVersion(found: version, expected: HostProtocol.version, sdk: sdk))
            }
        }
        child.kill()
    }

    /// The request as the host protocol carries it: the content iOS builds from the payload (decoded once, by
    /// ``PayloadDecoder``) and the whole APNs payload as `userInfo`.
    var hostRequest: HostRequest {
        let request = invocation.request
        let content = HostContent(
            title: request.content.title, subtitle: request.content.subtitle, body: request.content.body,
            badge: request.badge, sound: request.sound, threadIdentifier: request.threadID ?? "",
            categoryIdentifier: request.category ?? "", targetContentIdentifier: request.targetContentID,
            interruptionLevel: request.interruptionLevel, relevanceScore: request.relevanceScore)
        return HostRequest(
            id: invocation.identifier, content: content, userInfo: JSONWriter.string(.object(request.payload)))
    }

    /// The budget, then `serviceExtensionTimeWillExpire()`, then the grace, then SIGKILL.
    private func budget(child: ChildProcess, watch: Watch) async {
        let budget = invocation.budget
        let grace = host.grace
        do {
            try await clock.sleep(for: budget)
        } catch { return }
        if watch.withLock({ $0.calls }) == 0 {
            emit(.timeWillExpire)
            child.send(HostProtocol.line(HostCommand.expire(id: invocation.identifier)))
            do {
                try await clock.sleep(for: grace)
            } catch { return }
        }
        let ended = watch.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            state.ended =
                state.calls == 0
                ? .contentHandlerNeverCalled(.endedAfterBudget(budget: budget, grace: grace)) : .contentHandlerCalled
            return true
        }
        if ended { child.kill() }
    }

    /// Reads the footprint every ``memoryPollInterval`` once the baseline is known; SIGKILL over the limit.
    private func watchMemory(child: ChildProcess, watch: Watch) async {
        let limit = host.memoryLimitBytes
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: Self.memoryPollInterval)
            } catch { return }
            guard let pid = watch.withLock({ $0.measured?.pid }), let footprint = MemoryFootprint.bytes(of: pid) else {
                continue
            }
            let over = watch.withLock { state -> Bool in
                guard let measured = state.measured, state.ended == nil else { return false }
                let used = footprint - measured.baseline
                state.peak = max(state.peak ?? 0, used)
                guard used > limit else { return false }
                state.ended = .memoryLimit(usedBytes: used, limitBytes: limit)
                return true
            }
            if over {
                child.kill()
                return
            }
        }
    }
}
