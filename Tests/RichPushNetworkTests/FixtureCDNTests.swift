import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RichPushNetwork
import Testing

/// A fixture root with a file, a subdirectory, a symlink inside the root and one pointing outside it.
private struct SandboxRoot {
    let base: URL
    let root: URL
    let secret = "TOP-SECRET-OUTSIDE-THE-ROOT"

    init() throws {
        base = try makeTemporaryDirectory("sandbox")
        root = base.appendingPathComponent("root", isDirectory: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try secret.write(to: base.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try fixtureBytes("cat.png").write(to: root.appendingPathComponent("cat.png"))
        try fixtureBytes("cat.png").write(to: root.appendingPathComponent("noext"))
        try fixtureBytes("photo.jpg").write(to: root.appendingPathComponent("sub/photo name.jpg"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("escape.txt"), withDestinationURL: base.appendingPathComponent("secret.txt")
        )
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("escape-dir"), withDestinationURL: base)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("alias.png"), withDestinationURL: root.appendingPathComponent("cat.png"))
    }

    func remove() { try? FileManager.default.removeItem(at: base) }
}

@Suite("Fixture CDN path safety")
struct PathSafetyTests {
    @Test("resolver: only regular files inside the root are served")
    func resolver() throws {
        let sandbox = try SandboxRoot()
        defer { sandbox.remove() }
        let resolver = try FixtureFileResolver(root: sandbox.root)
        let realRoot = sandbox.root.resolvingSymlinksInPath()

        #expect(resolver.resolve(rawPath: "/cat.png") == .file(realRoot.appendingPathComponent("cat.png")))
        #expect(
            resolver.resolve(rawPath: "/sub/photo%20name.jpg")
                == .file(realRoot.appendingPathComponent("sub/photo name.jpg")))
        #expect(resolver.resolve(rawPath: "/alias.png") == .file(realRoot.appendingPathComponent("cat.png")))

        for forbidden in [
            "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
            "/sub/%2e%2e/%2e%2e/secret.txt", "/./cat.png", "/escape.txt", "/escape-dir/secret.txt", "/..%5csecret.txt",
            "/cat.png%00.gif", "/bad%zzencoding",
        ] {
            guard case .forbidden = resolver.resolve(rawPath: forbidden) else {
                Issue.record("\(forbidden) → \(resolver.resolve(rawPath: forbidden))")
                continue
            }
        }
        for missing in ["//etc/passwd", "/%2Fetc%2Fpasswd", "/etc/passwd", "/sub", "/", "/missing.png"] {
            guard case .notFound = resolver.resolve(rawPath: missing) else {
                Issue.record("\(missing) → \(resolver.resolve(rawPath: missing))")
                continue
            }
        }
    }

    @Test("a missing root or a file as root is refused with a one-line message")
    func badRoot() throws {
        #expect(throws: FixtureRootError("fixture root /nonexistent/richpush does not exist")) {
            try FixtureFileResolver(root: URL(fileURLWithPath: "/nonexistent/richpush"))
        }
        let file = fixturesRoot.appendingPathComponent("cat.png")
        #expect(throws: FixtureRootError("fixture root \(file.path) is not a directory")) {
            try FixtureFileResolver(root: file)
        }
    }

    @Test("over HTTPS: traversal, encoded traversal, absolute paths and symlinks never leak the secret")
    func overHTTPS() async throws {
        let sandbox = try SandboxRoot()
        defer { sandbox.remove() }
        try await withHarness(root: sandbox.root) { harness in
            let ok = try await fetchRaw(harness.cdn, "/cat.png")
            #expect(ok.status == 200)
            #expect(ok.body == Array(try fixtureBytes("cat.png")))

            let attempts: [(String, Int)] = [
                ("/%2e%2e/secret.txt", 403), ("/..%2fsecret.txt", 403), ("/sub/%2E%2E/%2E%2E/secret.txt", 403),
                ("/escape.txt", 403), ("/escape-dir/secret.txt", 403), ("//etc/passwd", 404),
                ("/%2Fetc%2Fpasswd", 404), ("/missing.png", 404),
            ]
            for (target, status) in attempts {
                let response = try await fetchRaw(harness.cdn, target)
                #expect(response.status == status, "\(target)")
                #expect(!response.text.contains(sandbox.secret), "\(target) leaked the secret")
            }
        }
    }
}

