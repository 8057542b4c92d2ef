/// A type the system declares: its identifier, the types it conforms to directly, its tags (the preferred first) and,
/// for the types iOS attaches to notifications, which kind of attachment it is.
///
/// This is richpush's one table of types. `UniformTypeIdentifiers` and `MobileCoreServices` answer from it, the
/// attachment checks of `UNNotificationAttachment` and of the system read their types and caps from it, and the
/// vendors' rules name files and type hints with it.
public struct TypeDeclaration: Sendable, Equatable {
    public let identifier: String
    public let conformsTo: [String]
    /// Filename extensions, lowercased, the preferred first.
    public let extensions: [String]
    /// MIME types, lowercased, the preferred first.
    public let mimeTypes: [String]
    public let description: String?
    /// False for a type an app declares that the system does not know.
    public let declared: Bool
    /// The kind of attachment iOS makes of a file of this type; nil when it refuses the type.
    public let attachment: AttachmentKind?

    public init(
        _ identifier: String, conformsTo: [String], extensions: [String] = [], mimeTypes: [String] = [],
        description: String?, declared: Bool = true, attachment: AttachmentKind? = nil
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.description = description
        self.declared = declared
        self.attachment = attachment
    }

    public var preferredExtension: String? { extensions.first }
    public var preferredMIMEType: String? { mimeTypes.first }
}

/// The kinds of file iOS attaches to a notification, each with its size cap (`UNNotificationAttachment`'s
/// documentation: images 10 MB, audio 5 MB, video 50 MB).
public enum AttachmentKind: String, Sendable, Equatable {
    case image, audio, video

    public var maxBytes: Int {
        switch self {
        case .image: 10_000_000
        case .audio: 5_000_000
        case .video: 50_000_000
        }
    }

    /// The cap as people read it: `50 MB` (1 MB = 1,000,000 bytes, as iOS counts).
    public var limitDescription: String { "\(maxBytes / 1_000_000) MB" }

    /// Nil for a file of `bytes` within the cap; otherwise the sentence that says by how much it is over: `52.4 MB is
    /// over the 50 MB limit for video attachments` (in bytes when one decimal would not show the difference).
    public func sizeProblem(bytes: Int) -> String? {
        guard bytes > maxBytes else { return nil }
        let tenths = (bytes + 50_000) / 100_000
        let size = tenths * 100_000 > maxBytes ? "\(tenths / 10).\(tenths % 10) MB" : "\(bytes) bytes"
        return "\(size) is over the \(limitDescription) limit for \(rawValue) attachments"
    }
}

extension TypeDeclaration {
    /// The declaration with this identifier (case does not matter).
    public static func named(_ identifier: String) -> TypeDeclaration? { byIdentifier[identifier.lowercased()] }

    /// Every declaration with this filename extension (without the dot; case does not matter), the preferred first.
    public static func declarations(forExtension fileExtension: String) -> [TypeDeclaration] {
        let lowered = fileExtension.lowercased()
        return all.filter { $0.extensions.contains(lowered) }
    }

    /// Every declaration with this MIME type (case does not matter), the preferred first.
    public static func declarations(forMIMEType mimeType: String) -> [TypeDeclaration] {
        let lowered = mimeType.lowercased()
        return all.filter { $0.mimeTypes.contains(lowered) }
    }

    /// The extension the system prefers for a MIME type (`image/jpeg` → `jpeg`), as `UTType(mimeType:)`'s
    /// `preferredFilenameExtension` gives it; nil for a MIME type no declared type claims.
    public static func preferredExtension(forMIMEType mimeType: String) -> String? {
        declarations(forMIMEType: mimeType).lazy.compactMap(\.preferredExtension).first
    }

    /// The type iOS gives an attachment: the one its type hint names, else the one its file extension stands for;
    /// nil when iOS does not attach such a file (`UNError.attachmentUnrecognizedType`).
    public static func attachmentType(hint: String?, fileExtension: String) -> TypeDeclaration? {
        if let hint { return named(hint).flatMap { $0.attachment == nil ? nil : $0 } }
        return declarations(forExtension: fileExtension).first { $0.attachment != nil }
    }

