public import Foundation
public import RichPushCore

/// One HTTP request to the APNs endpoint, as it arrived: method, path, every header field in order (names in
/// lower case, repeats kept) and the body, read up to ``maxBodyBytes``.
public struct APNsRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [(name: String, value: String)]
    /// The body, or its first bytes when ``bodyIsCut``.
    public var body: [UInt8]
    /// The body went on past ``maxBodyBytes`` and was not read further.
    public var bodyIsCut: Bool

    /// How much of a body is read: one byte more than the largest payload any push type takes (VoIP's) tells
    /// every too-large payload apart without reading, or holding, the rest of it.
    public static let maxBodyBytes = APNsPushType.allCases.map(\.maxPayloadBytes).max()! + 1

    public init(
        method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], bodyIsCut: Bool = false
    ) {
        self.method = method
        self.path = path
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
        self.bodyIsCut = bodyIsCut
    }

    func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
    func value(_ name: String) -> String? { values(name).first }
}

/// The endpoint's verdict on one request.
public enum APNsDecision: Sendable, Equatable {
    /// APNs would accept it: 200, and the payload goes to the device.
    case accepted(APNsAttributes, payload: [UInt8])
    /// APNs would refuse it with `reason`; `timestamp` (milliseconds since 1970) only for `Unregistered`.
    case rejected(APNsAttributes, reason: APNsReason, detail: String, timestamp: Int64?)

    public var attributes: APNsAttributes {
        switch self {
        case .accepted(let attributes, _), .rejected(let attributes, _, _, _): attributes
        }
    }
}

/// Validates requests to `POST /3/device/<token>` as Apple's provider API does, without any networking.
///
/// The checks run in this order, the first failure answering: method and path, device token, repeated headers,
/// provider token, `apns-id`, `apns-push-type`, `apns-priority`, `apns-expiration`, `apns-collapse-id`,
/// `apns-topic`, the payload (too large, empty, not a JSON dictionary), and finally whether the token was
/// unregistered.
public struct APNsRequestValidator: Sendable {
    /// The app the emulated device's tokens belong to; nil accepts any topic that fits the push type.
    public var bundleID: String?
    /// Tokens (hex, any case) answered with 410 Unregistered.
    public var unregisteredTokens: Set<String>
    public var tokenVerifier: ProviderTokenVerifier
    /// The time reported in an `Unregistered` answer: when the tokens stopped being valid (the server's start).
    public var unregisteredSince: Date
    /// Whether the provider token is checked; false only to judge a recorded request again, whose token was never
    /// written (a secret).
    public var checksProviderToken = true

    public static let pathPrefix = "/3/device/"
    /// Device tokens are 32 bytes today; Apple says they may grow, so up to 100 bytes are accepted.
    public static let tokenHexLengths = 64...200
    public static let maxCollapseIDBytes = 64
    /// Headers that may appear once only.
    static let singleHeaders = [
        "apns-id", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-push-type", "apns-topic",
        "authorization",
    ]

    public init(
        bundleID: String? = nil, unregisteredTokens: some Sequence<String> = [],
        tokenVerifier: ProviderTokenVerifier = ProviderTokenVerifier(), unregisteredSince: Date = Date()
    ) {
        self.bundleID = bundleID
        self.unregisteredTokens = Set(unregisteredTokens.map { $0.lowercased() })
        self.tokenVerifier = tokenVerifier
        self.unregisteredSince = unregisteredSince
    }

    /// Whether a path belongs to this endpoint (anything under `/3/`); other paths are someone else's.
    public static func handles(path: String) -> Bool {
        path == "/3" || path.hasPrefix("/3/")
    }

