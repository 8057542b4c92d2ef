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
        "20 concurrent ~9 MB downloads from a file on disk: resident memory peaks at most 24 MB above one download's",
        .enabled(if: ResidentMemory.isAvailable, "needs /proc/self/status and /proc/self/clear_refs (Linux)"))
    func twentyConcurrentDownloads() async throws {
        let root = try makeTemporaryDirectory("memory")
        defer { try? FileManager.default.removeItem(at: root) }
        // A real PNG followed by 9 MB of random bytes (which nothing can share or compress), served from disk.
        var body = try fixtureBytes("cat.png")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        body.append(random.readData(ofLength: 9 * 1024 * 1024))
        try random.close()
        try body.write(to: root.appendingPathComponent("big.png"))
        let expectedHash = sha256Hex(body)
        let count = 20
        let size = body.count
        body = Data()
        let limits = DownloadLimits(timeout: .seconds(120))

        try await withHarness(root: root) { harness in
            // Warm up (TLS, buffers, allocator, the connection pool) so that the measurements see the downloads only.
            for _ in 0..<2 {
                let warmUp = try #require(await harness.download("big.png", limits: limits).result.success)
                await harness.downloader.discard(warmUp)
            }

            // The baseline: the peak while one download runs.
            try ResidentMemory.resetPeak()
            let single = try #require(await harness.download("big.png", limits: limits).result.success)
            let baseline = try ResidentMemory.read("VmHWM")
            #expect(single.sha256 == expectedHash)
            await harness.downloader.discard(single)

            try ResidentMemory.resetPeak()
            let images = try await withThrowingTaskGroup(of: DownloadedImage.self) { group in
                for _ in 0..<count {
                    let url = harness.url("big.png")
                    group.addTask {
                        try await harness.downloader.download(url, limits: limits, events: { _ in })
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let peak = try ResidentMemory.read("VmHWM")

            #expect(images.count == count)
            #expect(images.allSatisfy { $0.sha256 == expectedHash && $0.bytes == size })
            #expect(Set(images.map(\.file)).count == count, "every download gets its own file")
            // The goal is at most about 1 MB per download (downloader and CDN together): 20 MB for 20, and some room
            // for the allocator and for other tests running in this process now. Measured alone, the growth is
            // 9-11 MB; holding each body in memory (in the downloader or the CDN) would need 180 MB.
            let growth = peak - baseline
            #expect(
                growth < 24 * 1024 * 1024,
                "20 concurrent downloads peaked \(growth / 1024) KB above one download (\(baseline / 1024 / 1024) MB)")
            for image in images { await harness.downloader.discard(image) }
            #expect(harness.leftovers.isEmpty)
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