    static let byIdentifier: [String: TypeDeclaration] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.identifier, $0) })

    /// The declarations, as Apple's `UTCoreTypes.h` documents them (identifiers, conformance, tags). The preferred
    /// declaration for a tag comes first. The types iOS attaches to notifications (`attachment`) are exactly those
    /// `UNNotificationAttachment` recognises: JPEG, PNG, GIF; AIFF, WAV, MP3, MPEG-4 audio; MPEG, MPEG-2, MPEG-4
    /// and AVI video.
    public static let all: [TypeDeclaration] = [
        // The roots.
        TypeDeclaration("public.item", conformsTo: [], description: "item"),
        TypeDeclaration("public.content", conformsTo: [], description: "content"),
        TypeDeclaration("public.composite-content", conformsTo: ["public.content"], description: "composite content"),
        TypeDeclaration("public.data", conformsTo: ["public.item"], description: "data"),
        TypeDeclaration("public.archive", conformsTo: ["public.data"], description: "archive"),
        TypeDeclaration("public.url", conformsTo: ["public.data"], description: "URL"),

        // Images.
        TypeDeclaration("public.image", conformsTo: ["public.data", "public.content"], description: "image"),
        TypeDeclaration(
            "public.jpeg", conformsTo: ["public.image"], extensions: ["jpeg", "jpg"],
            mimeTypes: ["image/jpeg", "image/jpg"], description: "JPEG image", attachment: .image),
        TypeDeclaration(
            "public.png", conformsTo: ["public.image"], extensions: ["png"], mimeTypes: ["image/png"],
            description: "PNG image", attachment: .image),
        TypeDeclaration(
            "com.compuserve.gif", conformsTo: ["public.image"], extensions: ["gif"], mimeTypes: ["image/gif"],
            description: "GIF image", attachment: .image),
        TypeDeclaration("public.heif-standard", conformsTo: ["public.image"], description: "HEIF standard image"),
        TypeDeclaration(
            "public.heic", conformsTo: ["public.heif-standard"], extensions: ["heic"], mimeTypes: ["image/heic"],
            description: "HEIC image"),
        TypeDeclaration(
            "public.heif", conformsTo: ["public.heif-standard"], extensions: ["heif"], mimeTypes: ["image/heif"],
            description: "HEIF image"),
        TypeDeclaration(
            "org.webmproject.webp", conformsTo: ["public.image"], extensions: ["webp"], mimeTypes: ["image/webp"],
            description: "WebP image"),
        TypeDeclaration(
            "public.tiff", conformsTo: ["public.image"], extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"],
            description: "TIFF image"),
        TypeDeclaration(
            "com.microsoft.bmp", conformsTo: ["public.image"], extensions: ["bmp"],
            mimeTypes: ["image/bmp", "image/x-bmp"], description: "Windows bitmap image"),
        TypeDeclaration(
            "com.microsoft.ico", conformsTo: ["public.image"], extensions: ["ico"],
            mimeTypes: ["image/vnd.microsoft.icon", "image/x-icon"], description: "Windows icon image"),
        TypeDeclaration(
            "public.svg-image", conformsTo: ["public.image"], extensions: ["svg"], mimeTypes: ["image/svg+xml"],
            description: "SVG image"),
        TypeDeclaration("public.camera-raw-image", conformsTo: ["public.image"], description: "raw image"),

        // Audio and video.
        TypeDeclaration(
            "public.audiovisual-content", conformsTo: ["public.data", "public.content"],
            description: "audiovisual content"),
        TypeDeclaration("public.movie", conformsTo: ["public.audiovisual-content"], description: "movie"),
        TypeDeclaration("public.video", conformsTo: ["public.movie"], description: "video"),
        TypeDeclaration("public.audio", conformsTo: ["public.audiovisual-content"], description: "audio"),
        TypeDeclaration(
            "public.mp3", conformsTo: ["public.audio"], extensions: ["mp3"],
            mimeTypes: ["audio/mpeg", "audio/mpeg3", "audio/mp3", "audio/x-mpeg-3"], description: "MP3 audio",
            attachment: .audio),
        TypeDeclaration(
            "public.mpeg-4-audio", conformsTo: ["public.mpeg-4", "public.audio"], extensions: ["m4a"],
            mimeTypes: ["audio/mp4", "audio/x-m4a", "audio/m4a"], description: "MPEG-4 audio", attachment: .audio),
        TypeDeclaration(
            "com.apple.protected-mpeg-4-audio", conformsTo: ["public.audio"], extensions: ["m4p"],
            description: "protected MPEG-4 audio"),
        TypeDeclaration(
            "com.microsoft.waveform-audio", conformsTo: ["public.audio"], extensions: ["wav"],
            mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"], description: "Waveform audio",
            attachment: .audio),
        TypeDeclaration("public.aifc-audio", conformsTo: ["public.audio"], description: "AIFF-C audio"),
        TypeDeclaration(
            "public.aiff-audio", conformsTo: ["public.aifc-audio"], extensions: ["aiff", "aif"],
            mimeTypes: ["audio/aiff", "audio/x-aiff"], description: "AIFF audio", attachment: .audio),
        TypeDeclaration(
            "public.mpeg-4", conformsTo: ["public.movie"], extensions: ["mp4"], mimeTypes: ["video/mp4"],
            description: "MPEG-4 movie", attachment: .video),
        TypeDeclaration(
            "com.apple.protected-mpeg-4-video", conformsTo: ["public.mpeg-4"], extensions: ["m4v"],
            mimeTypes: ["video/x-m4v"], description: "protected MPEG-4 movie"),
        TypeDeclaration(
            "com.apple.quicktime-movie", conformsTo: ["public.movie"], extensions: ["mov", "qt"],
            mimeTypes: ["video/quicktime"], description: "QuickTime movie"),
        TypeDeclaration(
            "public.mpeg", conformsTo: ["public.movie"], extensions: ["mpg", "mpeg"], mimeTypes: ["video/mpeg"],
            description: "MPEG movie", attachment: .video),
        TypeDeclaration(
            "public.mpeg-2-video", conformsTo: ["public.mpeg"], extensions: ["mp2"], mimeTypes: ["video/mpeg2"],
            description: "MPEG-2 video", attachment: .video),
        TypeDeclaration(
            "public.mpeg-2-transport-stream", conformsTo: ["public.movie"], extensions: ["ts"],
            mimeTypes: ["video/mp2t"], description: "MPEG-2 transport stream"),
        TypeDeclaration(
            "public.avi", conformsTo: ["public.movie"], extensions: ["avi"],
            mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"], description: "AVI movie", attachment: .video),

        // Text and documents.
        TypeDeclaration("public.text", conformsTo: ["public.data", "public.content"], description: "text"),
        TypeDeclaration(
            "public.plain-text", conformsTo: ["public.text"], extensions: ["txt", "text"], mimeTypes: ["text/plain"],
            description: "plain text"),
        TypeDeclaration(
            "public.utf8-plain-text", conformsTo: ["public.plain-text"], description: "Unicode text, UTF-8"),
        TypeDeclaration(
            "public.json", conformsTo: ["public.text"], extensions: ["json"], mimeTypes: ["application/json"],
            description: "JSON"),
        TypeDeclaration(
            "public.html", conformsTo: ["public.text"], extensions: ["html", "htm"], mimeTypes: ["text/html"],
            description: "HTML text"),
        TypeDeclaration(
            "public.xml", conformsTo: ["public.text"], extensions: ["xml"],
            mimeTypes: ["application/xml", "text/xml"], description: "XML text"),
        TypeDeclaration(
            "com.adobe.pdf", conformsTo: ["public.data", "public.composite-content"], extensions: ["pdf"],
            mimeTypes: ["application/pdf"], description: "PDF document"),
        TypeDeclaration(
            "public.zip-archive", conformsTo: ["public.archive"], extensions: ["zip"],
            mimeTypes: ["application/zip"], description: "ZIP archive"),
    ]

}
