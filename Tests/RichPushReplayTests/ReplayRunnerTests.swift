import Foundation
import RichPushCore
import RichPushLibrary
import RichPushReplay
import Synchronization
import Testing

@Suite struct ReplayRunnerTests {
    /// Counts downloads in flight; each waits until `gather` are in flight at once (or gives up after a while).
    final class Gathering: ImageDownloading {
        let gather: Int
        private let inFlight = Atomic<Int>(0)
        let peak = Atomic<Int>(0)

        init(gather: Int) { self.gather = gather }

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            let now = inFlight.add(1, ordering: .acquiringAndReleasing).newValue
            peak.max(now, ordering: .acquiringAndReleasing)
            let giveUp = ContinuousClock.now.advanced(by: .seconds(10))
            while peak.load(ordering: .acquiring) < gather, ContinuousClock.now < giveUp {
                try await Task.sleep(for: .milliseconds(5))
            }
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
            throw DownloadFailure(.timeout, "no complete image within 5 s")
        }
    }

    func payloads(_ count: Int) -> [LoadedPayload] {
        (0..<count).map { index in
            let json =
                #"{"aps": {"alert": "n\#(index)", "mutable-content": 1}, "fcm_options": {"image": "https://a.test/\#(index).png"}}"#
            return LoadedPayload(file: PayloadFile(path: "p/\(index).json"), bytes: Array(json.utf8))
        }
    }

    @Test func jobsPayloadsRunAtOnceEachInItsOwnExtension() async {
        let downloader = Gathering(gather: 8)
        let runner = ReplayRunner(system: NotificationSystem(downloader: downloader), jobs: 8)
        let report = await runner.run(payloads(16))
        #expect(downloader.peak.load(ordering: .acquiring) == 8)
        #expect(report.items.allSatisfy { $0.result?.fallback?.reason == .timeout })
        #expect(report.items.map(\.file.path) == (0..<16).map { "p/\($0).json" })
    }

    /// Logs when each download starts and ends, holding each one for a moment so that downloads run at once
    /// would interleave in the log.
    final class Logging: ImageDownloading {
        let log = Mutex<[String]>([])

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            let name = url.lastPathComponent
            log.withLock { $0.append("start \(name)") }
            try? await Task.sleep(for: .milliseconds(30))
            log.withLock { $0.append("end \(name)") }
            throw DownloadFailure(.httpStatus, "HTTP 404")
        }
    }

    @Test func oneJobRunsOneAtATime() async {
        let downloader = Logging()
        let runner = ReplayRunner(system: NotificationSystem(downloader: downloader), jobs: 1)
        _ = await runner.run(payloads(4))
        // Run one at a time, each download ends before the next starts; run at once, the starts come first.
        let expected = (0..<4).flatMap { ["start \($0).png", "end \($0).png"] }
        #expect(downloader.log.withLock { $0 } == expected)
    }
}
