import Foundation

/// What an extension's naming rule makes of a downloaded image: the file name it gives the attachment and the
/// type hint it passes to iOS, or why it attaches nothing.
struct AttachmentName: Sendable, Equatable {
    /// The attachment file's new last path component, in the download's directory.
    var fileName: String
    /// `UNNotificationAttachmentOptionsTypeHintKey`, when the extension passes one.
    var typeHint: String?
}

/// A step of the extension that either gives a value or ends with a fallback (which is not an `Error`).
enum Attempt<Value: Sendable>: Sendable {
    case success(Value)
    case failure(Fallback)

    var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    var fallback: Fallback? {
        if case .failure(let fallback) = self { return fallback }
        return nil
    }
}

extension SDKProfile.NamingRule {
    /// Names `image`, fetched from `url` for an extension called `who`; `type` is the type the payload gave.
    func name(_ image: DownloadedImage, url: URL, type: String?, who: String) -> Attempt<AttachmentName> {
        let stem = image.file.deletingPathExtension().lastPathComponent
        let mediaType = image.servedContentType.map(MediaType.of)
        switch self {
        case .sniffedFormat:
            return .success(AttachmentName(fileName: image.file.lastPathComponent))
        case .suggestedFilename(let shape):
            let suggested = AttachmentNaming.suggestedFilename(url: url, mediaType: mediaType)
            switch shape {
            case .extensionOnly:
                return .success(
                    AttachmentName(fileName: "\(stem).\(AttachmentNaming.fileExtension(of: suggested))"))
            case .whole(let separator):
                return .success(AttachmentName(fileName: "\(stem)\(separator)\(suggested)"))
            }
        case .oneSignal:
            guard let fileExtension = AttachmentNaming.oneSignalExtension(url: url, mediaType: mediaType) else {
                let written = AttachmentNaming.fileExtension(of: url.lastPathComponent)
                return .failure(
                    Fallback(
                        .unsupportedImageType,
                        "\(who) found no supported file extension (no filename= query item, MIME type \(mediaType ?? "none") not in its map, URL extension \"\(AttachmentNaming.sanitized(written))\"), so it attaches nothing; it attaches \(AttachmentNaming.oneSignalSupported.joined(separator: ", ")) only"
                    ))
            }
            return .success(AttachmentName(fileName: "\(stem).\(fileExtension)"))
        case .airship:
            let name = "\(stem)-\(AttachmentNaming.sanitized(AttachmentNaming.lastComponent(of: url)))"
            let hasExtension = AttachmentNaming.airshipSupported.contains { name.lowercased().hasSuffix($0) }
            if hasExtension { return .success(AttachmentName(fileName: name)) }
            let hint = AttachmentNaming.airshipHint(mediaType: mediaType) ?? AttachmentNaming.magicHint(image.file)
            return .success(AttachmentName(fileName: name, typeHint: hint))
        case .payloadType(let map):
            let given = type ?? ""
            return .success(AttachmentName(fileName: "\(stem).\(AttachmentNaming.sanitized(map[given] ?? given))"))
        case .payloadTypeHint:
            return .success(AttachmentName(fileName: stem, typeHint: type))
        }
    }
}

/// The pieces the naming rules share: Apple's suggested file name, the vendors' extension lists and maps, the
/// magic bytes Airship looks for.
enum AttachmentNaming {
    /// The extension of a file name: what follows its last dot, empty when there is none (or only a leading one).
    static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// A name from a payload made safe for a file name and a terminal: letters, digits, `.`, `-` and `_` only,
    /// at most 100 characters (the end is kept, with its extension).
    static func sanitized(_ name: String) -> String {
        let safe = String(
            name.unicodeScalars.map { scalar -> Character in
                let allowed =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "." || scalar == "-" || scalar == "_"
                return allowed ? Character(scalar) : "_"
            })
        return safe.count > 100 ? String(safe.suffix(100)) : safe
    }

    /// The URL's last path component, or its host when the path has none.
    static func lastComponent(of url: URL) -> String {
        let last = url.lastPathComponent
        if !last.isEmpty, last != "/" { return last }
        return url.host ?? "unknown"
    }

    /// The extension Apple's type system prefers for a MIME type, for the types a notification can show and a
    /// few it cannot.
    static let preferredExtension: [String: String] = [
        "image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/heic": "heic",
        "image/bmp": "bmp", "image/tiff": "tiff", "image/svg+xml": "svg", "text/html": "html", "text/plain": "txt",
    ]

