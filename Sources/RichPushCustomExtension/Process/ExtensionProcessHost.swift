import Crypto
import Foundation
import RichPushCore
import RichPushFiles
public import RichPushNetwork
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a team's built extension as iOS runs one: a process per notification, its own container folders, the
/// network through ``ExtensionProxy``, ended by the system when its budget and grace are over, when its memory
/// footprint passes the limit, or shortly after its content handler was called.
public final class ExtensionProcessHost: CustomExtensionHosting {
    public let identity: ExtensionIdentity
    let built: BuiltExtension
    let fixtureCDN: FixtureCDN?
    /// The namespace that makes the extension trust the fixture CDN, or why there is none.
    let trust: Result<TrustedNamespace, TrustedNamespace.Unavailable>?
    /// Containers, attachment stores and the CA bundle: one temporary folder (`richpush-extension-<pid>-<random>`),
    /// removed by ``shutdown()``, or by a later host when this process was killed first (``OwnedFolder``).
    let folder: OwnedFolder
    /// ``folder``'s path, which attachment paths are compared to.
    var workFolder: String { folder.path }
    let memoryLimitBytes: Int
    /// After `serviceExtensionTimeWillExpire()` the process has this long to call its handler before SIGKILL.
    let grace: Duration
    /// How often the memory footprint is read.
    static let memoryPollInterval = Duration.milliseconds(20)
    /// How long the process may go on after its first content handler call (the host lingers 200 ms for a
    /// second call, then exits).
    static let afterHandler = Duration.seconds(1)
    static let maxLogLines = 200
    static let maxLogLineCharacters = 1_000

