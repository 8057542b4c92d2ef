import Foundation
import RichPushCore
import RichPushNetwork
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `serve --record DIR`: writes each push the endpoint answered as a payload file replay reproduces
/// (``RecordedPayload``), under a name that says when and which push (``RecordingName``), refused ones under
/// `rejected/`, without ever replacing a file (``RecordingFolder``).
///
/// Recording never holds up an answer or a delivery: ``record(_:)`` only queues, and a thread of its own writes,
/// since file writes block and must stay off the cooperative threads the server answers on. Nothing queued is
/// dropped silently: a write that fails is one note naming the file and the system's reason, and is counted;
/// ``shutdown()`` writes what is still queued before the program ends. Past `maxRecordings` or `maxBytes` (every
/// file counts, images too, before it is written) pushes are still served, nothing more is written, and one note
/// says recording stopped. A refusal of the provider token is counted, not recorded, unless asked for.
public final class PushRecorder: Sendable {
    public struct Options: Sendable, Equatable {
        public var directory: String
        /// At most this many recordings per run (`--record-max`).
        public var maxRecordings: Int
        /// At most this many bytes written per run (`--record-max-bytes`), images included.
        public var maxBytes: Int
        public var settings: RecordedPayload.Settings
        /// Save each shown image into `images/` and point the payload at the fixture CDN (`--record-images`).
        public var savesImages: Bool
        /// Record refusals of the provider token too (`--record-auth-refusals`); else they are only counted.
        public var recordsAuthRefusals: Bool

        public static let defaultMaxRecordings = 10_000
        /// 1 GB.
        public static let defaultMaxBytes = 1 << 30

        public init(
            directory: String, maxRecordings: Int = Options.defaultMaxRecordings,
            maxBytes: Int = Options.defaultMaxBytes, settings: RecordedPayload.Settings = .init(),
            savesImages: Bool = false, recordsAuthRefusals: Bool = false
        ) {
            self.directory = directory
            self.maxRecordings = maxRecordings
            self.maxBytes = maxBytes
            self.settings = settings
            self.savesImages = savesImages
            self.recordsAuthRefusals = recordsAuthRefusals
        }
    }

    /// What one run recorded.
    public struct Counts: Sendable, Equatable {
        public var written = 0
        public var failed = 0
        /// Pushes served after recording stopped, not recorded.
        public var notRecorded = 0
        /// Refusals of the provider token, counted instead of recorded.
        public var authRefusals = 0
        /// Bytes written in this run (the folder's salt, when made now, too).
        public var bytes = 0
        public var stopped = false
    }

    public let options: Options
    public let folder: RecordingFolder
    private let rejectedFolder: RecordingFolder
    private let imagesFolder: RecordingFolder?
    private let note: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let drained = DispatchSemaphore(value: 0)

    /// A push waiting for the writer, and who waits for its outcome (the notification center's `w`).
    private struct Pending {
        var push: RecordedPush
        var done: (@Sendable (Result<String, RecordingWriteError>) -> Void)?
    }

    private struct State {
        var queue: [Pending] = []
        var queued = 0
        var counts = Counts()
        /// Which limit stopped the recording, for messages.
        var stopReason: String?
        /// `maxBytes` was reached: pushes queued before it are not written either (those queued before
        /// `maxRecordings` was reached are).
        var bytesReached = false
        var closed = false
        var writerRunning = false
        /// The writer sleeps on `wakeUp`: only then does a new push signal it (a signal per push costs a system call).
        var writerWaiting = false
    }

    /// The folder in the recording folder that `given.fixtures` names.
    public static let imagesFolderName = "images"
    public static let rejectedFolderName = "rejected"
    /// The writer thread's nice value (0 is the default, 19 the lowest priority).
    static let writerNice: Int32 = 10

    /// Opens (or creates) the folder and its `rejected/` (and `images/`) subfolders; the error names the path
    /// that cannot be used and why. `note` gets each one-line note (a failed write, recording stopped).
    public init(options: Options, note: @escaping @Sendable (String) -> Void) throws(RecordingFolderError) {
        self.note = note
        folder = try RecordingFolder.prepare(options.directory)
        rejectedFolder = try folder.subfolder(Self.rejectedFolderName)
        imagesFolder = options.savesImages ? try folder.subfolder(Self.imagesFolderName) : nil
        let (salt, saltBytes) = try RecordingSalt.load(in: folder)
        var options = options
        options.settings.tokenSalt = salt
        self.options = options
        state.withLock { $0.counts.bytes = saltBytes }
    }

    /// The reasons a provider token is refused for (APNs's, and FCM's for its bearer token).
    static let authRefusalReasons: Set<String> = [
        "ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken", "UNAUTHENTICATED",
    ]

