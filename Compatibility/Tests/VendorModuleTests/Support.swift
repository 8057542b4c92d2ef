import Foundation
import UserNotifications

#if canImport(Glibc)
    import Glibc
#endif

// What the vendor modules' tests share: a local HTTP server and a recorder of content handler calls.

/// Calls of a content handler, from whichever thread the module calls it.
final class HandlerCalls: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var contents: [UNNotificationContent] = []

    func record(_ content: UNNotificationContent) {
        lock.lock()
        defer { lock.unlock() }
        contents.append(content)
    }

    var all: [UNNotificationContent] {
        lock.lock()
        defer { lock.unlock() }
        return contents
    }

    /// Waits for the first call (up to 90 s, past URLSession's 60 s), then a little more so a second one would be
    /// seen.
    func firstCall() async throws {
        let deadline = ContinuousClock.now + .seconds(90)
        while all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// An HTTP server on 127.0.0.1 (plain http: the modules hand URLs to URLSession, whose App Transport Security is
/// richpush's proxy, not there in these tests) that answers one request with a 200 and a body, then closes.
final class LocalHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(contentType: String, body: Data) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        listener = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        let response = Data(head.utf8) + body
        Thread.detachNewThread {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.containsBytes(Data("\r\n\r\n".utf8)) {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { break }
                request.append(contentsOf: buffer[0..<count])
            }
            response.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(client, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(client)
        }
    }

    deinit {
        close(listener)
    }
}

extension Data {
    fileprivate func containsBytes(_ other: Data) -> Bool { range(of: other) != nil }
}
