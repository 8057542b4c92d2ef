import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import RichPushCore
import RichPushNetwork
import RichPushTestSupport
import Testing

/// Resident memory of this process, from /proc/self/status (Linux).
private enum ResidentMemory {
    /// `VmRSS` (now) or `VmHWM` (the peak since the last ``resetPeak()``), in bytes.
    static func read(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw CocoaError(.fileReadCorruptFile) }
        return kilobytes * 1024
    }

    /// Makes `VmHWM` start again from the current resident size.
    static func resetPeak() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static var isAvailable: Bool {
        FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
            && FileManager.default.isReadableFile(atPath: "/proc/self/status")
    }
}

@Suite("Bounded memory", .serialized)
struct BoundedMemoryTests {
    /// cat.png padded to just under the 10 MB cap.
    static let padding = 10 * 1024 * 1024 - 64 * 1024

    @Test("one ~10 MB download arrives whole: every byte in the file and in the hash")
    func oneLargeDownload() async throws {
        try await withHarness { harness in
            // A long deadline: this test is about the bytes, and the machine may be busy with other tests.
            let (result, _) = await harness.download(
                "cat.png?pad=\(Self.padding)", limits: DownloadLimits(timeout: .seconds(60)))
            let image = try #require(result.success, "\(String(describing: result.failure))")
            var expected = try fixtureBytes("cat.png")
            expected.append(Data(count: Self.padding))
            #expect(image.bytes == expected.count)
            #expect(image.sha256 == sha256Hex(expected))
            #expect(try Data(contentsOf: image.file) == expected)
            #expect(image.width == 640 && image.height == 480)
            await harness.downloader.discard(image)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test(
        "20 concurrent ~9 MB downloads from a file on disk: resident memory peaks at most 20 MB above one download's",
        .enabled(if: ResidentMemory.isAvailable, "needs /proc/self/status and /proc/self/clear_refs (Linux)"))
    func twentyConcurrentDownloads() async throws {
        // Measured in a process of its own (an exit test): in this one, every other test running now would count in
        // the peak. The child says "BASELINE PEAK" in bytes, or what went wrong; the bound is checked here.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            do {
                let (baseline, peak) = try await Self.measureTwentyConcurrentDownloads()
                FileHandle.standardError.write(Data("\(baseline) \(peak)\n".utf8))
                exit(0)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        }
        let words = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let figures = words.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(figures.count == 2, "the child said: \(words)")
        // The goal is at most about 1 MB per download (downloader and CDN together). Measured alone, the growth is
        // 7-11 MB; holding each body in memory (in the downloader or the CDN) would need 180 MB.
        let growth = figures[1] - figures[0]
        #expect(
            growth < 20 * 1024 * 1024,
            "20 concurrent downloads peaked \(growth / 1024) KB above one download (\(figures[0] / 1024 / 1024) MB)")
    }

    struct MeasurementFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The peak resident memory while one download runs, then while 20 run at once, after a warm-up; throws if a
    /// download fails or arrives wrong.
    static func measureTwentyConcurrentDownloads() async throws -> (baseline: Int, peak: Int) {
        let root = try makeTemporaryDirectory("memory")
        defer { try? FileManager.default.removeItem(at: root) }
        // A real PNG followed by 9 MB of random bytes (which nothing can share or compress), served from disk.
        var body = try fixtureBytes("cat.png")
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else {
            throw MeasurementFailure(description: "cannot read /dev/urandom")
        }
        body.append(random.readData(ofLength: 9 * 1024 * 1024))
        try random.close()
        try body.write(to: root.appendingPathComponent("big.png"))
        let expectedHash = sha256Hex(body)
        let count = 20
        let size = body.count
        body = Data()
        let limits = DownloadLimits(timeout: .seconds(120))

        return try await withHarness(root: root) { harness in
            func download() async throws -> DownloadedImage {
                try await harness.downloader.download(harness.url("big.png"), limits: limits, events: { _ in })
            }
            // Warm up (TLS, buffers, allocator, the connection pool) so that the measurements see the downloads only.
            for _ in 0..<2 { await harness.downloader.discard(try await download()) }

            // The baseline: the peak while one download runs.
            try ResidentMemory.resetPeak()
            let single = try await download()
            let baseline = try ResidentMemory.read("VmHWM")
            await harness.downloader.discard(single)

            try ResidentMemory.resetPeak()
            let images = try await withThrowingTaskGroup(of: DownloadedImage.self) { group in
                for _ in 0..<count { group.addTask { try await download() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let peak = try ResidentMemory.read("VmHWM")

            let wrong = images.filter { $0.sha256 != expectedHash || $0.bytes != size }
            guard images.count == count, wrong.isEmpty, Set(images.map(\.file)).count == count,
                single.sha256 == expectedHash
            else {
                throw MeasurementFailure(
                    description: "\(images.count) images, \(wrong.count) with the wrong bytes, files shared or lost")
            }
            for image in images { await harness.downloader.discard(image) }
            guard harness.leftovers.isEmpty else {
                throw MeasurementFailure(description: "files left behind: \(harness.leftovers)")
            }
            return (baseline, peak)
        }
    }
}

@Suite("CA export")
struct CAExportTests {
    /// curl from the PATH, if there is one.
    static let curlPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "curl --cacert with --resolve fetches from the CDN; without the CA it refuses",
        .enabled(if: curlPath != nil, "curl is not installed"))
    func curl() async throws {
        let curlPath = try #require(Self.curlPath)
        try await withHarness { harness in
            let directory = try makeTemporaryDirectory("curl")
            defer { try? FileManager.default.removeItem(at: directory) }
            let caFile = directory.appendingPathComponent("ca.pem")
            let output = directory.appendingPathComponent("out.png")
            try harness.cdn.caCertificatePEM.write(to: caFile, atomically: true, encoding: .utf8)
            let port = harness.cdn.port
            let base = [
                "-sS", "--max-time", "10", "--noproxy", "*", "--resolve", "\(FixtureCDN.host):\(port):127.0.0.1",
                "-o", output.path, "-w", "%{http_code}",
            ]
            let url = "https://\(FixtureCDN.host):\(port)/cat.png"

            let trusted = try await runExecutable(curlPath, base + ["--cacert", caFile.path, url])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout == "200")
            #expect(try Data(contentsOf: output) == fixtureBytes("cat.png"))

            let byIP = try await runExecutable(
                curlPath,
                [
                    "-sS", "--max-time", "10", "--noproxy", "*", "-o", "/dev/null", "--cacert", caFile.path,
                    "https://127.0.0.1:\(port)/cat.png",
                ])
            #expect(byIP.status == 0, "the certificate also names 127.0.0.1: \(byIP.stderr)")

            let untrusted = try await runExecutable(curlPath, base + [url])
            #expect(untrusted.status == 60, "curl exit 60 = peer certificate cannot be authenticated")
        }
    }

    @Test("an AsyncHTTPClient trusting only the exported CA PEM verifies the CDN by host name")
    func asyncHTTPClient() async throws {
        try await withHarness { harness in
            let response = try await fetchRaw(harness.cdn, "/spinner.gif")
            #expect(response.status == 200)
            #expect(response.body == Array(try fixtureBytes("spinner.gif")))
            #expect(harness.cdn.caCertificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
            #expect(!harness.cdn.caCertificatePEM.contains("PRIVATE KEY"))
        }
    }
}
