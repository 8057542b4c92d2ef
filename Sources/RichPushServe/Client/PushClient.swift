import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import RichPushCore
public import RichPushNetwork

/// Which endpoint a payload file goes to.
public enum PushKind: Sendable, Equatable {
    /// An APNs payload (JSON or a simulator `.apns` file, whose `Simulator Target Bundle` is the topic).
    case apns(targetBundle: String?)
    /// An FCM HTTP v1 body (`{"message": …}`).
    case fcm

    /// Reads the kind from the payload; a body that is not a JSON object goes to APNs as it is, to be refused there.
    public init(payload: [UInt8]) {
        guard case .object(let root)? = try? JSONParser.parse(payload) else {
            self = .apns(targetBundle: nil)
            return
        }
        if case .object? = root["message"], root["aps"] == nil {
            self = .fcm
        } else {
            self = .apns(targetBundle: root[PayloadDecoder.simulatorTargetBundleKey]?.stringValue)
        }
    }
}

/// What the endpoint answered.
public struct PushAnswer: Sendable, Equatable {
    public var status: Int
    /// `apns-id` (APNs) or the message name (FCM success).
    public var identifier: String?
    /// Apple's `reason`, or FCM's `errorCode` (else its `status`), for a refusal.
    public var reason: String?
    /// `timestamp` of an `Unregistered` answer.
    public var timestamp: Double?
    /// Why this is not an answer APNs (or FCM) would give, nil when it is one: a 200 without `apns-id`, an error
    /// whose body is not Apple's JSON `{"reason": …}`.
    public var notFromTheService: String?

    public init(
        status: Int, identifier: String? = nil, reason: String? = nil, timestamp: Double? = nil,
        notFromTheService: String? = nil
    ) {
        self.status = status
        self.identifier = identifier
        self.reason = reason
        self.timestamp = timestamp
        self.notFromTheService = notFromTheService
    }

    /// A 200 that APNs (or FCM) would give: something else that answers 200 did not take the push.
    public var accepted: Bool { status == 200 && notFromTheService == nil }
}

/// Why no answer came, told apart by the error's type.
public enum PushFailure: Error, Sendable, Equatable {
    /// Nothing listens at that address and port.
    case refused
    /// The TLS handshake failed: most often because the server's certificate is not signed by a CA the client
    /// trusts.
    case handshakeFailed
    /// The peer sent bytes that are no HTTP/1.1 response, or broke the rules of HTTP/2.
    case notHTTP
    /// The peer closed the connection without an answer: over HTTP/2, also what a peer that breaks its rules from
    /// the start gets (async-http-client closes such a connection and says no more).
    case closedWithoutAnswer
    /// No connection ready for a request within ``PushClient/connectTimeout``: nothing answered, or a peer that
    /// breaks HTTP/2's rules from the start kept the connection open (async-http-client waits for it).
    case timedOut
    /// Anything else, in the HTTP client's words.
    case other(String)

    init(_ error: any Error) {
        if let connection = error as? NIOConnectionError,
            connection.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED })
        {
            self = .refused
        } else if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            self = .refused
        } else if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            self = .handshakeFailed
        } else if error is HTTPParserError || error is any NIOHTTP2Error {
            self = .notHTTP
        } else if let client = error as? HTTPClientError, client == .remoteConnectionClosed {
            self = .closedWithoutAnswer
        } else if let client = error as? HTTPClientError, client == .connectTimeout || client == .tlsHandshakeTimeout {
            self = .timedOut
        } else {
            self = .other(String(describing: error))
        }
    }
}

/// Sends payloads to a running richpush (or any APNs/FCM-shaped endpoint) over HTTP/2, as `richpush push` does.
public final class PushClient: Sendable {
    public let baseURL: String
    /// The longest a connection may take to be ready for a request: TCP, TLS and HTTP/2's start.
    public static let connectTimeout: Duration = .seconds(5)
    private let client: HTTPClient

