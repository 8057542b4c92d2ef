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
/// ``shutdown()`` writes what is still queued before the program ends. Past `maxRecordings` or `maxBytes` pushes
/// are still served and one note says recording stopped.
public final class PushRecorder: Sendable {
    public struct Options: Sendable, Equatable {
        public var directory: String
        /// At most this many recordings per run (`--record-max`).
        public var maxRecordings: Int
        /// At most this many bytes written per run (`--record-max-bytes`), images included; nil: no limit.
        public var maxBytes: Int?
        public var settings: RecordedPayload.Settings
        /// Save each shown image into `images/` and point the payload at the fixture CDN (`--record-images`).
        public var savesImages: Bool

        public static let defaultMaxRecordings = 10_000

        public init(
            directory: String, maxRecordings: Int = Options.defaultMaxRecordings, maxBytes: Int? = nil,
            settings: RecordedPayload.Settings = .init(), savesImages: Bool = false
        ) {
            self.directory = directory
            self.maxRecordings = maxRecordings
            self.maxBytes = maxBytes
            self.settings = settings
            self.savesImages = savesImages
        }
    }

    /// What one run recorded.
    public struct Counts: Sendable, Equatable {
        public var written = 0
        public var failed = 0
        /// Pushes served after recording stopped, not recorded.
        public var notRecorded = 0
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

    private struct State {
        var queue: [RecordedPush] = []
        var queued = 0
        var counts = Counts()
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
        self.options = options
        self.note = note
        folder = try RecordingFolder.prepare(options.directory)
        rejectedFolder = try folder.subfolder(Self.rejectedFolderName)
        imagesFolder = options.savesImages ? try folder.subfolder(Self.imagesFolderName) : nil
    }

    public var counts: Counts { state.withLock { $0.counts } }

    /// Queues a push to be written; returns at once.
    public func record(_ push: RecordedPush) {
        let (wake, startWriter, stoppedNow) = state.withLock { state -> (Bool, Bool, Bool) in
            if state.closed { return (false, false, false) }
            if state.counts.stopped || state.queued >= options.maxRecordings {
                state.counts.notRecorded += 1
                let first = !state.counts.stopped
                state.counts.stopped = true
                return (false, false, first)
            }
            state.queued += 1
            state.queue.append(push)
            let start = !state.writerRunning
            state.writerRunning = true
            let wake = start || state.writerWaiting
            state.writerWaiting = false
            return (wake, start, false)
        }
        if stoppedNow {
            note(
                "recording stopped: --record-max \(options.maxRecordings) reached; later pushes are served but not recorded"
            )
        }
        guard wake else { return }
        if startWriter {
            let thread = Thread { [self] in writeQueued() }
            thread.name = "richpush-record"
            thread.start()
        }
        wakeUp.signal()
    }

    /// Writes one push now and returns the name written (`NAME.json`, relative to the recording folder), for the
    /// notification center's key; counts against the limits as any other.
    public func recordNow(_ push: RecordedPush) -> Result<String, RecordingWriteError> {
        let allowed = state.withLock { state -> Bool in
            guard !state.counts.stopped, state.queued < options.maxRecordings else { return false }
            state.queued += 1
            return true
        }
        guard allowed else {
            return .failure(RecordingWriteError("recording stopped: --record-max \(options.maxRecordings) reached"))
        }
        return write(push)
    }

    /// The writer thread: writes the queue, in order, until closed and empty.
    private func writeQueued() {
        // Below the threads that answer and deliver: under a burst the answers come first and the files follow
        // (what waits is bounded by --record-max); when the burst is over the writer has the processor to itself.
        // On Linux the nice value is per thread, and `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.writerNice)
        while true {
            let (batch, finished) = state.withLock { state -> ([RecordedPush], Bool) in
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
            for push in batch { _ = write(push) }
        }
        drained.signal()
    }

    /// Writes one recording; a failure is noted and counted here.
    private func write(_ push: RecordedPush) -> Result<String, RecordingWriteError> {
        var savedImage: RecordedPayload.SavedImage?
        var imageBytes = 0
        if let imagesFolder, case .delivered(let result) = push.outcome, let attachment = result.attachment {
            switch saveImage(attachment, in: imagesFolder) {
            case .success(let (name, bytes)):
                savedImage = .init(
                    url: "https://\(FixtureCDN.host)/\(name)", fixtures: Self.imagesFolderName)
                imageBytes = bytes
            case .failure(let problem):
                note("cannot save the image of push \(push.id): \(problem.message); its URL is kept as sent")
            }
        }
        let recorded = RecordedPayload(push, settings: options.settings, savedImage: savedImage)
        let expectation = recorded.expectationBytes
        let size = recorded.payload.count + expectation.count + imageBytes
        let overBytes = state.withLock { state -> Bool? in
            guard let max = options.maxBytes, state.counts.bytes + size > max else {
                state.counts.bytes += size
                return false
            }
            state.counts.notRecorded += 1
            if state.counts.stopped { return nil }
            state.counts.stopped = true
            return true
        }
        switch overBytes {
        case true?:
            note(
                "recording stopped: --record-max-bytes \(ByteSize.describe(options.maxBytes ?? 0)) reached; later pushes are served but not recorded"
            )
            return .failure(RecordingWriteError("recording stopped: --record-max-bytes reached"))
        case nil:
            return .failure(RecordingWriteError("recording stopped: --record-max-bytes reached"))
        case false?:
            break
        }
        let target = recorded.isRejection ? rejectedFolder : folder
        let base = RecordingName.base(at: push.receivedAt, id: push.id)
        let written = target.write(
            [(".expect.json", expectation), (".json", recorded.payload)],
            names: { RecordingName.candidate(base, attempt: $0) })
        switch written {
        case .success(let name):
            state.withLock { $0.counts.written += 1 }
            let relative = recorded.isRejection ? "\(Self.rejectedFolderName)/\(name).json" : "\(name).json"
            return .success(relative)
        case .failure(let failure):
            let failed = state.withLock { state in
                state.counts.failed += 1
                state.counts.bytes -= size
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

    /// Copies the attachment iOS showed (the bytes the downloader fetched, so no image is fetched twice) into
    /// `images/`, named by its content hash and the type table's extension for its format; once per image.
    private func saveImage(_ attachment: Attachment, in folder: RecordingFolder) -> Result<
        (String, Int), RecordingWriteError
    > {
        let ext =
            TypeDeclaration.preferredExtension(forMIMEType: attachment.mimeType) ?? attachment.format.fileExtension
        let name = "\(attachment.sha256.prefix(32)).\(ext)"
        if folder.contains(name) { return .success((name, 0)) }
        guard let data = FileManager.default.contents(atPath: attachment.file) else {
            return .failure(RecordingWriteError("the attachment file \(attachment.file) is gone"))
        }
        switch folder.write([("", Array(data))], names: { _ in name }, maxAttempts: 1) {
        case .success: return .success((name, data.count))
        case .failure(let failure) where failure.code == EEXIST: return .success((name, 0))
        case .failure(let failure):
            return .failure(RecordingWriteError("cannot write \(failure.path): \(failure.reason)"))
        }
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
        guard counts.written + counts.failed + counts.notRecorded > 0 else { return }
        var summary = "recorded \(counts.written) push\(counts.written == 1 ? "" : "es") to \(folder.path)"
        if counts.failed > 0 { summary += "; \(counts.failed) could not be written" }
        if counts.notRecorded > 0 { summary += "; \(counts.notRecorded) served after recording stopped" }
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
