import Foundation
public import RichPushCore

/// An FCM HTTP v1 error as Google answers it: HTTP status, canonical status name and, for FCM's own errors, the
/// `FcmError` code.
public struct FCMError: Sendable, Equatable, Error {
    public var httpStatus: Int
    /// `INVALID_ARGUMENT`, `NOT_FOUND`, `UNAUTHENTICATED`.
    public var status: String
    public var message: String
    /// `INVALID_ARGUMENT`, `UNREGISTERED`; nil for errors that are not FCM's (authentication).
    public var errorCode: String?

    public static func invalidArgument(_ message: String) -> FCMError {
        FCMError(httpStatus: 400, status: "INVALID_ARGUMENT", message: message, errorCode: "INVALID_ARGUMENT")
    }

    /// `{"error": {"code", "message", "status", "details": [{"@type": …FcmError, "errorCode"}]}}`.
    public var jsonValue: JSONValue {
        var error: JSONObject = [
            "code": .number(Double(httpStatus)), "message": .string(message), "status": .string(status),
        ]
        if let errorCode {
            error["details"] = [
                [
                    "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                    "errorCode": .string(errorCode),
                ]
            ]
        }
        return ["error": .object(error)]
    }
}

/// What an FCM request names: its project and target, and the APNs headers of its `apns` block.
public struct FCMMessageInfo: Sendable, Equatable {
    public var project: String
    /// The registration token or Firebase Installation ID the message is for.
    public var token: String?
    public var topic: String?
    public var condition: String?
    public var validateOnly: Bool
    public var apnsHeaders: [String: String]
}

/// Validates `POST /v1/projects/{project}/messages:send` as FCM does, without any networking.
public struct FCMRequestValidator: Sendable {
    /// Registration tokens answered with 404 UNREGISTERED.
    public var unregisteredTokens: Set<String>

    public init(unregisteredTokens: some Sequence<String> = []) {
        self.unregisteredTokens = Set(unregisteredTokens)
    }

    public static func handles(path: String) -> Bool { path.hasPrefix("/v1/") }

    /// The project in `/v1/projects/{project}/messages:send`, or nil.
    public static func project(inPath path: String) -> String? {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let prefix = "/v1/projects/"
        let suffix = "/messages:send"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else {
            return nil
        }
        let project = path.dropFirst(prefix.count).dropLast(suffix.count)
        return project.contains("/") ? nil : String(project)
    }

    public func validate(method: String, path: String, authorization: String?, body: [UInt8]) -> Result<
        FCMMessageInfo, FCMError
    > {
        guard let project = Self.project(inPath: path) else {
            return .failure(
                FCMError(
                    httpStatus: 404, status: "NOT_FOUND",
                    message: "The requested URL was not found; use POST /v1/projects/{project}/messages:send.",
                    errorCode: nil))
        }
        guard method.uppercased() == "POST" else {
            return .failure(
                FCMError(
                    httpStatus: 405, status: "METHOD_NOT_ALLOWED", message: "Only POST is supported.", errorCode: nil))
        }
        guard let authorization, authorization.lowercased().hasPrefix("bearer "),
            !authorization.dropFirst(7).trimmingCharacters(in: .whitespaces).isEmpty
        else {
            return .failure(
                FCMError(
                    httpStatus: 401, status: "UNAUTHENTICATED",
                    message:
                        "Request is missing required authentication credential. Expected OAuth 2 access token (authorization: Bearer …).",
                    errorCode: nil))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            return .failure(.invalidArgument("Invalid JSON payload received at \(error)."))
        }
        guard case .object(let root) = document else {
            return .failure(.invalidArgument("Invalid JSON payload received: the body is not an object."))
        }
        guard case .object(let message)? = root["message"] else {
            return .failure(.invalidArgument("Invalid JSON payload received: no \"message\" object."))
        }
        var validateOnly = false
        if let flag = root["validate_only"] {
            guard case .bool(let value) = flag else {
                return .failure(.invalidArgument("validate_only must be a boolean."))
            }
            validateOnly = value
        }
        // A Firebase Installation ID (`fid`) addresses one app instance, as a registration token does (the token's
        // replacement in firebase-admin 7).
        let targets = ["token", "fid", "topic", "condition"].filter { message[$0] != nil }
        guard targets.count == 1 else {
            return .failure(
                .invalidArgument(
                    targets.isEmpty
                        ? "Request contains an invalid argument: the message has no fid, token, topic or condition."
                        : "Request contains an invalid argument: the message has more than one of fid, token, topic and condition."
                ))
        }
        guard let target = message[targets[0]]?.stringValue, !target.isEmpty else {
            return .failure(.invalidArgument("Request contains an invalid argument: \(targets[0]) is not a string."))
        }
        do {
            _ = try PayloadDecoder().decode(body)
        } catch {
            switch error.reason {
            case .payloadTooLarge:
                return .failure(.invalidArgument("Request contains an invalid argument: \(error.detail)."))
            case .malformedJSON, .notAnObject:
                return .failure(.invalidArgument("Invalid JSON payload received: \(error.detail)."))
            case .missingAps:
                // A data-only message is valid FCM; the device shows nothing, and the result says why.
                break
            }
        }
        var headers: [String: String] = [:]
        if case .object(let apnsHeaders)? = message["apns"]?["headers"] {
            for (name, value) in apnsHeaders.pairs {
                if let text = value.stringValue { headers[name.lowercased()] = text }
            }
        }
        let info = FCMMessageInfo(
            project: project, token: (message["token"] ?? message["fid"])?.stringValue,
            topic: message["topic"]?.stringValue,
            condition: message["condition"]?.stringValue, validateOnly: validateOnly, apnsHeaders: headers)
        if let token = info.token, unregisteredTokens.contains(token) {
            return .failure(
                FCMError(
                    httpStatus: 404, status: "NOT_FOUND", message: "Requested entity was not found.",
                    errorCode: "UNREGISTERED"))
        }
        return .success(info)
    }
}
