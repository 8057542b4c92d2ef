import Foundation
import RichPushCore
import RichPushFiles
public import RichPushNetwork
import Synchronization

/// Runs a team's built extension as iOS runs one: in processes (``ExtensionProcess``) that the notification's
/// ``ExtensionProcessMode`` chooses (``ExtensionProcessPool``), each with its own container folders, the network
/// through ``ExtensionProxy``, in an ``ExtensionSandbox``; ended by the system when a notification's budget and grace
/// are over, when its memory footprint passes the limit, or (one per notification) shortly after its content handler
/// was called.
public final class ExtensionProcessHost: CustomExtensionHosting {
    public let identity: ExtensionIdentity
    let built: BuiltExtension
    let fixtureCDN: FixtureCDN?
    /// The namespaces the extension runs in, or why there are none.
    let sandbox: Result<ExtensionSandbox, ExtensionSandbox.Unavailable>
    /// Containers, attachment stores and the CA bundle: one temporary folder (`richpush-extension-<pid>-<random>`),
    /// removed by ``shutdown()``, or by a later host when this process was killed first (``OwnedFolder``).
    let folder: OwnedFolder
    let memoryLimitBytes: Int
    /// After `serviceExtensionTimeWillExpire()` the process has this long to call its handler before SIGKILL.
    let grace: Duration
    /// Where the file work on what an extension hands back runs (moving, inspecting and hashing attachments).
    let computePool: ComputePool
    /// The runs in flight, which ``shutdown()`` waits for before it removes their folders.
    private let runs = RunTracker()
    /// The processes of each mode.
    private let pools: [ExtensionProcessMode: ExtensionProcessPool]

    init(
        built: BuiltExtension, fixtureCDN: FixtureCDN?, sandbox: Result<ExtensionSandbox, ExtensionSandbox.Unavailable>,
        folder: OwnedFolder, memoryLimitBytes: Int, grace: Duration, computePool: ComputePool
    ) {
        self.built = built
        self.fixtureCDN = fixtureCDN
        self.sandbox = sandbox
        self.folder = folder
        self.memoryLimitBytes = memoryLimitBytes
        self.grace = grace
        self.computePool = computePool
        self.identity = ExtensionIdentity(kind: .custom, source: built.folder, principalClass: built.principalClass)
        self.pools = Dictionary(
            uniqueKeysWithValues: ExtensionProcessMode.allCases.map { ($0, ExtensionProcessPool(mode: $0)) })
    }

    /// Why the host could not be prepared.
    public enum StartFailure: Error, CustomStringConvertible {
        /// No folder for the containers: the parent folder and the system's words.
        case folder(parent: String, reason: String)

        public var description: String {
            switch self {
            case .folder(let parent, let reason):
                "cannot create a folder for the extension's containers in \(parent): \(reason)"
            }
        }
    }

    /// Prepares the host: its temporary folder, and the namespaces (with trust in `fixtureCDN`).
    public static func start(
        _ built: BuiltExtension, fixtureCDN: FixtureCDN?,
        memoryLimitBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes, grace: Duration = .seconds(1),
        computePool: ComputePool = ComputePool()
    ) async throws(StartFailure) -> ExtensionProcessHost {
        let parent = FileManager.default.temporaryDirectory.path
        let folder: OwnedFolder
        do {
            folder = try OwnedFolder(prefix: folderPrefix, in: parent)
        } catch {
            throw .folder(parent: parent, reason: "\(error)")
        }
        let sandbox: Result<ExtensionSandbox, ExtensionSandbox.Unavailable>
        do throws(ExtensionSandbox.Unavailable) {
            sandbox = .success(
                try await ExtensionSandbox.prepare(caCertificatePEM: fixtureCDN?.caCertificatePEM, in: folder.path))
        } catch {
            sandbox = .failure(error)
        }
        return ExtensionProcessHost(
            built: built, fixtureCDN: fixtureCDN, sandbox: sandbox, folder: folder,
            memoryLimitBytes: memoryLimitBytes, grace: grace, computePool: computePool)
    }

    /// Host folders are named `richpush-extension-<pid>-<random>`.
    static let folderPrefix = "richpush-extension"

    /// Ends the runs in flight and waits for them, ends every process, then removes every container and kept
    /// attachment.
    public func shutdown() async {
        await runs.stopAll()
        for pool in pools.values { await pool.stopAll() }
        try? FileManager.default.removeItem(atPath: folder.path)
    }

    /// What the machine's missing namespaces cost the extension, in one warning; nil when nothing is missing.
    public var sandboxProblem: String? {
        guard case .failure(let problem) = sandbox else { return nil }
        var cost = "processes the extension starts in a session of their own can outlive it"
        if problem.affectsTrust {
            cost += ", and its requests to \(FixtureCDN.host) fail certificate checks"
        }
        return "the extension runs without its sandbox (\(problem.reason)): \(cost)"
    }

    /// Why the extension's requests to the fixture CDN will fail certificate checks; nil when they will not.
    var trustProblem: String? {
        guard case .failure(let problem) = sandbox, problem.affectsTrust else { return nil }
        return
            "the extension cannot be made to trust the fixture CDN (\(problem.reason)); its requests to \(FixtureCDN.host) fail certificate checks"
    }

    /// Removes a kept attachment: only a file the host itself moved into its attachments folder.
    public func discardAttachment(atPath path: String) async {
        let kept = folder.path + "/" + AttachmentIntake.keptFolderName
        await computePool.run {
            guard AttachmentIntake.isStored(path, in: kept) else { return }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    public func run(_ invocation: CustomExtensionInvocation, clock: any Clock<Duration>)
        -> AsyncStream<CustomExtensionEvent>
    {
        let (stream, continuation) = AsyncStream<CustomExtensionEvent>.makeStream()
        let pool = pools[invocation.processMode]!
        // The run's task belongs to the host, which cancels and awaits it at shutdown; ending the iteration cancels it.
        let task = runs.start {
            if let problem = self.trustProblem { continuation.yield(.request(problem)) }
            let ended = await pool.serve(invocation, host: self, clock: clock) { continuation.yield($0) }
            continuation.yield(.ended(ended))
            continuation.finish()
        }
        guard let task else {
            let stopped = CustomExtensionRun(
                end: .contentHandlerNeverCalled(.richpushStopped), contentHandlerCalls: 0, log: [])
            continuation.yield(.ended(stopped))
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension ExtensionProcessHost: StoppedAtShutdown {}

/// The tasks of the runs in flight. Once shutting down it starts no more, cancels those in flight and wakes
/// ``stopAll()`` when the last has ended.
final class RunTracker: Sendable {
    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextID = 0
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Starts `operation` as a run's task; nil once shutdown has begun.
    func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextID
            state.nextID += 1
            let task = Task {
                await operation()
                self.finished(id)
            }
            state.tasks[id] = task
            return task
        }
    }

    private func finished(_ id: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.tasks[id] = nil
            guard state.tasks.isEmpty else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Cancels the runs in flight and returns once they have ended; starts no new one.
    func stopAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                state.closed = true
                state.tasks.values.forEach { $0.cancel() }
                if state.tasks.isEmpty { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