    public func validate(_ request: APNsRequest, now: Date = Date()) -> APNsDecision {
        let requestID = request.value("apns-id")
        let validID = requestID.flatMap { UUID(uuidString: $0) != nil ? $0 : nil }
        var attributes = APNsAttributes(id: validID ?? UUID().uuidString.lowercased())
        func reject(_ reason: APNsReason, _ detail: String) -> APNsDecision {
            .rejected(attributes, reason: reason, detail: detail, timestamp: nil)
        }

        // :path and :method
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard path.hasPrefix(Self.pathPrefix) || path == String(Self.pathPrefix.dropLast()) else {
            return reject(.badPath, "the path is not /3/device/<device token>")
        }
        let token = String(path.dropFirst(min(path.count, Self.pathPrefix.count)))
        attributes.token = token
        guard request.method.uppercased() == "POST" else {
            return reject(.methodNotAllowed, "the method is \(request.method.prefix(16)); APNs takes POST only")
        }
        guard !token.isEmpty else { return reject(.missingDeviceToken, "no device token after /3/device/") }
        guard !token.contains("/") else { return reject(.badPath, "the path has more after the device token") }
        guard token.allSatisfy(\.isHexDigit) else {
            return reject(.badDeviceToken, "the device token is not hexadecimal")
        }
        guard Self.tokenHexLengths.contains(token.count), token.count.isMultiple(of: 2) else {
            return reject(
                .badDeviceToken,
                "the device token has \(token.count) hex digits; device tokens have 64 (32 bytes)")
        }

        // Headers
        for name in Self.singleHeaders where request.values(name).count > 1 {
            return reject(.duplicateHeaders, "\(name) appears \(request.values(name).count) times")
        }
        attributes.topic = request.value("apns-topic")
        attributes.collapseID = request.value("apns-collapse-id")
        attributes.pushType = request.value("apns-push-type")

        if checksProviderToken {
            let accepted: ProviderTokenVerifier.Accepted
            do {
                accepted = try tokenVerifier.check(authorization: request.value("authorization"), now: now)
            } catch {
                return reject(error.reason, error.detail)
            }
            attributes.auth = accepted.summary
        }

        if let requestID, validID == nil {
            return reject(.badMessageId, "apns-id \"\(requestID.prefix(64))\" is not a UUID")
        }

        let pushType: APNsPushType
        if let given = request.value("apns-push-type") {
            guard let known = APNsPushType(rawValue: given) else {
                return reject(.invalidPushType, "apns-push-type \"\(given.prefix(40))\" is not a push type APNs knows")
            }
            pushType = known
        } else {
            pushType = .alert
            attributes.pushType = APNsPushType.alert.rawValue
        }

        if let given = request.value("apns-priority") {
            guard let priority = Int(given), [10, 5, 1].contains(priority) else {
                return reject(.badPriority, "apns-priority \"\(given.prefix(20))\" is not 10, 5 or 1")
            }
            attributes.priority = priority
        } else {
            attributes.priority = pushType == .background ? 5 : 10
        }

        if let given = request.value("apns-expiration") {
            guard !given.isEmpty, given.allSatisfy(\.isASCII), given.allSatisfy(\.isNumber),
                let expiration = Int(given)
            else {
                return reject(
                    .badExpirationDate, "apns-expiration \"\(given.prefix(24))\" is not a UNIX time in seconds")
            }
            attributes.expiration = expiration
        }

        if let collapseID = attributes.collapseID, collapseID.utf8.count > Self.maxCollapseIDBytes {
            return reject(
                .badCollapseId,
                "apns-collapse-id is \(collapseID.utf8.count) bytes; APNs takes at most \(Self.maxCollapseIDBytes)")
        }

        if let refusal = checkTopic(attributes.topic, pushType: pushType) {
            return reject(refusal.reason, refusal.detail)
        }

        // Payload
        if request.bodyIsCut || request.body.count > pushType.maxPayloadBytes {
            let size =
                request.bodyIsCut
                ? "over \(request.body.count - 1) bytes"
                    + (request.value("content-length").map { " (content-length \($0.prefix(20)))" } ?? "")
                : "\(request.body.count) bytes"
            return reject(
                .payloadTooLarge,
                "the payload is \(size); APNs takes at most \(pushType.maxPayloadBytes) for \(pushType.rawValue) pushes"
            )
        }
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return reject(.payloadEmpty, "the request has no payload")
        }

        // Apple documents no reason for a body that is not a JSON dictionary; it carries no notification, so it
        // is answered as an empty payload.
        do {
            let document = try JSONParser.parse(request.body)
            guard case .object = document else {
                return reject(
                    .payloadEmpty,
                    "the payload is \(document.typeName), not a JSON dictionary, so it carries no notification")
            }
        } catch {
            return reject(.payloadEmpty, "the payload is not JSON (\(error)), so it carries no notification")
        }

        if unregisteredTokens.contains(token.lowercased()) {
            let milliseconds = Int64((unregisteredSince.timeIntervalSince1970 * 1000).rounded(.down))
            return .rejected(
                attributes, reason: .unregistered,
                detail: "the device token was given with --unregistered", timestamp: milliseconds)
        }
        return .accepted(attributes, payload: request.body)
    }

    /// The topic against the push type's suffix and the emulated app's bundle ID.
    func checkTopic(_ topic: String?, pushType: APNsPushType) -> (reason: APNsReason, detail: String)? {
        guard let topic, !topic.isEmpty else {
            return (.missingTopic, "no apns-topic; it is required with token-based authentication")
        }
        let allowed = topic.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "." || $0 == "-"
        }
        guard allowed, !topic.hasPrefix("."), !topic.hasSuffix("."), !topic.contains("..") else {
            return (.badTopic, "apns-topic \"\(topic.prefix(64))\" is not a bundle ID")
        }
        guard let expectedSuffix = pushType.topicSuffix else { return nil }
        let (topicBundleID, suffix) = APNsPushType.bundleID(ofTopic: topic)
        if let bundleID, topicBundleID != bundleID {
            return (
                .deviceTokenNotForTopic,
                "the device token belongs to \(bundleID), not to \(topicBundleID.prefix(64))"
            )
        }
        guard suffix == expectedSuffix else {
            let wanted = expectedSuffix.isEmpty ? "the bundle ID itself" : "the bundle ID + \(expectedSuffix)"
            return (
                .topicDisallowed,
                "\(pushType.rawValue) pushes go to \(wanted), not to \(topic.prefix(64))"
            )
        }
        return nil
    }
}
