import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import RichPushNetwork
import RichPushTestSupport
import Testing

/// `richpush push` against servers on loopback that are not APNs: what it prints must say so.
@Suite("richpush push: answers that are not APNs's")
struct PushAnswerTests {
    static func push(_ server: ImpostorServer, _ files: [String]) async throws -> CommandRun {
        try await runExecutable(
            richpushBinary(),
            ["push", "--to", "https://127.0.0.1:\(server.port)", "--cacert", server.caFile.path] + files,
            in: repositoryRoot)
    }

    @Test("a 200 without apns-id (or without FCM's message name) is not taken for accepted: the line says so, exit 1")
    func okWithoutAnIdentifier() async throws {
        let server = try await ImpostorServer.start(.http2(status: 200, contentType: nil, body: ""))
        let run = try await Self.push(
            server, ["payloads/rich/png-closed.json", "payloads/sources/fcm-v1-message.json"])
        try await server.stop()
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stdout.split(separator: "\n") == [
                "payloads/rich/png-closed.json  APNs 200  not an APNs answer: a 200 without apns-id, which APNs always sends",
                #"payloads/sources/fcm-v1-message.json  FCM 200  not an FCM answer: a 200 without the message's name {"name": …}, which FCM always sends"#,
            ], "\(run)")
    }

    @Test("an error whose body is not Apple's JSON {\"reason\": …} is named as such, with what came instead")
    func errorWithoutAppleJSON() async throws {
        let page = "<html><body>Internal Server Error</body></html>"
        let server = try await ImpostorServer.start(.http2(status: 500, contentType: "text/html", body: page))
        let run = try await Self.push(server, ["payloads/rich/png-closed.json"])
        try await server.stop()
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stdout
                == #"payloads/rich/png-closed.json  APNs 500  not an APNs answer: the body is not Apple's JSON {"reason": …} (text/html, 47 bytes: "<html><body>Internal Server Error</body></html>")"#
                + "\n", "\(run)")
    }

    @Test(
        "a peer that answers garbage after the TLS handshake is described in plain words, not the HTTP client's",
        arguments: [(true, true), (true, false), (false, true), (false, false)])
    func garbageAfterTheHandshake(offersHTTP2: Bool, closes: Bool) async throws {
        let server = try await ImpostorServer.start(.garbage(offeringHTTP2: offersHTTP2, thenClosing: closes))
        let run = try await Self.push(server, ["payloads/rich/png-closed.json"])
        try await server.stop()
        #expect(run.status == 2, "\(run)")
        let said =
            switch (offersHTTP2, closes) {
            case (true, true):
                "the connection was closed without an answer: what listens there stopped, or does not speak HTTP/2 "
                    + "as APNs does (is --to the address of richpush serve?)"
            case (true, false):
                "no connection was ready within 5 s: nothing answers there, or what does never started HTTP/2 as APNs "
                    + "does (is --to the address of richpush serve?)"
            case (false, _):
                "what answers there does not speak HTTP: its answer is no HTTP/2 or HTTP/1.1 response (is --to the "
                    + "address of richpush serve?)"
            }
        #expect(
            run.stderr == "richpush push: no richpush answers at https://127.0.0.1:\(server.port): \(said)\n",
            "\(run)")
    }
}

/// A TLS server on 127.0.0.1 (certificates for `localhost` and 127.0.0.1, its CA in ``caFile``) that is not APNs.
final class ImpostorServer: Sendable {
    enum Answer: Sendable {
        /// Over HTTP/2 (ALPN `h2`): every request gets this status (one HPACK's static table has: 200, 400, 500…),
        /// an optional Content-Type and body, and no other header.
        case http2(status: Int, contentType: String?, body: String)
        /// Bytes that are neither HTTP/1.1 nor HTTP/2 as soon as the client has sent something, then the connection
        /// closed or kept open; with `h2` chosen by ALPN, or no protocol at all (the client then speaks HTTP/1.1).
        case garbage(offeringHTTP2: Bool, thenClosing: Bool)
    }

    let port: Int
    let caFile: URL
    private let folder: TemporaryFolder
    private let channel: any Channel

    private init(port: Int, caFile: URL, folder: TemporaryFolder, channel: any Channel) {
        self.port = port
        self.caFile = caFile
        self.folder = folder
        self.channel = channel
    }