    /// `baseURL` like `https://127.0.0.1:2197`; `caCertificatePEM` is the only trust root when given.
    public init(baseURL: String, caCertificatePEM: String?) throws {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        var configuration = HTTPClient.Configuration()
        if let caCertificatePEM {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(caCertificatePEM.utf8)))
            configuration.tlsConfiguration = tls
        }
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .init(Self.connectTimeout), read: .seconds(60))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `POST /3/device/<token>` with `headers` (names in lower case) and a `bearer` provider token.
    public func sendAPNs(
        payload: [UInt8], token: String, headers: [(name: String, value: String)], providerToken: String
    ) async throws(PushFailure) -> PushAnswer {
        var request = HTTPClientRequest(url: "\(baseURL)/3/device/\(token)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(providerToken)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: payload))
        let (status, responseHeaders, body) = try await execute(request)
        let json = try? JSONParser.parse(body)
        var answer = PushAnswer(
            status: status, identifier: responseHeaders.first(name: "apns-id"),
            reason: json?["reason"]?.stringValue, timestamp: json?["timestamp"]?.numberValue)
        // APNs names every push it answers with apns-id, and explains every refusal with a JSON reason.
        if status == 200, answer.identifier == nil {
            answer.notFromTheService = "not an APNs answer: a 200 without apns-id, which APNs always sends"
        } else if status != 200, answer.reason == nil {
            answer.notFromTheService =
                "not an APNs answer: the body is not Apple's JSON {\"reason\": …}"
                + Self.shown(body, type: responseHeaders.first(name: "content-type"))
        }
        return answer
    }

    /// `POST /v1/projects/<project>/messages:send` with any OAuth bearer token.
    public func sendFCM(body payload: [UInt8], project: String) async throws(PushFailure) -> PushAnswer {
        var request = HTTPClientRequest(url: "\(baseURL)/v1/projects/\(project)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer richpush-push")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: payload))
        let (status, responseHeaders, body) = try await execute(request)
        let json = try? JSONParser.parse(body)
        let error = json?["error"]
        var reason = error?["status"]?.stringValue
        if case .array(let details)? = error?["details"],
            let code = details.compactMap({ $0["errorCode"]?.stringValue }).first
        {
            reason = code
        }
        var answer = PushAnswer(status: status, identifier: json?["name"]?.stringValue, reason: reason)
        // FCM answers a sent message with its name, and a refusal with Google's JSON error.
        if status == 200, answer.identifier == nil {
            answer.notFromTheService =
                "not an FCM answer: a 200 without the message's name {\"name\": …}, which FCM always sends"
        } else if status != 200, reason == nil {
            answer.notFromTheService =
                "not an FCM answer: the body is not Google's JSON {\"error\": {\"status\": …}}"
                + Self.shown(body, type: responseHeaders.first(name: "content-type"))
        }
        return answer
    }

    /// ` (text/html, 47 bytes: "<html>…")`: what came instead, its first characters on one line.
    private static func shown(_ body: [UInt8], type: String?) -> String {
        guard !body.isEmpty else { return " (an empty body)" }
        let text = TextSanitizer.singleLine(String(decoding: body.prefix(200), as: UTF8.self), limit: 60)
        return " (\(type.map { "\($0), " } ?? "")\(body.count) bytes: \(text.debugDescription))"
    }

    private func execute(_ request: HTTPClientRequest) async throws(PushFailure) -> (Int, HTTPHeaders, [UInt8]) {
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), response.headers, Array(buffer: body))
        } catch {
            throw PushFailure(error)
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}

extension PushClient: StoppedAtShutdown {
    /// The group's shutdown does not wait for the client's (see ``StoppedAtShutdown/shutdownHoldsUpTheGroup``).
    public static var shutdownHoldsUpTheGroup: Bool { false }
}

/// A signing key for provider tokens when no `--auth-key` is given: a new key each run, which an emulator
/// without `--auth-key` accepts (it checks the structure and age only).
extension ProviderTokenSigner {
    public static func throwaway() -> ProviderTokenSigner {
        ProviderTokenSigner(privateKey: P256.Signing.PrivateKey(), keyID: "RICHPUSH00", teamID: "RICHPUSH00")
    }

    /// Reads an `AuthKey_KEYID.p8` file's text.
    public init(p8 pem: String, keyID: String, teamID: String) throws {
        self.init(privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem), keyID: keyID, teamID: teamID)
    }
}
