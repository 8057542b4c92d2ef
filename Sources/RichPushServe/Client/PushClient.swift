import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
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

    public var accepted: Bool { status == 200 }
}

/// Why no answer came, told apart by the error's type.
public enum PushFailure: Error, Sendable, Equatable {
    /// Nothing listens at that address and port.
    case refused
    /// The TLS handshake failed: most often because the server's certificate is not signed by a CA the client
    /// trusts.
    case handshakeFailed
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
        } else {
            self = .other(String(describing: error))
        }
    }
}

/// Sends payloads to a running richpush (or any APNs/FCM-shaped endpoint) over HTTP/2, as `richpush push` does.
public final class PushClient: Sendable {
    public let baseURL: String
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
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(60))
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
        return PushAnswer(
            status: status, identifier: responseHeaders.first(name: "apns-id"),
            reason: json?["reason"]?.stringValue, timestamp: json?["timestamp"]?.numberValue)
    }

    /// `POST /v1/projects/<project>/messages:send` with any OAuth bearer token.
    public func sendFCM(body payload: [UInt8], project: String) async throws(PushFailure) -> PushAnswer {
        var request = HTTPClientRequest(url: "\(baseURL)/v1/projects/\(project)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer richpush-push")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: payload))
        let (status, _, body) = try await execute(request)
        let json = try? JSONParser.parse(body)
        let error = json?["error"]
        var reason = error?["status"]?.stringValue
        if case .array(let details)? = error?["details"],
            let code = details.compactMap({ $0["errorCode"]?.stringValue }).first
        {
            reason = code
        }
        return PushAnswer(status: status, identifier: json?["name"]?.stringValue, reason: reason)
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
