/// Where the service extension looks for the image URL: an ordered list of key paths, first string wins.
public struct ImageURLPolicy: Sendable, Equatable {
    public var keyPaths: [PayloadKeyPath]

    /// The default order: `fcm_options.image` (what FCM sends to iOS), then `notification.image`.
    public static let blueprint = ImageURLPolicy(keyPaths: [
        "fcm_options.image", "notification.image",
    ])

    /// Image keys of well-known SDKs and common tutorials (`data.smallImage`, `aps.alert.image`), used only to hint at a missing key path.
    public static let wellKnownKeyPaths: [PayloadKeyPath] = [
        "fcm_options.image", "notification.image", "data.smallImage", "aps.alert.image", "att.id",
        "os_data.att.id", "com.urbanairship.media_attachment.url", "ab.att.url", "ct_mediaUrl",
        "itbl.attachment-url", "CIO.push.image", "com.batch.at.u", "image", "imageUrl", "image_url",
        "data.image", "data.imageUrl", "data.image_url", "media-url", "mediaUrl",
    ]

    public init(keyPaths: [PayloadKeyPath]) {
        self.keyPaths = keyPaths
    }

    /// The default key paths followed by `extra` ones.
    public static func blueprint(adding extra: [PayloadKeyPath]) -> ImageURLPolicy {
        var paths = blueprint.keyPaths
        for path in extra where !paths.contains(path) { paths.append(path) }
        return ImageURLPolicy(keyPaths: paths)
    }

    /// The first key path holding a string, with that string.
    public func resolve(in payload: JSONObject) -> (keyPath: PayloadKeyPath, url: String)? {
        for path in keyPaths {
            if case .string(let url)? = path.value(in: payload) { return (path, url) }
        }
        return nil
    }

    /// When no key path matched, a well-known key that holds an https URL, with the flag that picks it up.
    public func missedImageKey(in payload: JSONObject) -> (keyPath: PayloadKeyPath, url: String)? {
        for path in Self.wellKnownKeyPaths where !keyPaths.contains(path) {
            if case .string(let url)? = path.value(in: payload), url.lowercased().hasPrefix("https://") {
                return (path, url)
            }
        }
        // OneSignal keys its attachments by an id of the sender's choosing.
        for container in ["att", "os_data.att"] as [PayloadKeyPath] {
            if case .object(let attachments)? = container.value(in: payload) {
                for (key, value) in attachments.pairs {
                    if case .string(let url) = value, url.lowercased().hasPrefix("https://") {
                        return (PayloadKeyPath(stringLiteral: "\(container).\(key)"), url)
                    }
                }
            }
        }
        return nil
    }
}
