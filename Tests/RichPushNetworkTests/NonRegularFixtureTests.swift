import Foundation
import RichPushNetwork
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixture root holding cat.png, a FIFO, a Unix socket and a symlink to the FIFO, all inside the root.
private final class SpecialFilesRoot {
    let root: URL
    let fifo: URL
    private let socketDescriptor: Int32
    private let unblocker: FIFOUnblocker

    init() throws {
        root = try makeTemporaryDirectory("special")
        try fixtureBytes("cat.png").write(to: root.appendingPathComponent("cat.png"))
        fifo = root.appendingPathComponent("pipe.png")
        guard mkfifo(fifo.path, 0o644) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("pipe-alias.png"), withDestinationURL: fifo)
        socketDescriptor = try Self.bindSocket(at: root.appendingPathComponent("socket.png").path)
        unblocker = FIFOUnblocker(fifo.path)
    }

    func remove() {
        unblocker.stop()
        close(socketDescriptor)
        try? FileManager.default.removeItem(at: root)
    }

    /// A listening-free Unix socket bound at `path`: a socket file in the directory.
    private static func bindSocket(at path: String) throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            precondition(bytes.count < raw.count, "socket path too long: \(path)")
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return descriptor
    }
}

/// Safety net for a server that opens the FIFO (the bug these tests catch): a thread that keeps opening it for
/// writing and closing it, so a reader blocked in open() gets end-of-file instead of hanging the test process.
/// A server that never opens the FIFO never meets it (opening for writing without a reader just fails).
private final class FIFOUnblocker: Sendable {
    private let running = Atomic<Bool>(true)

    init(_ path: String) {
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 { close(descriptor) }
                usleep(20_000)
            }
        }
        thread.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

@Suite("Fixture CDN: only regular files are fixtures")
struct NonRegularFixtureTests {
    @Test("resolver: a FIFO, a socket and a link to the FIFO are refused, naming what they are")
    func resolver() throws {
        let sandbox = try SpecialFilesRoot()
        defer { sandbox.remove() }
        let resolver = try FixtureFileResolver(root: sandbox.root)
        #expect(
            resolver.resolve(rawPath: "/pipe.png")
                == .forbidden("pipe.png is a FIFO (named pipe), not a regular file; only regular files are served"))
        #expect(
            resolver.resolve(rawPath: "/pipe-alias.png")
                == .forbidden(
                    "pipe-alias.png is a FIFO (named pipe), not a regular file; only regular files are served"))
        #expect(
            resolver.resolve(rawPath: "/socket.png")
                == .forbidden("socket.png is a socket, not a regular file; only regular files are served"))
        #expect(
            resolver.resolve(rawPath: "/cat.png")
                == .file(sandbox.root.resolvingSymlinksInPath().appendingPathComponent("cat.png")))
    }

    @Test(
        "over HTTPS: a FIFO or socket gets a 403 at once, other requests keep working, shutdown does not hang",
        .timeLimit(.minutes(2)))
    func overHTTPS() async throws {
        let sandbox = try SpecialFilesRoot()
        defer { sandbox.remove() }
        let cdn = try await FixtureCDN.start(root: sandbox.root, logger: quietLogger)
        do {
            let cat = Array(try fixtureBytes("cat.png"))
            // More requests for the FIFO than the machine has threads: a server blocking in open() on any of them
            // would have no thread left for the cat.
            let targets = Array(repeating: "/pipe.png", count: 8) + ["/pipe-alias.png?pad=1KB", "/socket.png"]
            let answers = try await withThrowingTaskGroup(of: (String, RawResponse).self) { group in
                for target in targets { group.addTask { (target, try await fetchRaw(cdn, target)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (target, answer) in answers {
                #expect(answer.status == 403, "\(target)")
                #expect(answer.text.contains("not a regular file; only regular files are served"), "\(target)")
            }
            #expect(answers.contains { $0.1.text.contains("pipe.png is a FIFO (named pipe)") })
            #expect(answers.contains { $0.1.text.contains("socket.png is a socket") })

            let after = try await fetchRaw(cdn, "/cat.png")
            #expect(after.status == 200)
            #expect(after.body == cat)
        } catch {
            await cdn.shutdown()
            throw error
        }
        let stopped = await finishes(within: .seconds(20)) { await cdn.shutdown() }
        #expect(stopped, "the CDN's shutdown hung")
    }

    @Test("a character device in the root is refused (as root, who can make one)", .enabled(if: getuid() == 0))
    func device() async throws {
        let root = try makeTemporaryDirectory("device")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = root.appendingPathComponent("zero.png")
        // The /dev/zero device (major 1, minor 5): an endless body if it were served.
        guard mknod(device.path, S_IFCHR | 0o644, dev_t((1 << 8) | 5)) == 0 else {
            Issue.record("mknod failed as root: \(String(cString: strerror(errno)))")
            return
        }
        try await withHarness(root: root) { harness in
            let answer = try await fetchRaw(harness.cdn, "/zero.png?pad=1KB")
            #expect(answer.status == 403)
            #expect(
                answer.text
                    == "zero.png is a character device, not a regular file; only regular files are served\n")
        }
    }
}
