import Clocks
import Foundation
import RichPushCore
import Synchronization

/// A downloader double whose behaviour each test scripts.
struct ScriptedDownloader: ImageDownloading {
    var script:
        @Sendable (URL, DownloadLimits, @escaping @Sendable (DownloadEvent) -> Void) async throws ->
            DownloadedImage
    let discarded = DiscardLog()
    /// What the double claims (``ImageDownloading/enforcesTimeout``); the script decides what it does.
    var enforcesTimeout = false

    func download(
        _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage {
        try await script(url, limits, events)
    }

    func discard(_ image: DownloadedImage) async {
        discarded.append(image.file)
    }

    static func succeeding(
        format: ImageFormat = .png, width: Int = 640, height: Int = 480, frames: Int = 1,
        bytes: Int = 48_213
    ) -> ScriptedDownloader {
        ScriptedDownloader { _, _, events in
            events(.responseReceived(status: 200, contentType: format.mimeType, expectedBytes: bytes))
            events(.bytesReceived(bytes))
            return DownloadedImage(
                file: URL(
                    fileURLWithPath: "/tmp/richpush-test/\(UUID().uuidString).\(format.fileExtension)"),
                format: format, width: width, height: height, frames: frames, bytes: bytes,
                sha256: String(repeating: "ab", count: 32), servedContentType: format.mimeType)
        }
    }

    static func failing(_ reason: FallbackReason, _ detail: String) -> ScriptedDownloader {
        ScriptedDownloader { _, _, _ in throw DownloadFailure(reason, detail) }
    }

    /// Never finishes on its own: sleeps on the injected clock far longer than any budget.
    static func hanging(on clock: ArmedTestClock) -> ScriptedDownloader {
        ScriptedDownloader { _, _, _ in
            try await clock.sleep(for: .seconds(3600))
            throw DownloadFailure(.networkError, "unreachable")
        }
    }
}

final class DiscardLog: Sendable {
    private let files = Mutex<[URL]>([])
    func append(_ file: URL) { files.withLock { $0.append(file) } }
    var all: [URL] { files.withLock { $0 } }
}

/// swift-clocks' TestClock, tracking the sleeps in progress so a test can move time only once every
/// timer it expects is armed and none has fired unnoticed. That keeps the 5 s and 30 s cases exact on a
/// loaded machine.
final class ArmedTestClock: Clock, Sendable {
    typealias Instant = TestClock<Duration>.Instant
    typealias Duration = Swift.Duration

    let inner = TestClock<Duration>()
    private let deadlines = Mutex<[UUID: Instant]>([:])

    var now: Instant { inner.now }
    var minimumResolution: Duration { inner.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        deadlines.withLock { $0[id] = deadline }
        defer { _ = deadlines.withLock { $0.removeValue(forKey: id) } }
        try await inner.sleep(until: deadline, tolerance: tolerance)
    }

    /// Exactly `armed` sleeps wait, and none is due yet (a due one has fired but its task has not run on).
    func isArmed(_ armed: Int) -> Bool {
        let now = inner.now
        return deadlines.withLock { $0.count == armed && $0.values.allSatisfy { $0 > now } }
    }
}

/// Runs `operation` and moves the clock forward in small steps while exactly the `armed` timers it
/// expects are waiting. Once one fires, time stands still until the operation finishes, so every step
/// it records after the firing carries the firing's time. (After a minute of real time without progress it
/// moves the clock anyway, so a broken expectation fails instead of hanging. Not sooner: on a loaded machine the
/// operation can wait seconds for a thread, and a clock moved before it armed its timers records wrong times; a
/// 10 s limit did that once in a full run beside a build.)
func driving<T: Sendable>(
    _ clock: ArmedTestClock, armed: Int = 3, step: Duration = .milliseconds(250), maxSteps: Int = 2_000,
    _ operation: @escaping @Sendable () async -> T
) async -> T {
    let finished = Atomic<Bool>(false)
    let task = Task {
        let value = await operation()
        finished.store(true, ordering: .releasing)
        return value
    }
    var steps = 0
    var lastProgress = ContinuousClock.now
    while !finished.load(ordering: .acquiring), steps < maxSteps {
        if clock.isArmed(armed) || ContinuousClock.now - lastProgress > .seconds(60) {
            await clock.inner.advance(by: step)
            steps += 1
            lastProgress = ContinuousClock.now
        } else {
            await Task.yield()
        }
    }
    return await task.value
}

func payload(_ json: String) -> [UInt8] { Array(json.utf8) }

extension DeliveryResult {
    var events: [TimelineEvent.Kind] { timeline.map(\.kind) }
    func time(of kind: TimelineEvent.Kind) -> Double? { timeline.first { $0.kind == kind }?.at }
}