    /// Whether this push is a refusal of the provider token that is only counted.
    private func isCountedOnly(_ push: RecordedPush) -> Bool {
        guard !options.recordsAuthRefusals, case .refused(let rejection) = push.outcome else { return false }
        return Self.authRefusalReasons.contains(rejection.reason)
    }

    public var counts: Counts { state.withLock { $0.counts } }

    /// Queues a push to be written; returns at once.
    public func record(_ push: RecordedPush) {
        enqueue(push, done: nil)
    }

    /// Queues a push; `done`, when given, gets the outcome (also when it is not written).
    private func enqueue(_ push: RecordedPush, done: (@Sendable (Result<String, RecordingWriteError>) -> Void)?) {
        let countedOnly = isCountedOnly(push)
        let (wake, startWriter, stoppedNow, refused) = state.withLock {
            state -> (Bool, Bool, Bool, RecordingWriteError?) in
            if state.closed { return (false, false, false, RecordingWriteError("recording has ended")) }
            if countedOnly {
                state.counts.authRefusals += 1
                return (
                    false, false, false,
                    RecordingWriteError(
                        "a refusal of the provider token is counted, not recorded (--record-auth-refusals records it)")
                )
            }
            if state.counts.stopped || state.queued >= options.maxRecordings {
                state.counts.notRecorded += 1
                let first = !state.counts.stopped
                state.counts.stopped = true
                if first { state.stopReason = "--record-max \(options.maxRecordings) reached" }
                return (false, false, first, RecordingWriteError("recording stopped: \(state.stopReason ?? "")"))
            }
            state.queued += 1
            state.queue.append(Pending(push: push, done: done))
            let start = !state.writerRunning
            state.writerRunning = true
            let wake = start || state.writerWaiting
            state.writerWaiting = false
            return (wake, start, false, nil)
        }
        if stoppedNow {
            note(
                "recording stopped: --record-max \(options.maxRecordings) reached; later pushes are served but not recorded"
            )
        }
        if let refused { done?(.failure(refused)) }
        guard wake else { return }
        if startWriter {
            let thread = Thread { [self] in writeQueued() }
            thread.name = "richpush-record"
            thread.start()
        }
        wakeUp.signal()
    }

    /// Writes one push and returns the name written (`NAME.json`, relative to the recording folder), for the
    /// notification center's key; counts against the limits as any other. The writing happens on the writer's
    /// thread, after what was queued before it: the caller's task only waits, and no cooperative thread blocks on
    /// the disk.
    public func recordNow(_ push: RecordedPush) async -> Result<String, RecordingWriteError> {
        await withCheckedContinuation { (outcome: CheckedContinuation<Result<String, RecordingWriteError>, Never>) in
            enqueue(push, done: { outcome.resume(returning: $0) })
        }
    }

