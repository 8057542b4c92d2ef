/// Translates an FCM HTTP v1 `message` into the APNs payload an iPhone receives from FCM.
public enum FCMTranslator {
    public static func apnsPayload(for message: JSONObject) -> JSONObject {
        let apns = message["apns"]?.objectValue ?? JSONObject()
        var payload = apns["payload"]?.objectValue ?? JSONObject()
        let notification = message["notification"]?.objectValue

        // `data` entries become top-level keys; the apns payload keeps precedence over them.
        if case .object(let data)? = message["data"] {
            for (key, value) in data.pairs where payload[key] == nil {
                payload[key] = value
            }
        }

        var aps = payload["aps"]?.objectValue
        if let notification, aps?["alert"] == nil {
            var alert = JSONObject()
            if let title = notification["title"] { alert["title"] = title }
            if let body = notification["body"] { alert["body"] = body }
            if !alert.isEmpty {
                var updated = aps ?? JSONObject()
                updated["alert"] = .object(alert)
                aps = updated
            }
        }
        if let aps { payload["aps"] = .object(aps) }

        // FCM delivers the image as fcm_options.image. It does not add mutable-content: without it
        // the extension never runs, a real pitfall QA must see.
        let image = apns["fcm_options"]?["image"] ?? notification?["image"]
        if let image {
            var options = payload["fcm_options"]?.objectValue ?? JSONObject()
            options["image"] = image
            payload["fcm_options"] = .object(options)
        }
        return payload
    }
}