    /// `URLResponse.suggestedFilename` as richpush models it: the URL's last path component (the fixture CDN sends
    /// no Content-Disposition), with the MIME type's extension appended when the component has none.
    static func suggestedFilename(url: URL, mediaType: String?) -> String {
        var name = sanitized(lastComponent(of: url))
        if fileExtension(of: name).isEmpty, let mediaType, let preferred = preferredExtension[mediaType] {
            name += ".\(preferred)"
        }
        return name
    }

    /// OneSignal's `ONESIGNAL_SUPPORTED_ATTACHMENT_TYPES` (OneSignalCommonDefines.h).
    static let oneSignalSupported = [
        "aiff", "wav", "mp3", "mp4", "jpg", "jpeg", "png", "gif", "mpeg", "mpg", "avi", "m4a", "m4v",
    ]

    /// OneSignal's `MIME_MAP` (NSString+OneSignal.m).
    static let oneSignalMIMEMap: [String: String] = [
        "audio/aiff": "aiff", "audio/x-wav": "wav", "audio/mpeg": "mp3", "video/mp4": "mp4", "image/jpeg": "jpeg",
        "image/jpg": "jpg", "image/png": "png", "image/gif": "gif", "video/mpeg": "mpeg", "video/mpg": "mpg",
        "video/avi": "avi", "sound/m4a": "m4a", "video/m4v": "m4v",
    ]

    /// OneSignal's `supportedFileExtension`: the last dot-separated component when there are two or more and it is
    /// supported (case-sensitive, as `containsObject:` is).
    static func oneSignalSupportedExtension(of text: String) -> String? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, let last = components.last, oneSignalSupported.contains(String(last)) else {
            return nil
        }
        return String(last)
    }

    /// OneSignal's `getSupportedFileExtensionFromURL:mimeType:`: the `filename` query item, the MIME type, the URL's
    /// extension, then any query item.
    static func oneSignalExtension(url: URL, mediaType: String?) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        if let filename = items.first(where: { $0.name == "filename" })?.value,
            let found = oneSignalSupportedExtension(of: filename)
        {
            return found
        }
        if let mediaType, let mapped = oneSignalMIMEMap[mediaType], oneSignalSupported.contains(mapped) {
            return mapped
        }
        let pathExtension = fileExtension(of: url.lastPathComponent)
        if oneSignalSupported.contains(pathExtension) { return pathExtension }
        for item in items {
            if let value = item.value, let found = oneSignalSupportedExtension(of: value) { return found }
        }
        return nil
    }

    /// Airship's `supportedExtensions` (AirshipNotificationMutationProvider.swift).
    static let airshipSupported = [
        "jpg", "jpeg", "png", "gif", "aif", "aiff", "mp3", "mpg", "mpeg", "mp4", "m4a", "wav", "avi",
    ]

    /// Airship's type hint from the MIME type: the type's UTI when its preferred extension is supported.
    static func airshipHint(mediaType: String?) -> String? {
        guard let mediaType, let preferred = preferredExtension[mediaType], airshipSupported.contains(preferred)
        else { return nil }
        return uniformType(forExtension: preferred)
    }

    /// Airship's `FileHeader.supportedHeaders` for images: JPEG `FF D8 FF` then `E0`, `E2` or `E3`, PNG's
    /// signature, `GIF8`.
    static func magicHint(_ file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        if head.count >= 4, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF, [0xE0, 0xE2, 0xE3].contains(head[3]) {
            return "public.jpeg"
        }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return "public.png" }
        if head.count >= 4, head[0..<4] == [0x47, 0x49, 0x46, 0x38] { return "com.compuserve.gif" }
        return nil
    }

    /// The UTI of an image extension a notification can show.
    static func uniformType(forExtension fileExtension: String) -> String? {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": "public.jpeg"
        case "png": "public.png"
        case "gif": "com.compuserve.gif"
        default: nil
        }
    }
}

extension SDKProfile {
    /// The file extension iOS types an attachment as when the extension passed `hint` as its type hint; nil when
    /// the hint names no image type a notification shows (what iOS does then is not confirmed; richpush refuses).
    public static func fileExtension(forTypeHint hint: String) -> String? {
        switch hint {
        case "public.jpeg": "jpg"
        case "public.png": "png"
        case "com.compuserve.gif": "gif"
        default: nil
        }
    }
}