    /// The writer thread: writes the queue, in order, until closed and empty.
    private func writeQueued() {
        // Below the threads that answer and deliver: under a burst the answers come first and the files follow
        // (what waits is bounded by --record-max); when the burst is over the writer has the processor to itself.
        // On Linux the nice value is per thread, and `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.writerNice)
        while true {
            let (batch, finished) = state.withLock { state -> ([Pending], Bool) in
                if state.queue.isEmpty {
                    state.writerWaiting = !state.closed
                    return ([], state.closed)
                }
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, false)
            }
            if finished { break }
            if batch.isEmpty {
                wakeUp.wait()
                continue
            }
            for pending in batch {
                let outcome = write(pending.push)
                pending.done?(outcome)
            }
        }
        drained.signal()
    }

    /// An image to save with a recording, sized before anything is written.
    private struct ImageToSave {
        var name: String
        /// Nil when `images/` has it already.
        var bytes: [UInt8]?
    }

    /// Writes one recording; a failure is noted and counted here. Every byte is counted against `maxBytes` before
    /// it is written, and once recording stopped nothing more is.
    private func write(_ push: RecordedPush) -> Result<String, RecordingWriteError> {
        let stopped = state.withLock { state -> Bool in
            guard state.bytesReached else { return false }
            state.counts.notRecorded += 1
            return true
        }
        if stopped { return .failure(RecordingWriteError("recording stopped: --record-max-bytes reached")) }
        var image: ImageToSave?
        if let imagesFolder, case .delivered(let result) = push.outcome, let attachment = result.attachment {
            switch imageToSave(attachment, in: imagesFolder) {
            case .success(let found): image = found
            case .failure(let problem):
                note("cannot save the image of push \(push.id): \(problem.message); its URL is kept as sent")
            }
        }
        var recorded = recording(push, image: image)
        var size = recorded.payload.count + recorded.expectationBytes.count + (image?.bytes?.count ?? 0)
        let overBytes = state.withLock { state -> Bool in
            guard state.counts.bytes + size > options.maxBytes else {
                state.counts.bytes += size
                return false
            }
            state.counts.notRecorded += 1
            state.counts.stopped = true
            state.bytesReached = true
            state.stopReason = "--record-max-bytes \(ByteSize.describe(options.maxBytes)) reached"
            return true
        }
        if overBytes {
            note(
                "recording stopped: --record-max-bytes \(ByteSize.describe(options.maxBytes)) reached; later pushes are served but not recorded"
            )
            return .failure(RecordingWriteError("recording stopped: --record-max-bytes reached"))
        }
        if let imagesFolder, let saving = image, let bytes = saving.bytes {
            switch imagesFolder.write([("", bytes)], names: { _ in saving.name }, maxAttempts: 1) {
            case .success: break
            case .failure(let failure) where failure.code == EEXIST:
                // There already (a file of that name the folder had): not written now.
                state.withLock { $0.counts.bytes -= bytes.count }
                size -= bytes.count
            case .failure(let failure):
                note(
                    "cannot save the image of push \(push.id): cannot write \(failure.path): \(failure.reason); its URL is kept as sent"
                )
                let unsaved = recording(push, image: nil)
                let change = unsaved.payload.count + unsaved.expectationBytes.count - size
                state.withLock { $0.counts.bytes += change }
                size += change
                recorded = unsaved
            }
        }
        let target = recorded.isRejection ? rejectedFolder : folder
        let base = RecordingName.base(at: push.receivedAt, id: push.id)
        let written = target.write(
            [(".expect.json", recorded.expectationBytes), (".json", recorded.payload)],
            names: { RecordingName.candidate(base, attempt: $0) })
        switch written {
        case .success(let name):
            state.withLock { $0.counts.written += 1 }
            let relative = recorded.isRejection ? "\(Self.rejectedFolderName)/\(name).json" : "\(name).json"
            return .success(relative)
        case .failure(let failure):
            let failed = state.withLock { state in
                state.counts.failed += 1
                state.counts.bytes -= recorded.payload.count + recorded.expectationBytes.count
                return state.counts.failed
            }
            let message = "cannot record push \(push.id) to \(failure.path): \(failure.reason)"
            // Every failure is counted; the first ten are told, then every hundredth, so a full disk is not a flood.
            if failed <= 10 || failed % 100 == 0 {
                note(message + (failed > 1 ? " (\(failed) recordings failed so far)" : ""))
            }
            return .failure(RecordingWriteError(message))
        }
    }

    /// The files of `push`, its image (if any) named as saved in `images/`.
    private func recording(_ push: RecordedPush, image: ImageToSave?) -> RecordedPayload {
        let saved = image.map {
            RecordedPayload.SavedImage(url: "https://\(FixtureCDN.host)/\($0.name)", fixtures: Self.imagesFolderName)
        }
        return RecordedPayload(push, settings: options.settings, savedImage: saved)
    }

    /// The attachment iOS showed (the bytes the downloader fetched, so no image is fetched twice), to be saved in
    /// `images/` under its content hash and the type table's extension for its format; once per image.
    private func imageToSave(_ attachment: Attachment, in folder: RecordingFolder) -> Result<
        ImageToSave, RecordingWriteError
    > {
        let ext =
            TypeDeclaration.preferredExtension(forMIMEType: attachment.mimeType) ?? attachment.format.fileExtension
        let name = "\(attachment.sha256.prefix(32)).\(ext)"
        if folder.contains(name) { return .success(ImageToSave(name: name, bytes: nil)) }
        guard let data = FileManager.default.contents(atPath: attachment.file) else {
            return .failure(RecordingWriteError("the attachment file \(attachment.file) is gone"))
        }
        return .success(ImageToSave(name: name, bytes: Array(data)))
    }

    /// Writes what is queued, then says what the run recorded.
    public func shutdown() async {
        let running = state.withLock { state in
            state.closed = true
            state.writerWaiting = false
            return state.writerRunning
        }
        if running {
            wakeUp.signal()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let waiter = Thread { [drained] in
                    drained.wait()
                    done.resume()
                }
                waiter.start()
            }
        }
        let counts = self.counts
        // A run that never got a push (a start that failed, say) has nothing to report.
        guard counts.written + counts.failed + counts.notRecorded + counts.authRefusals > 0 else { return }
        var summary = "recorded \(counts.written) push\(counts.written == 1 ? "" : "es") to \(folder.path)"
        if counts.failed > 0 { summary += "; \(counts.failed) could not be written" }
        if counts.notRecorded > 0 { summary += "; \(counts.notRecorded) served after recording stopped" }
        if counts.authRefusals > 0 {
            summary +=
                "; \(counts.authRefusals) provider-token refusal\(counts.authRefusals == 1 ? "" : "s") counted, not recorded (--record-auth-refusals records them)"
        }
        note(summary)
    }
}

extension PushRecorder: StoppedAtShutdown {}

/// Why one recording was not written.
public struct RecordingWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
