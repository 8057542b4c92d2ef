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
        let mutable = request.payload["aps"]?["mutable-content"]
        if let mutable, !request.mutableContent, mutable != .number(0) {
            let written = JSONWriter.string(mutable)
            return
                "aps.mutable-content is \(written) (\(mutable.typeName)); iOS runs the extension only for the number 1: send \"mutable-content\": 1."
        }
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

    /// What a person sees when the attachment was accepted but its pixels do not decode (`sentence` says why).
    public static func undecodedImage(_ sentence: String) -> String {
        "The image was attached but cannot be drawn: \(sentence). Expect the notification's text with a blank or missing picture; serve a complete image of a sensible size."
    }
}