    static func start(_ answer: Answer) async throws -> ImpostorServer {
        let authority = try FixtureCertificateAuthority.generate(hostname: "localhost")
        var tls = try authority.serverTLSConfiguration()
        if case .garbage(offeringHTTP2: false, _) = answer {
            tls.applicationProtocols = []
        } else {
            tls.applicationProtocols = ["h2"]
        }
        let context = try NIOSSLContext(configuration: tls)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    switch answer {
                    case .http2(let status, let contentType, let body):
                        try channel.pipeline.syncOperations.addHandler(
                            HTTP2Answerer(status: status, contentType: contentType, body: body))
                    case .garbage(_, let closing):
                        try channel.pipeline.syncOperations.addHandler(GarbageAnswerer(closing: closing))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let folder = try TemporaryFolder()
        let caFile = folder.url.appendingPathComponent("ca.pem")
        try Data(authority.caCertificatePEM.utf8).write(to: caFile)
        return ImpostorServer(
            port: try #require(channel.localAddress?.port), caFile: caFile, folder: folder, channel: channel)
    }

    func stop() async throws {
        try await channel.close()
    }
}

/// Just enough HTTP/2 (RFC 9113) to answer: its SETTINGS after the client's preface, an acknowledgement of the
/// client's, and for each request once it ends, HEADERS (and DATA when there is a body) on its stream.
private final class HTTP2Answerer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let prefaceLength = 24
    private static let headersType: UInt8 = 0x1
    private static let settingsType: UInt8 = 0x4
    private static let endStream: UInt8 = 0x1
    private static let endHeaders: UInt8 = 0x4
    /// HPACK's static table (RFC 7541, appendix A): the index of each `:status` it holds, and of `content-type`.
    private static let statusIndex: [Int: UInt8] = [200: 8, 204: 9, 206: 10, 304: 11, 400: 12, 404: 13, 500: 14]
    private static let contentTypeIndex: UInt8 = 31

    private let status: Int
    private let contentType: String?
    private let body: [UInt8]
    private var received = ByteBuffer()
    private var prefaceRead = false

    init(status: Int, contentType: String?, body: String) {
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        if !prefaceRead {
            guard received.readableBytes >= Self.prefaceLength else { return }
            received.moveReaderIndex(forwardBy: Self.prefaceLength)
            prefaceRead = true
            write(type: Self.settingsType, flags: 0, stream: 0, payload: [], context: context)
        }
        while let header = received.getBytes(at: received.readerIndex, length: 9) {
            let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
            guard received.readableBytes >= 9 + length else { break }
            received.moveReaderIndex(forwardBy: 9 + length)
            let (type, flags) = (header[3], header[4])
            let stream = UInt32(header[5]) << 24 | UInt32(header[6]) << 16 | UInt32(header[7]) << 8 | UInt32(header[8])
            if type == Self.settingsType, flags & 0x1 == 0 {
                write(type: Self.settingsType, flags: 0x1, stream: 0, payload: [], context: context)
            } else if stream != 0, flags & Self.endStream != 0 {
                answer(stream: stream, context: context)
            }
        }
        context.flush()
    }

    private func answer(stream: UInt32, context: ChannelHandlerContext) {
        // An indexed field for the status, a literal without indexing (indexed name) for the Content-Type.
        var block: [UInt8] = [0x80 | (Self.statusIndex[status] ?? 8)]
        if let contentType {
            block += [0x0F, Self.contentTypeIndex - 15, UInt8(contentType.utf8.count)] + Array(contentType.utf8)
        }
        let headerFlags = Self.endHeaders | (body.isEmpty ? Self.endStream : 0)
        write(type: Self.headersType, flags: headerFlags, stream: stream, payload: block, context: context)
        if !body.isEmpty { write(type: 0x0, flags: Self.endStream, stream: stream, payload: body, context: context) }
    }

    private func write(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8], context: ChannelHandlerContext) {
        var frame = context.channel.allocator.buffer(capacity: 9 + payload.count)
        frame.writeBytes([
            UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF),
        ])
        frame.writeBytes([type, flags])
        frame.writeInteger(stream)
        frame.writeBytes(payload)
        context.write(wrapOutboundOut(frame), promise: nil)
    }
}

/// Answers whatever the client sends with bytes that are no HTTP response of any version, then closes the
/// connection or keeps it.
private final class GarbageAnswerer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let closing: Bool

    init(closing: Bool) {
        self.closing = closing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let garbage = context.channel.allocator.buffer(string: "garbage-garbage-garbage\r\n\r\n")
        context.writeAndFlush(wrapOutboundOut(garbage), promise: nil)
        if closing { context.close(promise: nil) }
    }
}
