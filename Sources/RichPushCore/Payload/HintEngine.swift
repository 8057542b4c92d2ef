/// Points out payloads that look like a mistake, in one sentence.
public struct HintEngine: Sendable {
    public var policy: ImageURLPolicy

    public init(policy: ImageURLPolicy) {
        self.policy = policy
    }

    public func hint(
        for request: NotificationRequest, resolvedImage: (keyPath: PayloadKeyPath, url: String)?,
        suggestingImageKeys: Bool = true
    ) -> String? {
        let aps = request.payload["aps"]?.objectValue ?? JSONObject()
        let mutable = aps["mutable-content"]
        if let mutable, !request.mutableContent, mutable != .number(0) {
            let written = JSONWriter.string(mutable)
            return
                "aps.mutable-content is \(written) (\(mutable.typeName)); iOS runs the extension only for the number 1: send \"mutable-content\": 1."
        }
        // A misspelt key first: when it is mutable-content, it is also why the image never shows.
        if let misspelt = Self.misspeltKeys(in: aps) { return misspelt }
        if let mistyped = Self.mistypedValue(in: aps) { return mistyped }
        if let collapseID = request.collapseID, collapseID.utf8.count > 64 {
            return "apns-collapse-id is \(collapseID.utf8.count) bytes; APNs refuses ids over 64 bytes (BadCollapseId)."
        }
        if suggestingImageKeys, resolvedImage == nil, let missed = policy.missedImageKey(in: request.payload) {
            return
                "No image key path matched, but \(missed.keyPath) holds an https URL: add --image-key \(missed.keyPath) to use it."
        }
        if resolvedImage != nil, !request.mutableContent, request.content.hasAlertText {
            if request.source == .fcmV1 {
                return
                    "The message has an image but FCM does not add mutable-content: set apns.payload.aps.mutable-content to 1 or the image never shows."
            }
            return
                "The payload has an image URL but no \"mutable-content\": 1 in aps, so the image never shows."
        }
        return nil
    }

    /// Keys in `aps` that Apple does not define but that are near one it does (``APSKey/suggestion(for:)``), with
    /// the key each most likely meant; a key whose meant key is also present is left alone.
    static func misspeltKeys(in aps: JSONObject) -> String? {
        let misspelt = aps.keys.compactMap { written -> (written: String, meant: String)? in
            guard let meant = APSKey.suggestion(for: written), aps[meant.name] == nil else { return nil }
            return (written, meant.name)
        }
        guard !misspelt.isEmpty else { return nil }
        let written = listed(misspelt.map { "aps.\($0.written)" })
        let meant = listed(misspelt.map { "\"\($0.meant)\"" })
        return misspelt.count == 1
            ? "\(written) is not a key Apple defines, so iOS ignores it: did you mean \(meant)?"
            : "\(written) are not keys Apple defines, so iOS ignores them: did you mean \(meant)?"
    }

    /// The first of Apple's keys in `aps` whose value has a type Apple does not define for it, with the type APNs
    /// expects and, when the value says it plainly, the value to send instead.
    static func mistypedValue(in aps: JSONObject) -> String? {
        for name in aps.keys {
            guard let key = APSKey.named(name), let value = aps[name], !key.accepts(value) else { continue }
            let text = JSONWriter.string(value)
            let shown = text.count <= 40 ? "\(text) (\(value.typeName))" : value.typeName
            if name == "content-available" {
                return
                    "aps.content-available is \(shown); iOS wakes the app for a background update only for the number 1: send \"content-available\": 1."
            }
            let fix = replacement(for: value, as: key).map { ": send \"\(name)\": \($0)" } ?? ""
            return "aps.\(name) is \(shown); APNs expects \(key.expectedType)\(fix)."
        }
        return nil
    }

    /// The value to send instead of `value` when it says plainly what was meant: `"3"` for a number is 3, `true` is
    /// 1, a number for a string is that number in quotes. Nothing for a key of two types (`alert`, `sound`).
    private static func replacement(for value: JSONValue, as key: APSKey) -> String? {
        guard key.types.count == 1 else { return nil }
        switch value {
        case .string(let text) where key.types.contains(.number):
            // Digits as JSON writes a number, not what else Double reads ("nan", "0x1p3").
            guard !text.isEmpty, text.allSatisfy({ "0123456789.-+eE".contains($0) }), let number = Double(text),
                number.isFinite
            else { return nil }
            return JSONWriter.format(number)
        case .bool(let flag) where key.types.contains(.number):
            return flag ? "1" : "0"
        case .number where key.types.contains(.string):
            return JSONWriter.string(.string(JSONWriter.string(value)))
        default:
            return nil
        }
    }

    /// "a", "a and b", "a, b and c".
    private static func listed(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// What a person sees when the attachment was accepted but its pixels do not decode (`sentence` says why).
    public static func undecodedImage(_ sentence: String) -> String {
        "The image was attached but cannot be drawn: \(sentence). Expect the notification's text with a blank or missing picture; serve a complete image of a sensible size."
    }
}

extension HintEngine {
    /// What joins a download's status and the fixture CDN's reason for refusing the URL's faults in a failure's
    /// detail: `HTTP 400 Bad Request from the fixture CDN: bad fault dealy=6s: …`.
    public static let fixtureRefusalMarker = " from the fixture CDN: "

    /// The fixture CDN's reason for refusing the image URL, when the fallback's detail carries one: the hint says it
    /// whole, where replay's line cuts a long detail short.
    public static func hint(for fallback: Fallback?) -> String? {
        guard let fallback, fallback.reason == .httpStatus,
            let marker = fallback.detail.firstRange(of: fixtureRefusalMarker)
        else { return nil }
        return "The fixture CDN refused the image URL: \(fallback.detail[marker.upperBound...])"
    }
}
