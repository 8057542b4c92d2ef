import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import RichPushCore
import RichPushNetwork
import Testing

@Suite("Bounded memory")
struct BoundedMemoryTests {
    /// cat.png padded to just under the 10 MB cap.
    static let padding = 10 * 1024 * 1024 - 64 * 1024
    /// Far below the body size: async-http-client hands over at most a few hundred KB per chunk.
    static let chunkBound = 1024 * 1024

    @Test("one ~10 MB download keeps one small chunk in memory at a time and hashes the whole body")
    func oneLargeDownload() async throws {
        try await withHarness { harness in
            let image = try #require(await harness.download("cat.png?pad=\(Self.padding)").result.success)
            var expected = try fixtureBytes("cat.png")
            expected.append(Data(count: Self.padding))
            #expect(image.bytes == expected.count)
            #expect(image.sha256 == sha256Hex(expected))
            #expect(image.width == 640 && image.height == 480)
            let largest = harness.downloader.statistics.largestChunk
            #expect(largest > 0)
            #expect(largest <= Self.chunkBound, "largest chunk held: \(largest) bytes for a \(image.bytes)-byte body")
            await harness.downloader.discard(image)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("20 concurrent ~10 MB downloads: all succeed, each in its own file, chunks stay small")
    func twentyConcurrentDownloads() async throws {
        try await withHarness { harness in
            let images = try await withThrowingTaskGroup(of: DownloadedImage.self) { group in
                for index in 0..<20 {
                    let url = harness.url("cat.png?pad=\(Self.padding)&n=\(index)")
                    group.addTask {
                        try await harness.downloader.download(
                            url, limits: DownloadLimits(timeout: .seconds(60)), events: { _ in })
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(images.count == 20)
            #expect(Set(images.map(\.sha256)).count == 1)
            #expect(images.allSatisfy { $0.bytes == 2928 + Self.padding })
            #expect(Set(images.map(\.file)).count == 20, "every download gets its own file")
            #expect(harness.downloader.statistics.largestChunk <= Self.chunkBound)
            #expect(harness.downloader.statistics.bytesStreamed >= 20 * Self.padding)
            for image in images { await harness.downloader.discard(image) }
            #expect(harness.leftovers.isEmpty)
        }
    }
}

@Suite("CA export")
struct CAExportTests {
    @Test("curl --cacert with --resolve fetches from the CDN; without the CA it refuses")
    func curl() async throws {
        let curlPath = "/usr/bin/curl"
        guard FileManager.default.isExecutableFile(atPath: curlPath) else { return }  // no curl: nothing to check
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

            let trusted = try await run(curlPath, base + ["--cacert", caFile.path, url])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout == "200")
            #expect(try Data(contentsOf: output) == fixtureBytes("cat.png"))

            let byIP = try await run(
                curlPath,
                [
                    "-sS", "--max-time", "10", "--noproxy", "*", "-o", "/dev/null", "--cacert", caFile.path,
                    "https://127.0.0.1:\(port)/cat.png",
                ])
            #expect(byIP.status == 0, "the certificate also names 127.0.0.1: \(byIP.stderr)")

            let untrusted = try await run(curlPath, base + [url])
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

    private func run(_ executable: String, _ arguments: [String]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stdout, stderr)
    }
}
