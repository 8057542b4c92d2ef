import Foundation
public import RichPushCore

/// How a notification reached richpush.
public enum Transport: String, Sendable, Codable {
    /// The APNs provider API over HTTP/2.
    case apnsHTTP2
    /// The FCM HTTP v1 API.
    case fcmHTTP
}

/// A request the endpoint refused, as the sender was told: status, reason and a sentence.
public struct EndpointRejection: Sendable, Equatable {
    public var status: Int
    /// Apple's reason (`BadTopic`) or Google's error code (`UNREGISTERED`, `INVALID_ARGUMENT`).
    public var reason: String
    public var detail: String

    public init(status: Int, reason: String, detail: String) {
        self.status = status
        self.reason = reason
        self.detail = detail
    }
}

/// One push that reached the server, accepted (and delivered through the notification system) or refused.
public struct ServedNotification: Sendable, Equatable {
    /// Counts from 1 in the order results completed.
    public var sequence: Int
    public var transport: Transport
    /// The HTTP status the sender got.
    public var status: Int
    public var apns: APNsAttributes
    /// Set when the endpoint refused the request; the payload then never reached the device.
    public var endpointRejection: EndpointRejection?
    /// What the device did with the payload; for a refused request, a result with `delivered: false`.
    public var result: DeliveryResult

    public init(
        sequence: Int = 0, transport: Transport, status: Int, apns: APNsAttributes,
        endpointRejection: EndpointRejection? = nil, result: DeliveryResult
    ) {
        self.sequence = sequence
        self.transport = transport
        self.status = status
        self.apns = apns
        self.endpointRejection = endpointRejection
        self.result = result
    }

    /// The result contract's object, plus `transport`, `status`, `apns` and `sequence`. A refused request's
    /// `rejection` is the endpoint's: `{"reason": "BadTopic", "detail": …, "status": 400}`.
    public var jsonValue: JSONValue {
        guard case .object(var object) = result.jsonValue else { return result.jsonValue }
        if let endpointRejection {
            object["rejection"] = [
                "reason": .string(endpointRejection.reason), "detail": .string(endpointRejection.detail),
                "status": .number(Double(endpointRejection.status)),
            ]
        }
        object["transport"] = .string(transport.rawValue)
        object["status"] = .number(Double(status))
        object["apns"] = apns.jsonValue
        object["sequence"] = .number(Double(sequence))
        return .object(object)
    }

    /// A result for a request the endpoint refused: nothing was delivered, nothing is shown.
    static func refusedResult(file: String, appState: AppState, rejection: EndpointRejection, bytes: Int)
        -> DeliveryResult
    {
        DeliveryResult(
            file: file, appState: appState, delivered: false, style: .silent,
            timeline: [
                TimelineEvent(at: 0, .received, "\(bytes) bytes, app \(appState.rawValue)"),
                TimelineEvent(at: 0, .rejected, "\(rejection.status) \(rejection.reason): \(rejection.detail)"),
            ])
    }
}

extension APNsAttributes {
    /// The contract's `apns` object.
    public var jsonValue: JSONValue {
        func optional(_ string: String?) -> JSONValue { string.map { .string($0) } ?? .null }
        return [
            "id": .string(id), "token": .string(token), "topic": optional(topic), "pushType": optional(pushType),
            "priority": priority.map { .number(Double($0)) } ?? .null,
            "expiration": expiration.map { .number(Double($0)) } ?? .null,
            "collapseID": optional(collapseID), "auth": optional(auth),
        ]
    }
}
