import Foundation
public import RichPushCore

/// Turns a recorded push into the two files replay reads: the payload (the APNs body as received, or the FCM
/// message) and its `NAME.expect.json` (`given`: what replay needs to deliver it the same way; `expect`: what
/// happened). Pure: no files, no clock.
public struct RecordedPayload: Sendable, Equatable {
    public var payload: [UInt8]
    public var expectation: JSONValue
    /// Whether it goes under `rejected/`.
    public var isRejection: Bool

    /// How the recorder was asked to write.
    public struct Settings: Sendable, Equatable {
        /// Write device and registration tokens as sent (`--record-tokens`) instead of ``TokenHash``.
        public var keepsTokens: Bool
        /// The team's extension in use, as `given.extension` names it from the recording's folder.
        public var extensionFolder: String?
        /// The recording folder's salt for ``TokenHash`` (``RecordingSalt``); a new one unless given.
        public var tokenSalt: [UInt8]
        /// The delivery settings the run was started with (`--image-key`, `--download-timeout`, …), as `given`
        /// keys (``DeliveryOverrides/deliveryGiven``): every delivered push is written with them, so it replays as it
        /// was delivered.
        public var given: JSONObject

        public init(
            keepsTokens: Bool = false, extensionFolder: String? = nil, tokenSalt: [UInt8] = TokenHash.newSalt(),
            given: JSONObject = [:]
        ) {
            self.keepsTokens = keepsTokens
            self.extensionFolder = extensionFolder
            self.tokenSalt = tokenSalt
            self.given = given
        }
    }

    /// A saved copy of the push's image (`--record-images`): the URL the payload now names, and the folder
    /// `given.fixtures` points at, relative to the payload file.
    public struct SavedImage: Sendable, Equatable {
        public var url: String
        public var fixtures: String

        public init(url: String, fixtures: String) {
            self.url = url
            self.fixtures = fixtures
        }
    }

    public init(_ push: RecordedPush, settings: Settings, savedImage: SavedImage? = nil) {
        let token = { (text: String) in
            settings.keepsTokens ? text : TokenHash.replacing(text, salt: settings.tokenSalt)
        }
        var given = push.given
        given["appState"] = .string(push.appState.rawValue)
        let recordedAt = RecordingName.isoTime(push.receivedAt)
        switch push.outcome {
        case .refused(let rejection):
            isRejection = true
            payload = Self.body(
                push.body, transport: push.transport, keepsTokens: settings.keepsTokens, token: token, imageURL: nil,
                savedImage: nil)
            let path =
                settings.keepsTokens
                ? push.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
                : TokenHash.path(push.path, salt: settings.tokenSalt)
            let request = RecordedRequest(
                endpoint: push.transport == .fcmHTTP ? .fcm : .apns, method: push.method, path: path,
                headers: push.headers, unregistered: push.unregistered, bundleID: push.bundleID,
                offline: Self.offlineReason(rejection, transport: push.transport))
            given["request"] = request.jsonValue
            given["recorded"] = DeliveryOverrides.Recorded(at: recordedAt).jsonValue
            expectation = ["given": .object(given), "expect": ["rejected": .string(rejection.reason)]]
        case .delivered(let result):
            isRejection = false
            payload = Self.body(
                push.body, transport: push.transport, keepsTokens: settings.keepsTokens, token: token,
                imageURL: result.imageURL, savedImage: savedImage)
            // The run's settings, then the payload's own (a library file's), then what this delivery used.
            var run = settings.given
            if case .array(let runKeys)? = run["imageKeys"], case .array(let ownKeys)? = given["imageKeys"] {
                run["imageKeys"] = .array(runKeys + ownKeys.filter { !runKeys.contains($0) })
            }
            for (key, value) in given.pairs where key != "imageKeys" || run["imageKeys"] == nil { run[key] = value }
            given = run
            given["sdk"] = .string(result.sdk)
            if case .custom? = result.extensionIdentity?.kind, let folder = settings.extensionFolder {
                given["extension"] = .string(folder)
            }
            // An FCM message carries its APNs headers in its own `apns.headers`, which replay reads from the file.
            if push.transport != .fcmHTTP {
                let headers = PushHeaders(push.attributes)
                if !headers.isEmpty { given["headers"] = headers.jsonValue }
            }
            if let savedImage { given["fixtures"] = .string(savedImage.fixtures) }
            let imageHost =
                savedImage == nil ? result.imageURL.flatMap { URL(string: $0)?.host?.lowercased() } : nil
            given["recorded"] =
                DeliveryOverrides.Recorded(
                    at: recordedAt, imageHost: imageHost == "fixtures.richpush.test" ? nil : imageHost
                ).jsonValue
            expectation = ["given": .object(given), "expect": .object(Self.expect(result))]
        }
    }

    /// What happened, as much as tells a changed outcome apart: whether it was shown, how, the attachment's
    /// format and size, and why an image is missing.
    static func expect(_ result: DeliveryResult) -> JSONObject {
        var expect: JSONObject = ["delivered": .bool(result.delivered), "style": .string(result.style.rawValue)]
        if let rejection = result.rejection {
            expect["rejection"] = ["reason": .string(rejection.reason.rawValue)]
            return expect
        }
        expect["attachment"] =
            result.attachment.map { ["format": .string($0.format.rawValue), "bytes": .number(Double($0.bytes))] }
            ?? .null
        expect["fallback"] = result.fallback.map { ["reason": .string($0.reason.rawValue)] } ?? .null
        if let collapseID = result.collapseID { expect["collapseID"] = .string(collapseID) }
        return expect
    }

