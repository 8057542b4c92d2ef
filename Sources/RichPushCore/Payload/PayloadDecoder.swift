/// Turns the bytes of a payload file into the ``NotificationRequest`` the device would receive,
/// or into the rejection APNs or the simulator would answer with.
public struct PayloadDecoder: Sendable {
    /// APNs refuses payloads over 4096 bytes.
    public static let maxPayloadBytes = 4096
    /// Payload files larger than this are refused unread: APNs carries 4 KB (an FCM envelope a little
    /// more), and a stray video in a payload folder must not be loaded.
    public static let maxFileBytes = 64 * 1024

    /// `*.json` and `*.apns` files are payloads; `*.expect.json` files are replay expectations.
    public static func isPayloadFile(named name: String) -> Bool {
        let lower = name.lowercased()
        // `NAME.expect.json` is an expectation, `NAME.categories.json` an app's categories (`given.categories`).
        return (lower.hasSuffix(".json") || lower.hasSuffix(".apns")) && !lower.hasSuffix(".expect.json")
            && !lower.hasSuffix(".categories.json")
    }

    /// The key Xcode's simulator files use to name the target app.
    public static let simulatorTargetBundleKey = "Simulator Target Bundle"

    public init() {}

    public func decode(_ bytes: some Collection<UInt8>) throws(PayloadRejection)
        -> NotificationRequest
    {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw PayloadRejection(.malformedJSON, "not valid JSON at \(error)")
        }
        guard case .object(var root) = document else {
            throw PayloadRejection(.notAnObject, "the payload is \(document.typeName), not a JSON object")
        }

        var source = NotificationRequest.Source.apns
        var collapseID: String?
        if case .object(let message)? = root["message"], root["aps"] == nil {
            source = .fcmV1
            collapseID = message["apns"]?["headers"]?["apns-collapse-id"]?.stringValue
            root = FCMTranslator.apnsPayload(for: message)
        }

        var targetBundle: String?
        if let bundle = root[Self.simulatorTargetBundleKey] {
            source = .simulator
            targetBundle = bundle.stringValue
            root[Self.simulatorTargetBundleKey] = nil
        }

        // The limit applies to what APNs carries: the simulator key is not sent, FCM's envelope is translated away.
        let size = JSONWriter.string(.object(root)).utf8.count
        if size > Self.maxPayloadBytes {
            throw PayloadRejection(
                .payloadTooLarge,
                "the APNs payload is \(size) bytes; APNs accepts at most \(Self.maxPayloadBytes)")
        }

        guard let apsValue = root["aps"] else {
            let hint =
                source == .fcmV1
                ? "the FCM message has neither a notification nor an apns payload" : "no \"aps\" key"
            throw PayloadRejection(.missingAps, hint)
        }
        guard case .object(let aps) = apsValue else {
            throw PayloadRejection(.missingAps, "\"aps\" is \(apsValue.typeName), not a dictionary")
        }

        var userInfo = root
        userInfo["aps"] = nil

        return NotificationRequest(
            source: source,
            content: Self.content(of: aps["alert"]),
            mutableContent: aps["mutable-content"].map(Self.isOne) ?? false,
            contentAvailable: aps["content-available"].map(Self.isOne) ?? false,
            badge: aps["badge"]?.numberValue.flatMap { Int(exactly: $0) },
            sound: Self.soundName(aps["sound"]),
            threadID: aps["thread-id"]?.stringValue,
            category: aps["category"]?.stringValue,
            interruptionLevel: aps["interruption-level"]?.stringValue,
            relevanceScore: aps["relevance-score"]?.numberValue,
            targetContentID: aps["target-content-id"]?.stringValue,
            targetBundle: targetBundle,
            collapseID: collapseID,
            userInfo: userInfo,
            payloadBytes: size,
            payload: root
        )
    }

    /// Only the number 1 counts. `true` and `"1"` do not: APNs documents the flag as the number 1, and a
    /// payload that relies on a lenient parse is a bug waiting to happen on another SDK or OS version.
    /// The hint engine points such payloads out instead of silently accepting them.
    static func isOne(_ value: JSONValue) -> Bool {
        value == .number(1)
    }

    static func content(of alert: JSONValue?) -> NotificationContent {
        switch alert {
        case .string(let body)?:
            return NotificationContent(body: body)
        case .object(let alert)?:
            return NotificationContent(
                title: text(alert, literal: "title", locKey: "title-loc-key", locArgs: "title-loc-args"),
                subtitle: text(
                    alert, literal: "subtitle", locKey: "subtitle-loc-key", locArgs: "subtitle-loc-args"),
                body: text(alert, literal: "body", locKey: "loc-key", locArgs: "loc-args")
            )
        default:
            return NotificationContent()
        }
    }

    /// Literal text wins; otherwise the localisation key is shown with its arguments, as there is no
    /// app bundle to look the key up in.
    private static func text(_ alert: JSONObject, literal: String, locKey: String, locArgs: String)
        -> String
    {
        if let text = alert[literal]?.stringValue, !text.isEmpty { return text }
        guard let key = alert[locKey]?.stringValue, !key.isEmpty else { return "" }
        guard case .array(let args)? = alert[locArgs], !args.isEmpty else { return key }
        let rendered = args.map { arg -> String in
            switch arg {
            case .string(let string): string
            case .number(let number): JSONWriter.format(number)
            default: JSONWriter.string(arg)
            }
        }
        return "\(key)(\(rendered.joined(separator: ", ")))"
    }

    /// `aps.sound` as the extension's content has it: a name (`default`: the system's sound), or the critical alert's
    /// dictionary `{critical, name, volume}`, whose volume counts only when it is critical.
    /// https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification
    static func sound(_ sound: JSONValue?) -> HostSound? {
        switch sound {
        case .string(let name)?:
            return HostSound(name: name == "default" ? nil : name)
        case .object(let dictionary)?:
            let critical: Bool =
                switch dictionary["critical"] {
                case .number(let value)?: value == 1
                case .bool(let value)?: value
                default: false
                }
            return HostSound(
                name: dictionary["name"]?.stringValue.flatMap { $0 == "default" ? nil : $0 }, critical: critical,
                volume: critical ? dictionary["volume"]?.numberValue : nil)
        default:
            return nil
        }
    }

    private static func soundName(_ sound: JSONValue?) -> String? {
        switch sound {
        case .string(let name)?: name
        case .object(let dictionary)?: dictionary["name"]?.stringValue ?? "critical"
        default: nil
        }
    }
}
