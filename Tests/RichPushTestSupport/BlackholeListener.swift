import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP port on 127.0.0.1 where connection attempts neither succeed nor fail: the listener never accepts and its
/// accept queue is already full, so the kernel drops new SYNs and the client keeps retrying, like an address that
/// never answers.
public final class BlackholeListener {
    public let port: Int
    private var descriptors: [Int32] = []

    public init() throws {
        let listener = try Self.socket()
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        try Self.check(
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            })
        try Self.check(listen(listener, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try Self.check(
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            })
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue (a backlog of 0 holds one or two connections) with connections never accepted.
        for _ in 0..<3 {
            let client = try Self.socket()
            descriptors.append(client)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    public func close() {
        for descriptor in descriptors {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
        descriptors = []
    }

    private static func socket() throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try check(descriptor)
        return descriptor
    }

    private static func check(_ result: Int32) throws {
        guard result >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}

/// The result of an async throwing operation.
public func outcome<T>(_ operation: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await operation())
    } catch {
        return .failure(error)
    }
}
