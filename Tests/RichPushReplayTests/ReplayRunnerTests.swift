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

    /// A downloader whose downloads each wait until the test releases them by name; says when one starts.
    final class Gated: ImageDownloading {
        let started = Countdown()
        let inFlight = Atomic<Int>(0)
        private let gates = Mutex<[String: Gate]>([:])

        func gate(_ name: String) -> Gate {
            gates.withLock { gates in
                if let gate = gates[name] { return gate }
                let gate = Gate()
                gates[name] = gate
                return gate
            }
        }

        func release(_ names: some Sequence<String>) {
            for name in names { gate(name).open() }
        }

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            inFlight.add(1, ordering: .acquiringAndReleasing)
            started.tick()
            await gate(url.lastPathComponent).wait()
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
            throw DownloadFailure(.httpStatus, "HTTP 404")
        }
    }

    /// Deadlines long enough that no test machine reaches them: only the gates decide when downloads end.
    static let patient = DeliveryConfiguration(downloadTimeout: .seconds(600), extensionBudget: .seconds(600))

    @Test(.timeLimit(.minutes(1))) func downloadsInFlightAreNotCappedByBusyCPUSlots() async {
        let downloader = Gated()
        let pool = ComputePool(width: 2)
        // Both CPU slots are taken by work that waits for the test.
        let cpu = Gate()
        let cpuStarted = Countdown()
        let cpuWork = (0..<2).map { _ in
            Task.immediate {
                await pool.run {
                    cpuStarted.tick()
                    await cpu.wait()
                }
            }
        }
        await cpuStarted.reach(2)

        let runner = ReplayRunner(
            system: NotificationSystem(downloader: downloader, configuration: Self.patient), jobs: 6, computePool: pool)
        let emitted = Log<String>()
        let run = Task {
            await runner.run(
                payloads(12), order: .path, prepareInComputePool: true, prepare: { $0.file.path }
            ) { emitted.append($0) }
        }
        // Six downloads in flight, three times the CPU slots, none of which is free.
        await downloader.started.reach(6)
        #expect(downloader.inFlight.load(ordering: .acquiring) == 6)
        #expect(pool.running == 2)

        // The first six end; their results wait for a CPU slot, and their extension slots go to the next six.
        downloader.release((0..<6).map { "\($0).png" })
        await downloader.started.reach(12)
        #expect(downloader.started.count == 12)
        #expect(pool.running == 2)
        #expect(emitted.entries.isEmpty, "a result was rendered while every CPU slot was busy")

        downloader.release((6..<12).map { "\($0).png" })
        cpu.open()
        for work in cpuWork { await work.value }
        let summary = await run.value
        #expect(emitted.entries == (0..<12).map { "p/\($0).json" })
        #expect(summary.total == 12)
        #expect(summary.unchecked == 12)
    }

    @Test(.timeLimit(.minutes(1))) func pathOrderWaitsForTheSlowOneAndCompletionOrderDoesNot() async {
        for order in [ReplayRunner.Order.path, .completion] {
            let downloader = Gated()
            let runner = ReplayRunner(
                system: NotificationSystem(downloader: downloader, configuration: Self.patient), jobs: 4)
            let emitted = Log<String>()
            let run = Task {
                await runner.run(payloads(4), order: order, prepare: { $0.file.path }) { emitted.append($0) }
            }
            await downloader.started.reach(4)
            // Every payload but the first finishes.
            downloader.release(["1.png", "2.png", "3.png"])
            if order == .completion {
                // Each is written as it finishes, before the first is done.
                while emitted.entries.count < 3 { await Task.yield() }
                #expect(Set(emitted.entries) == ["p/1.json", "p/2.json", "p/3.json"])
            }
            downloader.release(["0.png"])
            _ = await run.value
            if order == .path {
                #expect(emitted.entries == ["p/0.json", "p/1.json", "p/2.json", "p/3.json"])
            } else {
                #expect(emitted.entries.last == "p/0.json")
            }
        }
    }

    @Test func theSummaryCountsWhatTheItemsSay() async {
        let downloader = Logging()
        var loaded = payloads(3)
        loaded[1].expectationError = "p/1.expect.json: not JSON"
        let runner = ReplayRunner(system: NotificationSystem(downloader: downloader), jobs: 2)
        let summary = await runner.run(loaded, order: .path, prepare: { _ in () }) { _ in }
        #expect(summary.total == 3)
        #expect(summary.failed == 1)
        #expect(summary.unchecked == 2)
        #expect(summary.summaryLine == "0 passed, 1 failed")
    }

    /// Downloads every image at once and counts them.
    final class Instant: ImageDownloading {
        let downloads = Countdown()

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            downloads.tick()
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/richpush-test-\(UUID().uuidString).png"), format: .png, width: 8,
                height: 8, frames: 1, bytes: 100, sha256: String(repeating: "ab", count: 32),
                servedContentType: "image/png")
        }
    }

    /// Decodes everything, counting the decodes.
    final class Decoder: ImageDecoding {
        let decodes = Countdown()

        func verify(_ file: URL, format: ImageFormat) async -> DecodeVerdict {
            decodes.tick()
            return .decoded
        }
    }

    @Test(.timeLimit(.minutes(1))) func decodingWaitsForTheComputePoolNotForAnExtensionSlot() async {
        let pool = ComputePool(width: 1)
        let cpu = Gate()
        let cpuStarted = Countdown()
        let busy = Task.immediate {
            await pool.run {
                cpuStarted.tick()
                await cpu.wait()
            }
        }
        await cpuStarted.reach(1)
        let downloader = Instant()
        let decoder = Decoder()
        let system = NotificationSystem(
            downloader: downloader, configuration: Self.patient, decoder: decoder, computePool: pool)
        let runner = ReplayRunner(system: system, jobs: 2, computePool: pool)
        let run = Task { await runner.run(payloads(4)) }
        // Two extension slots, four payloads: each slot is free once its notification is presented, so the
        // second pair downloads while the first pair's images wait for the busy CPU slot to decode.
        await downloader.downloads.reach(4)
        #expect(decoder.decodes.count == 0)
        cpu.open()
        await busy.value
        let report = await run.value
        #expect(decoder.decodes.count == 4)
        #expect(report.items.allSatisfy { $0.result?.attachment?.decoded == true })
    }

    /// Records which attachment files were let go, and what `prepare` saw before.
    final class Discarding: ImageDownloading {
        let discarded = Mutex<[String]>([])

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/richpush-test/\(url.lastPathComponent)"), format: .png, width: 8,
                height: 8, frames: 1, bytes: 100, sha256: String(repeating: "ab", count: 32),
                servedContentType: "image/png")
        }

        func discard(_ image: DownloadedImage) async {}

        func discardAttachment(atPath file: String) async {
            discarded.withLock { $0.append(file) }
        }
    }

    @Test func eachAttachmentGoesOnceItsResultIsPreparedWhenAskedAndOnlyThen() async {
        let downloader = Discarding()
        let runner = ReplayRunner(
            system: NotificationSystem(downloader: downloader, configuration: Self.patient), jobs: 3)
        let seenBeforeDiscard = Mutex<[String: Bool]>([:])
        let summary = await runner.run(
            payloads(6), order: .completion, discardAttachments: true,
            prepare: { item in
                let file = item.result?.attachment?.file ?? ""
                let gone = downloader.discarded.withLock { $0.contains(file) }
                seenBeforeDiscard.withLock { $0[file] = !gone }
            }
        ) { _ in }
        #expect(summary.total == 6)
        let discarded = downloader.discarded.withLock { $0 }
        #expect(discarded.count == 6, "\(discarded)")
        #expect(Set(discarded).count == 6, "each attachment once")
        let seen = seenBeforeDiscard.withLock { $0 }
        // Six attachments seen by `prepare`, none missing (an empty map would satisfy allSatisfy on its own).
        #expect(seen.count == 6 && seen[""] == nil, "\(seen)")
        #expect(seen.values.allSatisfy { $0 }, "prepare ran while the file was there")

        let keeping = Discarding()
        let keepingRunner = ReplayRunner(
            system: NotificationSystem(downloader: keeping, configuration: Self.patient), jobs: 3)
        _ = await keepingRunner.run(payloads(3), order: .path, prepare: { _ in () }) { _ in }
        #expect(keeping.discarded.withLock { $0 }.isEmpty, "kept by default (the HTML report reads them later)")
    }

    @Test(.timeLimit(.minutes(1))) func aPayloadIsReadOnlyWhenItsExtensionStarts() async {
        let downloader = Gated()
        let runner = ReplayRunner(
            system: NotificationSystem(downloader: downloader, configuration: Self.patient), jobs: 2)
        let all = payloads(6)
        let loads = Log<Int>()
        let run = Task {
            await runner.run(
                count: all.count,
                loading: { index in
                    loads.append(index)
                    return all[index]
                }, order: .path, prepare: { _ in () }
            ) { _ in }
        }
        // Two extensions, both waiting on their downloads: only their two payloads have been read.
        await downloader.started.reach(2)
        #expect(loads.entries == [0, 1])
        downloader.release((0..<6).map { "\($0).png" })
        let summary = await run.value
        #expect(summary.total == 6)
        #expect(loads.entries.sorted() == Array(0..<6), "each payload read once, when its turn came")
    }
}