    init(
        built: BuiltExtension, fixtureCDN: FixtureCDN?, trust: Result<TrustedNamespace, TrustedNamespace.Unavailable>?,
        folder: OwnedFolder, memoryLimitBytes: Int, grace: Duration
    ) {
        self.built = built
        self.fixtureCDN = fixtureCDN
        self.trust = trust
        self.folder = folder
        self.memoryLimitBytes = memoryLimitBytes
        self.grace = grace
        self.identity = ExtensionIdentity(kind: .custom, source: built.folder, principalClass: built.principalClass)
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Prepares the host: its temporary folder, and the namespace that lets the extension trust `fixtureCDN`.
    public static func start(
        _ built: BuiltExtension, fixtureCDN: FixtureCDN?,
        memoryLimitBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes, grace: Duration = .seconds(1)
    ) async throws(StartFailure) -> ExtensionProcessHost {
        let parent = FileManager.default.temporaryDirectory.path
        let folder: OwnedFolder
        do {
            folder = try OwnedFolder(prefix: folderPrefix, in: parent)
        } catch {
            throw StartFailure(
                description: "cannot create a folder for the extension's containers in \(parent): \(error)")
        }
        var trust: Result<TrustedNamespace, TrustedNamespace.Unavailable>?
        if let fixtureCDN {
            do throws(TrustedNamespace.Unavailable) {
                trust = .success(
                    try await TrustedNamespace.prepare(caCertificatePEM: fixtureCDN.caCertificatePEM, in: folder.path))
            } catch {
                trust = .failure(error)
            }
        }
        return ExtensionProcessHost(
            built: built, fixtureCDN: fixtureCDN, trust: trust, folder: folder,
            memoryLimitBytes: memoryLimitBytes, grace: grace)
    }

    /// Host folders are named `richpush-extension-<pid>-<random>`.
    static let folderPrefix = "richpush-extension"

    /// Removes every container and kept attachment.
    public func shutdown() {
        try? FileManager.default.removeItem(atPath: workFolder)
    }

    /// Why the extension's requests to the fixture CDN will fail certificate checks; nil when they will not.
    public var trustProblem: String? {
        if case .failure(let problem) = trust {
            return
                "the extension cannot be made to trust the fixture CDN (\(problem.reason)); its requests to \(FixtureCDN.host) fail certificate checks"
        }
        return nil
    }

    /// Removes a kept attachment: only a file the host itself moved into its attachments folder.
    public func discardAttachment(atPath path: String) async {
        guard Self.isStored(path, in: workFolder + "/attachments") else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    public func run(_ invocation: CustomExtensionInvocation, clock: any Clock<Duration>)
        -> AsyncStream<CustomExtensionEvent>
    {
        let (stream, continuation) = AsyncStream<CustomExtensionEvent>.makeStream()
        let task = Task {
            let run = await runProcess(invocation, clock: clock) { continuation.yield($0) }
            continuation.yield(.ended(run))
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// What the watchers found; the first reason to end the process wins.
    private struct Watch: Sendable {
        var calls = 0
        var baseline: Int?
        /// The largest footprint seen above the baseline.
        var peak: Int?
        var ended: CustomExtensionEnd?
    }

    private final class SharedWatch: Sendable {
        let state = Mutex(Watch())

        func withLock<T: Sendable>(_ body: (inout Watch) -> T) -> T { state.withLock { body(&$0) } }
    }

    private func runProcess(
        _ invocation: CustomExtensionInvocation, clock: any Clock<Duration>,
        emit: @escaping @Sendable (CustomExtensionEvent) -> Void
    ) async -> CustomExtensionRun {
        let container = workFolder + "/containers/" + UUID().uuidString
        let store = container + "/AttachmentStore"
        let folders = ["tmp", "Library/Caches", "AppGroups", "AttachmentStore", "Home"].map { container + "/" + $0 }
        defer { try? FileManager.default.removeItem(atPath: container) }
        do {
            for folder in folders {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        } catch {
            return CustomExtensionRun(
                end: .failedToStart("cannot create its container in \(container): \(error.localizedDescription)"),
                contentHandlerCalls: 0, log: [])
        }
        if let problem = trustProblem { emit(.request(problem)) }
        let proxy: ExtensionProxy
        do {
            proxy = try await ExtensionProxy.start(fixtureCDN: fixtureCDN) { emit(.request($0)) }
        } catch {
            return CustomExtensionRun(
                end: .failedToStart("cannot start its network proxy: \(error)"), contentHandlerCalls: 0, log: [])
        }
        defer { Task { await proxy.stop() } }
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": container + "/Home", "TMPDIR": container + "/tmp",
            "XDG_CACHE_HOME": container + "/Library/Caches", "LANG": "C.UTF-8",
            "https_proxy": proxyURL, "HTTPS_PROXY": proxyURL, "http_proxy": proxyURL, "HTTP_PROXY": proxyURL,
            "no_proxy": "", "NO_PROXY": "",
            "RICHPUSH_ATTACHMENT_STORE": store, "RICHPUSH_APP_GROUP_CONTAINER": container + "/AppGroups",
            "RICHPUSH_EVENTS_FD": "3", "RICHPUSH_LINGER_MS": "200",
            // A crash ends with the runtime's own message ("Fatal error: …") as its last line, at once, rather than
            // after a symbolicated backtrace.
            "SWIFT_BACKTRACE": "enable=no",
        ]
        let command: [String] =
            if case .success(let namespace) = trust { namespace.wrap([built.executable]) } else { [built.executable] }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(command, environment: environment)
        } catch {
            return CustomExtensionRun(end: .failedToStart(error.description), contentHandlerCalls: 0, log: [])
        }
        child.send(invocation.requestLine)

        let watch = SharedWatch()
        let keptFolder = workFolder + "/attachments"
        var log: [String] = []
        var dropped = 0
        var stderrTail: [String] = []
        var fatalLine: String?
        var exit: (status: Int32?, signal: Int32?) = (nil, nil)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [grace] in
                // The budget, then serviceExtensionTimeWillExpire(), then the grace, then SIGKILL.
                do {
                    try await clock.sleep(for: invocation.budget)
                } catch { return }
                if watch.withLock({ $0.calls }) == 0 {
                    emit(.timeWillExpire)
                    child.send("expire")
                    do {
                        try await clock.sleep(for: grace)
                    } catch { return }
                }
                let ended = watch.withLock { state -> Bool in
                    guard state.ended == nil else { return false }
                    if state.calls == 0 {
                        state.ended = .contentHandlerNeverCalled(
                            "ended by the system (SIGKILL) after its budget of \(invocation.budget.shortDescription) and a grace of \(grace.shortDescription) without calling its content handler"
                        )
                    } else {
                        state.ended = .contentHandlerCalled
                    }
                    return true
                }
                if ended { child.kill() }
            }
            group.addTask { [memoryLimitBytes] in
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: Self.memoryPollInterval)
                    } catch { return }
                    guard let footprint = MemoryFootprint.bytes(of: child.pid) else { continue }
                    let over = watch.withLock { state -> Bool in
                        guard let baseline = state.baseline, state.ended == nil else { return false }
                        let used = footprint - baseline
                        state.peak = max(state.peak ?? 0, used)
                        guard used > memoryLimitBytes else { return false }
                        state.ended = .memoryLimit(
                            "ended by the system (SIGKILL): its memory footprint reached \(ByteCount.limit(used)) above an empty extension's, over the limit of \(ByteCount.limit(memoryLimitBytes))"
                        )
                        return true
                    }
                    if over {
                        child.kill()
                        return
                    }
                }
            }
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
                        handle(event: line, child: child, watch: watch, store: store, kept: keptFolder, emit: emit)
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
            end = .crashed(
                "crashed with signal \(signal) (\(Self.signalName(signal)))\(Self.lastWords(fatalLine, stderrTail))")
        } else if let status = exit.status, status != 0 {
            end = .crashed("exited with status \(status)\(Self.lastWords(fatalLine, stderrTail))")
        } else if Task.isCancelled {
            end = .contentHandlerNeverCalled("ended when richpush stopped")
        } else {
            end = .contentHandlerNeverCalled("the process exited without calling its content handler")
        }
        return CustomExtensionRun(
            end: end, contentHandlerCalls: state.calls, log: log, peakFootprintBytes: state.peak)
    }

    /// One line from the process's events descriptor. The process is the team's code, so a line is taken as a
    /// claim: an attachment counts only when its file is in this notification's store.
    private func handle(
        event line: String, child: ChildProcess, watch: SharedWatch, store: String, kept: String,
        emit: @Sendable (CustomExtensionEvent) -> Void
    ) {
        guard let object = try? JSONParser.parse(Array(line.utf8)), let name = object["event"]?.stringValue else {
            return
        }
        switch name {
        case "ready":
            let baseline = MemoryFootprint.bytes(of: child.pid) ?? 0
            watch.withLock { $0.baseline = baseline }
            emit(.started("process \(child.pid)"))
        case "attachmentFailed":
            let error = object["error"]?.stringValue ?? "an error"
            let url = object["url"]?.stringValue ?? ""
            emit(
                .attachmentFailed(
                    "UNNotificationAttachment(identifier:url:options:) threw \(error) (for \(String(url.prefix(200))))")
            )
        case "contentHandler":
            let call = watch.withLock { state -> Int in
                state.calls += 1
                return state.calls
            }
            let content = object["content"] ?? .object([:])
            func text(_ key: String) -> String { content[key]?.stringValue ?? "" }
            var handed = HandedContent(
                title: text("title"), subtitle: text("subtitle"), body: text("body"),
                badge: content["badge"]?.numberValue.flatMap { Int(exactly: $0) },
                sound: content["sound"]?.stringValue, threadIdentifier: text("threadIdentifier"),
                categoryIdentifier: text("categoryIdentifier"))
            if call == 1, case .array(let attachments)? = content["attachments"] {
                handed.attachments = attachments.enumerated().compactMap { index, attachment in
                    guard let file = attachment["file"]?.stringValue else { return nil }
                    let type = attachment["type"]?.stringValue ?? ""
                    let identifier = attachment["identifier"]?.stringValue ?? ""
                    guard Self.isStored(file, in: store) else {
                        return HandedAttachment(
                            identifier: identifier, file: file, type: type,
                            inspection: .notAnImage("not a file in the attachment store (attachmentNotInDataStore)"))
                    }
                    // Only the first is shown; it is kept until its result is reported.
                    let path = index == 0 ? Self.keep(file, in: kept) ?? file : file
                    return HandedAttachment(
                        identifier: identifier, file: path, type: type, inspection: Self.inspect(path, type: type))
                }
            }
            emit(.contentHandler(handed, call: call))
            if call == 1 {
                // The host exits on its own shortly after the first call; an extension that keeps the process
                // busy (a blocked main thread) is ended by the system, as iOS ends an extension it is done with.
                Task {
                    try? await Task.sleep(for: Self.afterHandler)
                    child.kill()
                }
            }
        default:
            break
        }
    }

    /// Whether `path` names a regular file (not a link) directly in `folder`, with no `..` on the way.
    static func isStored(_ path: String, in folder: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        guard url.standardizedFileURL.path == path, url.deletingLastPathComponent().path == folder else {
            return false
        }
        return (try? FileNode.itself(path).get())?.isRegularFile == true
    }

    /// Moves a stored attachment out of the notification's store (removed with its container) into `folder`.
    static func keep(_ file: String, in folder: String) -> String? {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let destination = folder + "/" + UUID().uuidString + "." + (file as NSString).pathExtension
        return rename(file, destination) == 0 ? destination : nil
    }

    /// What an attached file is, read as the system reads it.
    static func inspect(_ path: String, type: String) -> HandedAttachment.Inspection {
        let imageTypes = ["public.jpeg", "public.png", "com.compuserve.gif"]
        guard imageTypes.contains(type) else { return .media }
        let url = URL(fileURLWithPath: path)
        let inspection: ImageInspection
        do {
            inspection = try ImageInspector.inspect(fileAt: url)
        } catch {
            return .notAnImage("unreadable (\(error.localizedDescription))")
        }
        switch inspection {
        case .image(let info):
            guard let (bytes, sha256) = digest(of: path) else { return .notAnImage("unreadable") }
            return .image(
                DownloadedImage(
                    file: url, format: info.format, width: info.width, height: info.height, frames: info.frames,
                    bytes: bytes, sha256: sha256, servedContentType: nil))
        case .unsupportedImageType(let name):
            return .notAnImage("a \(name) image")
        case .notAnImage(let what):
            return .notAnImage(what)
        }
    }

    /// The file's size and SHA-256, read in pieces.
    static func digest(of path: String) -> (Int, String)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        var total = 0
        while let data = try? handle.read(upToCount: 64 * 1024), !data.isEmpty {
            hasher.update(data: data)
            total += data.count
        }
        return (total, hasher.finalize().map { String(format: "%02x", $0) }.joined())
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL, a Swift runtime trap: fatalError, a force unwrap of nil, try!, an index out of range"
        case SIGTRAP: "SIGTRAP, a Swift runtime trap"
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGKILL: "SIGKILL"
        default: String(cString: strsignal(signal))
        }
    }

    /// The runtime's fatal error message when there is one, else the last lines on standard error.
    static func lastWords(_ fatal: String?, _ lines: [String]) -> String {
        if let fatal { return ": " + String(fatal.prefix(300)) }
        let kept = lines.suffix(4).map { String($0.prefix(300)) }
        return kept.isEmpty ? "" : "; its last lines on standard error: " + kept.joined(separator: " | ")
    }
}

extension ExtensionProcessHost: StoppedAtShutdown {}
