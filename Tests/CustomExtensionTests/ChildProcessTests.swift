import Foundation
import RichPushTestSupport
import Synchronization
import Testing

@testable import RichPushCustomExtension

#if canImport(Glibc)
    import Glibc
#endif

/// The child processes richpush starts hold nothing of richpush's, and what sits between them and a server holds
/// back a fast sender for a slow reader.
@Suite("Child processes and the extension's proxy")
struct ChildProcessTests {
    @Test("children started at once hold only their own four descriptors: none of richpush's, none of each other's")
    func descriptors() async throws {
        let lists = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<24 {
                group.addTask {
                    let child = try await ChildProcess.spawn(["/bin/ls", "/proc/self/fd"], environment: [:])
                    var lines: [String] = []
                    for await output in child.output {
                        if case .stdout(let line) = output { lines.append(line) }
                    }
                    return lines
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(lists.count == 24)
        for list in lists {
            // 0 to 3, and the one ls opens to read the folder.
            let descriptors = list.compactMap { Int($0) }
            #expect(descriptors.count == 5 && descriptors.allSatisfy { $0 <= 4 }, "\(list)")
        }
    }

    @Test("a child's end is its own: pipes held by a process it left behind do not keep richpush waiting")
    func endIsTheChildsOwn() async throws {
        // The shell leaves a sleep behind that holds its standard output, then exits.
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        let child = try await ChildProcess.spawn(
            ["/bin/sh", "-c", "/bin/sleep \(marker) & echo started"], environment: [:])
        var ended: ChildProcess.Output?
        for await output in child.output {
            if case .exited = output { ended = output }
        }
        #expect(ended == .exited(status: 0, signal: nil))
        // Its end was reported while the sleep still held the pipe.
        let left = ExtensionLifetimeTests.processes(matching: "sleep \(marker)")
        #expect(left.count == 1, "the sleep had ended: its pipes were waited for")
        for pid in left { kill(pid, SIGKILL) }
    }

    @Test("a child's lines are read only as fast as they are handled: a flood waits on its own pipe, not in richpush")
    func paced() async throws {
        let folder = try TemporaryFolder()
        let done = folder.path + "/done"
        // 200,000 lines (1.2 MB): far more than a pipe and the lines read ahead can hold.
        let child = try await ChildProcess.spawn(
            ["/bin/sh", "-c", "/usr/bin/yes event | /usr/bin/head -n 200000 >&3; /usr/bin/touch \(done)"],
            environment: [:])
        try await Task.sleep(for: .seconds(2))
        #expect(!FileManager.default.fileExists(atPath: done), "the child wrote every line while none was handled")
        var events = 0
        for await output in child.output {
            if case .event = output { events += 1 }
            child.handled()
        }
        #expect(events == 200_000)
        #expect(FileManager.default.fileExists(atPath: done))
    }

    @Test("a tunnel through the proxy holds a fast server back while the extension does not read: nothing piles up")
    func proxyBackpressure() async throws {
        let total = 100 * 1024 * 1024
        let server = try FloodServer(bytes: total)
        let proxy = try await ExtensionProxy.start(fixtureCDN: nil) { _ in }
        let client = try connect(port: proxy.port)
        defer { close(client) }
        try send(client, "CONNECT 127.0.0.1:\(server.port) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = try readHead(client)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        // The extension reads nothing for a while: the server may fill the buffers in between, no more.
        try await Task.sleep(for: .seconds(2))
        let sentWhileStalled = server.written
        #expect(sentWhileStalled < 48 * 1024 * 1024, "\(sentWhileStalled) bytes left the server while nobody read")
        // Then it reads everything, intact.
        let received = try await readAll(client, expecting: total)
        #expect(received == total)
        await proxy.stop()
    }

    // MARK: - Sockets

    func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        return descriptor
    }

    func send(_ descriptor: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Reads byte by byte up to the blank line, so no body byte is taken with the head.
    func readHead(_ descriptor: Int32) throws -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard read(descriptor, &byte, 1) == 1 else { throw POSIXError(.EIO) }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }

    func readAll(_ descriptor: Int32, expecting total: Int) async throws -> Int {
        await withCheckedContinuation { continuation in
            Thread {
                var buffer = [UInt8](repeating: 0, count: 256 * 1024)
                var count = 0
                while count < total {
                    let got = read(descriptor, &buffer, buffer.count)
                    if got <= 0 { break }
                    count += got
                }
                continuation.resume(returning: count)
            }.start()
        }
    }
}

/// A TCP server on 127.0.0.1 that writes `bytes` bytes to its first client as fast as the connection takes them,
/// counting what it wrote.
final class FloodServer: Sendable {
    let port: Int
    private let sent = Atomic<Int>(0)
    var written: Int { sent.load(ordering: .relaxed) }

    init(bytes: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            defer { close(listener) }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            let chunk = [UInt8](repeating: 0x5A, count: 64 * 1024)
            var left = bytes
            while left > 0 {
                let wrote = write(client, chunk, min(chunk.count, left))
                if wrote <= 0 { return }
                left -= wrote
                sent.add(wrote, ordering: .relaxed)
            }
        }.start()
    }
}

@Suite("The extension's trust store")
struct ExtensionTrustStoreTests {
    /// Where the system's certificates are hashed, the bundle holds only the CDN's CA (libcurl finds the others by
    /// hash): a bundle is parsed whole for each new TLS session. A folder without a live hash link gets the whole
    /// system bundle, or the extension would trust nothing else.
    @Test("the system's store counts as hashed only with a live hash link")
    func hashedStore() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("ca-certificates.crt", "bundle")
        _ = try folder.write("ISRG_Root_X1.pem", "a certificate")
        #expect(!ExtensionSandbox.systemStoreIsHashed(folder.path))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/4042bcee.0", withDestinationPath: folder.path + "/gone.pem")
        #expect(!ExtensionSandbox.systemStoreIsHashed(folder.path), "a broken link finds nothing")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/4042bcee.1", withDestinationPath: folder.path + "/ISRG_Root_X1.pem")
        #expect(ExtensionSandbox.systemStoreIsHashed(folder.path))
        #expect(
            ExtensionSandbox.systemStoreIsHashed(), "this machine's /etc/ssl/certs is hashed (update-ca-certificates)")
    }
}
