// scripts/bench-serve's second reference: the HTTP/2 server stack richpush is built on (Hummingbird over
// SwiftNIO, TLS with NIOSSL, a certificate from the same throwaway CA code), answering 200 to every request after
// reading its body, with nothing of richpush's own work. It prints `listening on 127.0.0.1:PORT` on standard error
// and serves until it is killed.
import Foundation
import Hummingbird
import HummingbirdHTTP2
import RichPushNetwork

struct AnswerOK: HTTPResponder {
    typealias Context = BasicRequestContext

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        _ = try await request.collectBody(upTo: 64 * 1024)
        return Response(status: .ok)
    }
}

let authority = try FixtureCertificateAuthority.generate(hostname: "localhost", additionalNames: [])
var tls = try authority.serverTLSConfiguration()
tls.applicationProtocols = ["h2", "http/1.1"]
let app = Application(
    responder: AnswerOK(),
    server: try .http2Upgrade(tlsConfiguration: tls),
    configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "bench-h2-server"),
    onServerRunning: { channel in
        FileHandle.standardError.write(Data("listening on 127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
    }
)
try await app.runService()