    /// A refusal replay cannot judge again offline, and why; nil for the others.
    static func offlineReason(_ rejection: EndpointRejection, transport: DeliveryTransport) -> String? {
        let tokenReasons = ["ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken", "UNAUTHENTICATED"]
        guard tokenReasons.contains(rejection.reason) else { return nil }
        return "the provider token is a secret and is never recorded, so a \(rejection.status) \(rejection.reason) "
            + "cannot be judged again offline"
    }

    /// The body to write: as received (an APNs body byte for byte), unless a token or a saved image's URL in it
    /// must change, when it is written again as JSON in its key order. An FCM body has the string value of every
    /// `token` and `fid` key replaced, at any depth; one that is not JSON (cut at the size limit, or broken) keeps
    /// its bytes but for those values.
    static func body(
        _ body: [UInt8], transport: DeliveryTransport, keepsTokens: Bool, token: (String) -> String,
        imageURL: String?, savedImage: SavedImage?
    ) -> [UInt8] {
        let rewritesToken = transport == .fcmHTTP && !keepsTokens
        let rewritesImage = savedImage != nil && imageURL != nil
        guard rewritesToken || rewritesImage else { return body }
        guard var document = try? JSONParser.parse(body) else {
            return rewritesToken ? redactingTokens(in: body, token: token) : body
        }
        // Wherever it is: a refused body may put the token beside `message`, or in another shape altogether.
        if rewritesToken { document = replacingTokens(in: document, token: token) }
        if let savedImage, let imageURL {
            document = replacing(imageURL, with: savedImage.url, in: document)
        }
        return Array(JSONWriter.string(document).utf8)
    }

    /// The keys whose string values are registration tokens in an FCM body.
    static let tokenKeys: Set<String> = ["token", "fid"]

    /// `body` with the string value of every `"token"` or `"fid"` key replaced by `token(value)`, found in the bytes
    /// without parsing: every `"` is tried as the start of a key (escapes in the key decoded), whatever came before
    /// it, so a stray quote earlier in a broken body cannot hide one; a value cut off by the end of the body is
    /// replaced to the end.
    public static func redactingTokens(in body: [UInt8], token: (String) -> String) -> [UInt8] {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        /// The index of the quote that ends the string opened at `start`, or `body.count` when it does not end.
        func end(ofStringAt start: Int, limit: Int = .max) -> Int {
            var index = start + 1
            while index < body.count, index - start <= limit {
                if body[index] == backslash {
                    index += 2
                    continue
                }
                if body[index] == quote { return index }
                index += 1
            }
            return body.count
        }
        var written: [UInt8] = []
        written.reserveCapacity(body.count)
        var copied = 0
        var index = 0
        while index < body.count {
            defer { index += 1 }
            guard body[index] == quote else { continue }
            // A key is short: "token" with every letter escaped is 32 bytes.
            let keyEnd = end(ofStringAt: index, limit: 40)
            guard keyEnd < body.count,
                let key = (try? JSONParser.parse(body[index...keyEnd]))?.stringValue, tokenKeys.contains(key)
            else { continue }
            var next = keyEnd + 1
            while next < body.count, spaces.contains(body[next]) { next += 1 }
            guard next < body.count, body[next] == colon else { continue }
            next += 1
            while next < body.count, spaces.contains(body[next]) { next += 1 }
            guard next < body.count, body[next] == quote else { continue }
            let valueEnd = end(ofStringAt: next)
            let raw = body[next..<min(valueEnd + 1, body.count)]
            let value =
                (try? JSONParser.parse(raw))?.stringValue ?? String(decoding: raw.dropFirst(), as: UTF8.self)
            written += body[copied..<next]
            written += Array(JSONWriter.string(.string(token(value))).utf8)
            copied = min(valueEnd + 1, body.count)
            index = copied - 1
        }
        written += body[copied...]
        return written
    }

    /// `value` with the string value of every `token` or `fid` key, at any depth, replaced by `token(value)`.
    static func replacingTokens(in value: JSONValue, token: (String) -> String) -> JSONValue {
        switch value {
        case .array(let items): .array(items.map { replacingTokens(in: $0, token: token) })
        case .object(let object):
            .object(
                JSONObject(
                    object.pairs.map { pair in
                        if tokenKeys.contains(pair.key), let text = pair.value.stringValue {
                            return (pair.key, .string(token(text)))
                        }
                        return (pair.key, replacingTokens(in: pair.value, token: token))
                    }))
        default: value
        }
    }

    /// `value` with every string equal to `old` replaced by `new`.
    static func replacing(_ old: String, with new: String, in value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text == old: .string(new)
        case .array(let items): .array(items.map { replacing(old, with: new, in: $0) })
        case .object(let object):
            .object(JSONObject(object.pairs.map { ($0.key, replacing(old, with: new, in: $0.value)) }))
        default: value
        }
    }

    /// The expectation file's bytes, indented, ending in a newline.
    public var expectationBytes: [UInt8] { Array((JSONWriter.string(expectation, pretty: true) + "\n").utf8) }
}