@Suite("Fixture CDN responses")
struct FixtureCDNResponseTests {
    @Test("files are served with a Content-Type from the extension and a Content-Length")
    func plainFiles() async throws {
        try await withHarness { harness in
            let expected: [(String, String)] = [
                ("cat.png", "image/png"), ("photo.jpg", "image/jpeg"), ("spinner.gif", "image/gif"),
                ("sample.webp", "image/webp"), ("drawing.svg", "image/svg+xml"), ("sample.bmp", "image/bmp"),
                ("sample.heic", "image/heic"), ("not-an-image.txt", "text/plain; charset=utf-8"),
                ("page.html", "text/html; charset=utf-8"),
            ]
            for (name, type) in expected {
                let response = try await fetchRaw(harness.cdn, "/\(name)")
                let bytes = Array(try fixtureBytes(name))
                #expect(response.status == 200, "\(name)")
                #expect(response.header("content-type") == type, "\(name)")
                #expect(response.header("content-length") == "\(bytes.count)", "\(name)")
                #expect(response.body == bytes, "\(name)")
            }
        }
    }

    @Test("type= overrides or omits the Content-Type")
    func typeFault() async throws {
        try await withHarness { harness in
            #expect(try await fetchRaw(harness.cdn, "/cat.png?type=text/html").header("content-type") == "text/html")
            let omitted = try await fetchRaw(harness.cdn, "/cat.png?type=")
            #expect(omitted.header("content-type") == nil)
            #expect(omitted.body == Array(try fixtureBytes("cat.png")))
        }
    }

    @Test("status, redirect, pad, truncate, drip and delay do what they say")
    func faults() async throws {
        try await withHarness { harness in
            let cat = Array(try fixtureBytes("cat.png"))

            let notFound = try await fetchRaw(harness.cdn, "/cat.png?status=404")
            #expect(notFound.status == 404)

            let redirect = try await fetchRaw(harness.cdn, "/cat.png?redirect=https&status=404&type=")
            #expect(redirect.status == 302)
            #expect(
                redirect.header("location")
                    == "https://\(FixtureCDN.host):\(harness.cdn.port)/cat.png?status=404&type=")
            let insecure = try await fetchRaw(harness.cdn, "/cat.png?redirect=http")
            #expect(insecure.header("location") == "http://\(FixtureCDN.host)/cat.png")

            let padded = try await fetchRaw(harness.cdn, "/cat.png?pad=1KB")
            #expect(padded.header("content-length") == "\(cat.count + 1024)")
            #expect(Array(padded.body.prefix(cat.count)) == cat)
            #expect(padded.body.suffix(1024).allSatisfy { $0 == 0 })

            let truncated = try await fetchRaw(harness.cdn, "/cat.png?truncate=100")
            #expect(truncated.header("content-length") == "100")
            #expect(truncated.body == Array(cat.prefix(100)))

            let start = ContinuousClock.now
            let dripped = try await fetchRaw(harness.cdn, "/cat.png?drip=10KB")
            #expect(dripped.header("content-length") == nil, "a drip body is chunked, without a length")
            #expect(dripped.body == cat)
            #expect(ContinuousClock.now - start >= .milliseconds(200))

            let delayStart = ContinuousClock.now
            let delayed = try await fetchRaw(harness.cdn, "/cat.png?delay=250ms")
            #expect(delayed.status == 200)
            #expect(ContinuousClock.now - delayStart >= .milliseconds(250))
        }
    }
}

@Suite("Fixture CDN: statuses without a body")
struct BodilessStatusTests {
    @Test(
        "204, 205 and 304 answer without a body, so the next response on the same connection is intact",
        arguments: [204, 205, 304])
    func noBody(status: Int) async throws {
        try await withHarness { harness in
            let cat = Array(try fixtureBytes("cat.png"))
            // One reused connection: body bytes after a 304 would be read as the start of the next response.
            try await withRawClient(harness.cdn) { client in
                for round in 1...3 {
                    let empty = try await client.fetch("/cat.png?status=\(status)&type=image/png")
                    #expect(empty.status == status, "round \(round)")
                    #expect(empty.body.isEmpty, "round \(round)")
                    let next = try await client.fetch("/cat.png")
                    #expect(next.status == 200, "round \(round)")
                    #expect(next.body == cat, "round \(round)")
                }
            }
        }
    }

    @Test("1xx statuses are refused with a 400: the CDN never sends an interim response as the answer")
    func informational() async throws {
        try await withHarness { harness in
            for status in [100, 101, 103] {
                let response = try await fetchRaw(harness.cdn, "/cat.png?status=\(status)")
                #expect(response.status == 400)
                #expect(response.text.contains("bad fault status=\(status): expected an HTTP status code from 200"))
            }
        }
    }
}
