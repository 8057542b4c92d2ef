import Foundation

/// Firebase Messaging's error domain (`FIRMessagingErrorDomain`, FIRMessaging.m @ 9e31064b).
public let MessagingErrorDomain = "com.google.fcm"

/// An error of Firebase Messaging (`NS_ERROR_ENUM` `FIRMessagingError`), with Firebase's codes (FIRMessaging.h @
/// f62ab711); `catch MessagingError.network` works as with Firebase's.
public struct MessagingError: Error, CustomNSError, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case unknown = 0
        case authentication = 1
        case noAccess = 2
        case timeout = 3
        case network = 4
        case operationInProgress = 5
        case invalidRequest = 7
        case invalidTopicName = 8
    }

    public let code: Code
    /// Why, for people.
    public let reason: String

    public init(_ code: Code, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// What every call that would contact Firebase completes with: no Firebase app runs in an extension here.
    static func notContacted(_ call: String) -> MessagingError {
        MessagingError(.noAccess, "Messaging.\(call): richpush does not contact Firebase from an extension")
    }

    public static var errorDomain: String { MessagingErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
    public var description: String { "MessagingError.\(code)" + (reason.isEmpty ? "" : ": \(reason)") }

    public static var unknown: Code { .unknown }
    public static var authentication: Code { .authentication }
    public static var noAccess: Code { .noAccess }
    public static var timeout: Code { .timeout }
    public static var network: Code { .network }
    public static var operationInProgress: Code { .operationInProgress }
    public static var invalidRequest: Code { .invalidRequest }
    public static var invalidTopicName: Code { .invalidTopicName }
}

/// `catch MessagingError.network`, as with an imported error enum.
public func ~= (code: MessagingError.Code, error: any Error) -> Bool { (error as? MessagingError)?.code == code }
