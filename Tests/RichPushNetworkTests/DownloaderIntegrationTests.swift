import Foundation
import Logging
import RichPushCore
import RichPushNetwork
import Testing
import RichPushTestSupport

/// The real downloader against the real fixture CDN, over TLS on loopback.
@Suite("HTTPSImageDownloader against the fixture CDN")
struct DownloaderIntegrationTests {
    // MARK: Success

    @Test(
        "supported images: metadata, bytes, SHA-256, file named from the format",
        arguments: [
            ("cat.png", ImageFormat.png, 640, 480, 1, "image/png"),
            ("photo.jpg", .jpeg, 320, 240, 1, "image/jpeg"),
            ("photo-progressive.jpg", .jpeg, 320, 240, 1, "image/jpeg"),
            ("spinner.gif", .gif, 64, 64, 8, "image/gif"),
        ])
    func success(name: String, format: ImageFormat, width: Int, height: Int, frames: Int, type: String) async throws {
        try await withHarness { harness in
            let expectedBytes = try fixtureBytes(name)
            let (result, events) = await harness.download(name)
            let image = try #require(result.success, "\(String(describing: result.failure))")
            #expect(image.format == format)
            #expect(image.width == width && image.height == height && image.frames == frames)
            #expect(image.bytes == expectedBytes.count)
            #expect(image.sha256 == sha256Hex(expectedBytes))
            #expect(image.servedContentType == type)
            #expect(image.file.pathExtension == format.fileExtension)
            #expect(image.file.deletingLastPathComponent().path == harness.store.directory.path)
            #expect(try Data(contentsOf: image.file) == expectedBytes)
            #expect(events.first == .requestSent(harness.url(name)), "events report the URL as the payload wrote it")
            #expect(
                events.contains(.responseReceived(status: 200, contentType: type, expectedBytes: expectedBytes.count)))
            #expect(events.last == .bytesReceived(expectedBytes.count))
            #expect(harness.leftovers == [image.file.lastPathComponent], "no partial file next to the attachment")

            await harness.downloader.discard(image)
            #expect(harness.leftovers.isEmpty, "discarding removes the temporary file")
        }
    }

    @Test("the file name never comes from the URL: query strings, encodings, no extension, .. in the query")
    func fileNames() async throws {
        let sandbox = try makeTemporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: sandbox) }
        try fixtureBytes("cat.png").write(to: sandbox.appendingPathComponent("noext"))
        try fixtureBytes("photo.jpg").write(to: sandbox.appendingPathComponent("photo name.gif"))
        try await withHarness(root: sandbox) { harness in
            let paths = [
                "noext?type=image/png", "photo%20name.gif?type=image/png", "noext?type=image/png#fragment",
                "photo%20name.gif?truncate=100MB",
            ]
            // A random (version 4) UUID, lowercase, a new one for every download.
            let uuid = #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(png|jpg)$"#
            var names: Set<String> = []
            for path in paths {
                let image = try #require(await harness.download(path).result.success, "\(path)")
                let name = image.file.lastPathComponent
                #expect(name.range(of: uuid, options: .regularExpression) != nil, "\(name)")
                #expect(image.file.deletingLastPathComponent().path == harness.store.directory.path)
                names.insert(name)
            }
            #expect(names.count == paths.count, "\(names)")
            let jpeg = try #require(await harness.download("photo%20name.gif").result.success)
            #expect(jpeg.format == .jpeg && jpeg.file.pathExtension == "jpg", "the bytes decide, not the .gif name")
        }
    }

    @Test("a redirect to https is followed; the event carries the new URL")
    func redirectFollowed() async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download("cat.png?redirect=https")
            let image = try #require(result.success)
            #expect(image.width == 640)
            #expect(
                events.prefix(3) == [
                    .requestSent(harness.url("cat.png?redirect=https")), .redirect(harness.url("cat.png")),
                    .requestSent(harness.url("cat.png")),
                ])
        }
    }

    // MARK: Failures, one per reason code

    @Test("insecureURL: http is refused before any connection")
    func insecureURL() async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download(
                url: URL(string: "http://\(FixtureCDN.host)/cat.png")!)
            #expect(result.failure?.reason == .insecureURL)
            #expect(events.isEmpty, "no request was sent")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("insecureRedirect: a hop to http fails")
    func insecureRedirect() async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download("cat.png?redirect=http")
            #expect(result.failure?.reason == .insecureRedirect)
            #expect(result.failure?.detail.contains("http://\(FixtureCDN.host)/cat.png") == true)
            #expect(events.filter { if case .requestSent = $0 { true } else { false } }.count == 1)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("too many redirects: httpStatus naming the limit")
    func tooManyRedirects() async throws {
        try await withHarness { harness in
            let (result, _) = await harness.download(
                "cat.png?redirect=https",
                limits: DownloadLimits(timeout: Harness.patientLimits.timeout, maxRedirects: 0))
            #expect(
                result.failure
                    == DownloadFailure(
                        .httpStatus,
                        "HTTP 302 Found: more than 0 redirects (stopped before https://\(FixtureCDN.host)/cat.png)"))
        }
    }

    @Test("timeout: one deadline for the whole download, enforced promptly")
    func timeout() async throws {
        try await withHarness { harness in
            // Without the deadline the 3 s delay would end in a good image, not a timeout.
            let limits = DownloadLimits(timeout: .milliseconds(300))
            let (result, _) = await harness.download("cat.png?delay=3s", limits: limits)
            #expect(result.failure == DownloadFailure(.timeout, "no complete image within 300 ms"))

            // Slow body: headers arrive at once, the body (9 KB at 200 bytes/s, so at least 47 s) drips past the
            // deadline. The deadline is 10 s here so that the headers arrive before it even on a machine loaded by
            // a full parallel test run (a 1.5 s and a 4 s deadline both saw none there).
            let (dripped, events) = await harness.download(
                "photo.jpg?drip=200B", limits: DownloadLimits(timeout: .seconds(10)))
            #expect(dripped.failure?.reason == .timeout)
            #expect(events.contains { if case .responseReceived = $0 { true } else { false } })

            // Redirects share the deadline.
            let (redirected, _) = await harness.download("cat.png?redirect=https&delay=200ms", limits: limits)
            #expect(redirected.failure?.reason == .timeout)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("cancellation ends the download promptly and removes the partial file")
    func cancellation() async throws {
        try await withHarness { harness in
            let downloader = harness.downloader
            // Padded past what a download keeps in memory, so that a partial file is on disk when it is cancelled.
            let url = harness.url("photo.jpg?pad=1MB&drip=256KB")
            let task = Task {
                try await downloader.download(url, limits: Harness.patientLimits, events: { _ in })
            }
            var sawPartial = false
            for _ in 0..<1200 where !sawPartial {
                try await Task.sleep(for: .milliseconds(25))
                sawPartial = harness.store.files().contains { $0.pathExtension == "part" }
            }
            #expect(sawPartial, "no partial file appeared")
            task.cancel()
            // Ignoring the cancellation would end, about 4 s later, in a good image.
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test(
        "httpStatus: the code and phrase are in the detail",
        arguments: [(404, "Not Found"), (503, "Service Unavailable")])
    func httpStatus(code: Int, phrase: String) async throws {
        try await withHarness { harness in
            let (result, _) = await harness.download("cat.png?status=\(code)")
            #expect(result.failure == DownloadFailure(.httpStatus, "HTTP \(code) \(phrase)"))
            let (missing, _) = await harness.download("no-such-file.png")
            #expect(missing.failure == DownloadFailure(.httpStatus, "HTTP 404 Not Found"))
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("networkError: TLS fails against a certificate from an untrusted CA")
    func untrustedCertificate() async throws {
        try await withHarness { harness in
            // A downloader that maps the fixture host to the CDN but trusts a different, fresh CA.
            let otherCA = try FixtureCertificateAuthority.generate()
            var mapping = harness.cdn.hostMapping
            mapping.caCertificatePEM = otherCA.caCertificatePEM
            let downloader = try HTTPSImageDownloader(store: harness.store, fixtureHost: mapping, logger: quietLogger)
            do {
                _ = try await downloader.download(harness.url("cat.png"), limits: DownloadLimits(), events: { _ in })
                Issue.record("an untrusted certificate must not be accepted")
            } catch let failure as DownloadFailure {
                #expect(failure.reason == .networkError)
                #expect(failure.detail.hasPrefix("TLS with"), "\(failure.detail)")
                #expect(failure.detail.contains("CERTIFICATE_VERIFY_FAILED"), "\(failure.detail)")
            }
            await downloader.shutdown()

            // The fixture CA is trusted for the fixture host only: the same server by IP uses the system roots.
            let (byIP, _) = await harness.download(url: URL(string: "https://127.0.0.1:\(harness.cdn.port)/cat.png")!)
            #expect(byIP.failure?.reason == .networkError)
            #expect(byIP.failure?.detail.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(String(describing: byIP))")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test(
        "notAnImage: a Content-Type that is not image/* is refused, naming what was served",
        arguments: [
            ("cat.png?type=text/html", "served text/html"),
            ("cat.png?type=application/octet-stream", "served application/octet-stream"),
            ("cat.png?type=", "served no Content-Type (image/* is required)"),
            ("page.html", "served text/html; charset=utf-8"),
        ])
    func notAnImageByType(path: String, detail: String) async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download(path)
            #expect(result.failure == DownloadFailure(.notAnImage, detail))
            #expect(!events.contains { if case .bytesReceived = $0 { true } else { false } }, "the body is not read")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("notAnImage: image/* whose bytes are no image")
    func notAnImageByBytes() async throws {
        try await withHarness { harness in
            let (html, _) = await harness.download("page.html?type=image/png")
            #expect(
                html.failure
                    == DownloadFailure(.notAnImage, "served image/png but the body is not an image (HTML text)"))
            let (text, _) = await harness.download("not-an-image.txt?type=image/jpeg")
            #expect(text.failure?.reason == .notAnImage)
            #expect(text.failure?.detail.contains("plain text") == true)
            let (cut, _) = await harness.download("cat.png?truncate=10")
            #expect(cut.failure?.detail.contains("truncated PNG") == true)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("contentTypeRule .ignored: any Content-Type (or none) is read, and the bytes decide")
    func contentTypeIgnored() async throws {
        try await withHarness { harness in
            let limits = DownloadLimits(timeout: .seconds(60), contentTypeRule: .ignored)
            let (octet, _) = await harness.download("cat.png?type=application/octet-stream", limits: limits)
            let image = try #require(octet.success, "\(String(describing: octet.failure))")
            #expect(image.format == .png && image.width == 640 && image.servedContentType == "application/octet-stream")
            await harness.downloader.discard(image)
            let (untyped, _) = await harness.download("spinner.gif?type=", limits: limits)
            #expect(untyped.success?.frames == 8, "\(String(describing: untyped.failure))")
            if let gif = untyped.success { await harness.downloader.discard(gif) }
            let (html, _) = await harness.download("page.html", limits: limits)
            #expect(html.failure?.reason == .notAnImage, "the bytes are still checked")
            // The default rule refuses the same octet-stream answer before reading it.
            let (refused, _) = await harness.download("cat.png?type=application/octet-stream")
            #expect(refused.failure == DownloadFailure(.notAnImage, "served application/octet-stream"))
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("a truncated image whose header is complete is accepted with its metadata")
    func truncatedAccepted() async throws {
        try await withHarness { harness in
            let image = try #require(await harness.download("cat.png?truncate=100").result.success)
            #expect(image.bytes == 100 && image.width == 640 && image.height == 480)
            #expect(image.sha256 == sha256Hex(try fixtureBytes("cat.png").prefix(100)))
        }
    }

    @Test(
        "unsupportedImageType: recognised types iOS does not show",
        arguments: [
            ("sample.webp", "WebP"), ("drawing.svg", "SVG"), ("sample.bmp", "BMP"), ("sample.heic", "HEIC"),
            ("sample.tiff", "TIFF"),
        ])
    func unsupported(path: String, type: String) async throws {
        try await withHarness { harness in
            let (result, _) = await harness.download(path)
            #expect(result.failure?.reason == .unsupportedImageType)
            #expect(result.failure?.detail.contains("the bytes are \(type)") == true, "\(String(describing: result))")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("tooLarge: a Content-Length over the cap fails before the body is read")
    func tooLargeByLength() async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download("cat.png?pad=11MB")
            #expect(
                result.failure
                    == DownloadFailure(
                        .tooLarge, "Content-Length \(2928 + 11 * 1024 * 1024) bytes is over the 10485760-byte limit"))
            #expect(!events.contains { if case .bytesReceived = $0 { true } else { false } })
            let (small, _) = await harness.download(
                "photo.jpg", limits: DownloadLimits(timeout: Harness.patientLimits.timeout, maxBytes: 4096))
            #expect(small.failure?.reason == .tooLarge)
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("tooLarge: a body without length is cut at the cap while streaming")
    func tooLargeWhileStreaming() async throws {
        try await withHarness { harness in
            let before = harness.downloader.statistics.bytesStreamed
            let (result, events) = await harness.download(
                "photo.jpg?pad=1MB&drip=256KB",
                limits: DownloadLimits(timeout: Harness.patientLimits.timeout, maxBytes: 4096))
            #expect(
                result.failure
                    == DownloadFailure(
                        .tooLarge, "the body passed the 4096-byte limit while streaming (no Content-Length)"))
            #expect(events.contains(.responseReceived(status: 200, contentType: "image/jpeg", expectedBytes: nil)))
            let written = harness.downloader.statistics.bytesStreamed - before
            #expect(
                written <= 4096, "cut as soon as the cap is passed, not after the whole body: \(written) bytes written")
            #expect(harness.leftovers.isEmpty)
        }
    }

    @Test("the fixture host without a fixture CDN is a networkError that says so, without asking DNS")
    func fixtureHostWithoutCDN() async throws {
        let storeParent = try makeTemporaryDirectory("nocdn")
        defer { try? FileManager.default.removeItem(at: storeParent) }
        let store = try AttachmentStore(parent: storeParent, logger: quietLogger)
        let downloader = try HTTPSImageDownloader(store: store, logger: quietLogger)
        let recorder = EventRecorder()
        // A long deadline: waiting for anything (DNS included) would not end in this failure.
        let result = await outcome {
            try await downloader.download(
                URL(string: "https://Fixtures.Richpush.Test/cat.png")!, limits: DownloadLimits(timeout: .seconds(60)),
                events: recorder.record)
        }
        #expect(
            result.failure as? DownloadFailure
                == DownloadFailure(
                    .networkError,
                    "fixtures.richpush.test is served by the embedded fixture CDN, which is not running; nothing was sent"
                ))
        #expect(recorder.events.isEmpty, "no request was sent")
        await downloader.shutdown()
        store.removeAll()
        #expect(!FileManager.default.fileExists(atPath: store.directory.path), "removeAll deletes the directory")
    }

    @Test(
        "the fixture host mapped to a stopped CDN is a networkError: connection refused, and says the CDN is not running"
    )
    func fixtureHostWithStoppedCDN() async throws {
        let cdn = try await FixtureCDN.start(root: fixturesRoot, logger: quietLogger)
        let mapping = cdn.hostMapping
        await cdn.shutdown()
        let storeParent = try makeTemporaryDirectory("stopped")
        defer { try? FileManager.default.removeItem(at: storeParent) }
        let store = try AttachmentStore(parent: storeParent, logger: quietLogger)
        let downloader = try HTTPSImageDownloader(store: store, fixtureHost: mapping, logger: quietLogger)
        let result = await outcome {
            try await downloader.download(
                URL(string: "https://\(FixtureCDN.host)/cat.png")!, limits: DownloadLimits(timeout: .seconds(60)),
                events: { _ in })
        }
        let failure = try #require(result.failure as? DownloadFailure, "\(result)")
        #expect(failure.reason == .networkError, "\(failure)")
        #expect(failure.detail.contains("Connection refused"), "\(failure.detail)")
        #expect(
            failure.detail.hasSuffix("(the fixture CDN at 127.0.0.1:\(mapping.port) is not running)"),
            "\(failure.detail)")
        #expect(store.files().isEmpty)
        await downloader.shutdown()
        store.removeAll()
    }

    // MARK: Isolation between downloads

    @Test(
        "an answer the downloader stops reading early never spoils the next download on the same downloader",
        arguments: [
            ("cat.png?status=304", "HTTP 304 Not Modified"),
            ("cat.png?status=304&type=image/png", "HTTP 304 Not Modified"),
            ("cat.png?status=204", "served no Content-Type (image/* is required)"),
            ("cat.png?status=404&type=image/png", "HTTP 404 Not Found"),
            ("cat.png?type=text/html&pad=5MB", "served text/html"),
            ("cat.png?pad=1MB", "Content-Length 1051504 bytes is over the 65536-byte limit"),
            ("cat.png?pad=1MB&drip=5MB", "the body passed the 65536-byte limit while streaming (no Content-Length)"),
        ])
    func earlyStopThenImage(path: String, detail: String) async throws {
        try await withHarness { harness in
            // One after the other, as `--jobs 1` runs them, a few times: a connection left with unread bytes
            // would be handed to the next download.
            for round in 1...3 {
                let (bad, _) = await harness.download(
                    path, limits: DownloadLimits(timeout: .seconds(60), maxBytes: 65536))
                #expect(bad.failure?.detail == detail, "round \(round): \(String(describing: bad))")
                let (good, _) = await harness.download("cat.png")
                let image = try #require(good.success, "round \(round): \(String(describing: good.failure))")
                #expect(image.width == 640 && image.height == 480 && image.bytes == 2928)
                await harness.downloader.discard(image)
            }
            #expect(harness.leftovers.isEmpty)
        }
    }

    // MARK: URLs

    @Test("the fixture host matches in any letter case; the event keeps the URL as written")
    func mixedCaseFixtureHost() async throws {
        try await withHarness { harness in
            let url = URL(string: "https://Fixtures.Richpush.Test/cat.png")!
            let (result, events) = await harness.download(url: url)
            let image = try #require(result.success, "\(String(describing: result.failure))")
            #expect(image.width == 640 && image.height == 480)
            #expect(events.first == .requestSent(url))
            let (upper, _) = await harness.download(url: URL(string: "https://FIXTURES.RICHPUSH.TEST:443/spinner.gif")!)
            #expect(upper.success?.frames == 8, "\(String(describing: upper.failure))")
        }
    }

    @Test(
        "a port out of range is invalidURL, before any connection",
        arguments: [("https://example.com:99999/x.png", 99999), ("https://example.com:0/x.png", 0)])
    func portOutOfRange(text: String, port: Int) async throws {
        try await withHarness { harness in
            let (result, events) = await harness.download(url: URL(string: text)!)
            #expect(
                result.failure
                    == DownloadFailure(.invalidURL, "the port \(port) is out of range (1 to 65535) in \(text)"))
            #expect(events.isEmpty, "no request was sent")
        }
    }

    @Test(
        "an address that never answers (IPv6 zone id) times out and does not hold up the shutdown",
        .timeLimit(.minutes(2)))
    func unansweredConnectDoesNotHoldShutdown() async throws {
        let storeParent = try makeTemporaryDirectory("zone")
        defer { try? FileManager.default.removeItem(at: storeParent) }
        let store = try AttachmentStore(parent: storeParent, logger: quietLogger)
        // A connection attempt may take a minute: far longer than the shutdown is given below, so a shutdown that
        // waited for the attempt would fail this test.
        let downloader = try HTTPSImageDownloader(store: store, logger: quietLogger, connectTimeout: .seconds(60))
        let blackhole = try BlackholeListener()
        defer { blackhole.close() }
        for text in ["https://[fe80::1%25eth0]/x.png", "https://127.0.0.1:\(blackhole.port)/x.png"] {
            let result = await outcome {
                try await downloader.download(
                    URL(string: text)!, limits: DownloadLimits(timeout: .milliseconds(500)), events: { _ in })
            }
            let failure = try #require(result.failure as? DownloadFailure, "\(text): \(result)")
            if text.contains("%25eth0"), failure.reason == .networkError {
                // No such interface here: the address fails at once, which holds up nothing either.
                continue
            }
            #expect(failure == DownloadFailure(.timeout, "no complete image within 500 ms"), "\(text)")
        }
        let stopped = await finishes(within: .seconds(20)) { await downloader.shutdown() }
        #expect(stopped, "the downloader's shutdown waited for a connection attempt no download wanted")
        store.removeAll()
    }
}
