/// A type the system declares: its identifier, the types it conforms to directly, its tags (the preferred first).
struct Declaration: Sendable {
    let identifier: String
    let conformsTo: [String]
    let extensions: [String]
    let mimeTypes: [String]
    let description: String?
    let declared: Bool

    init(
        _ identifier: String, conformsTo: [String], extensions: [String] = [], mimeTypes: [String] = [],
        description: String?, declared: Bool = true
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.description = description
        self.declared = declared
    }

    func tags(_ tagClass: UTTagClass) -> [String] {
        switch tagClass {
        case .filenameExtension: extensions
        case .mimeType: mimeTypes
        default: []
        }
    }

    /// The declarations, as Apple's `UTCoreTypes.h` documents them (identifiers, conformance, tags). The preferred
    /// declaration for a tag comes first. The filename extensions of the types iOS attaches to notifications are
    /// exactly those `UNNotificationAttachment` recognises: `jpeg jpg`, `png`, `gif`, `aiff aif`, `wav`, `mp3`,
    /// `m4a`, `mpg mpeg`, `mp2`, `mp4`, `avi`.
    static let all: [Declaration] = [
        // The roots.
        Declaration("public.item", conformsTo: [], description: "item"),
        Declaration("public.content", conformsTo: [], description: "content"),
        Declaration("public.composite-content", conformsTo: ["public.content"], description: "composite content"),
        Declaration("public.data", conformsTo: ["public.item"], description: "data"),
        Declaration("public.archive", conformsTo: ["public.data"], description: "archive"),
        Declaration("public.url", conformsTo: ["public.data"], description: "URL"),

        // Images.
        Declaration("public.image", conformsTo: ["public.data", "public.content"], description: "image"),
        Declaration(
            "public.jpeg", conformsTo: ["public.image"], extensions: ["jpeg", "jpg"],
            mimeTypes: ["image/jpeg", "image/jpg"], description: "JPEG image"),
        Declaration(
            "public.png", conformsTo: ["public.image"], extensions: ["png"], mimeTypes: ["image/png"],
            description: "PNG image"),
        Declaration(
            "com.compuserve.gif", conformsTo: ["public.image"], extensions: ["gif"], mimeTypes: ["image/gif"],
            description: "GIF image"),
        Declaration("public.heif-standard", conformsTo: ["public.image"], description: "HEIF standard image"),
        Declaration(
            "public.heic", conformsTo: ["public.heif-standard"], extensions: ["heic"], mimeTypes: ["image/heic"],
            description: "HEIC image"),
        Declaration(
            "public.heif", conformsTo: ["public.heif-standard"], extensions: ["heif"], mimeTypes: ["image/heif"],
            description: "HEIF image"),
        Declaration(
            "org.webmproject.webp", conformsTo: ["public.image"], extensions: ["webp"], mimeTypes: ["image/webp"],
            description: "WebP image"),
        Declaration(
            "public.tiff", conformsTo: ["public.image"], extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"],
            description: "TIFF image"),
        Declaration(
            "com.microsoft.bmp", conformsTo: ["public.image"], extensions: ["bmp"],
            mimeTypes: ["image/bmp", "image/x-bmp"], description: "Windows bitmap image"),
        Declaration(
            "com.microsoft.ico", conformsTo: ["public.image"], extensions: ["ico"],
            mimeTypes: ["image/vnd.microsoft.icon", "image/x-icon"], description: "Windows icon image"),
        Declaration(
            "public.svg-image", conformsTo: ["public.image"], extensions: ["svg"], mimeTypes: ["image/svg+xml"],
            description: "SVG image"),
        Declaration("public.camera-raw-image", conformsTo: ["public.image"], description: "raw image"),

        // Audio and video.
        Declaration(
            "public.audiovisual-content", conformsTo: ["public.data", "public.content"],
            description: "audiovisual content"),
        Declaration("public.movie", conformsTo: ["public.audiovisual-content"], description: "movie"),
        Declaration("public.video", conformsTo: ["public.movie"], description: "video"),
        Declaration("public.audio", conformsTo: ["public.audiovisual-content"], description: "audio"),
        Declaration(
            "public.mp3", conformsTo: ["public.audio"], extensions: ["mp3"],
            mimeTypes: ["audio/mpeg", "audio/mpeg3", "audio/mp3", "audio/x-mpeg-3"], description: "MP3 audio"),
        Declaration(
            "public.mpeg-4-audio", conformsTo: ["public.mpeg-4", "public.audio"], extensions: ["m4a"],
            mimeTypes: ["audio/mp4", "audio/x-m4a", "audio/m4a"], description: "MPEG-4 audio"),
        Declaration(
            "com.apple.protected-mpeg-4-audio", conformsTo: ["public.audio"], extensions: ["m4p"],
            description: "protected MPEG-4 audio"),
        Declaration(
            "com.microsoft.waveform-audio", conformsTo: ["public.audio"], extensions: ["wav"],
            mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"], description: "Waveform audio"),
        Declaration("public.aifc-audio", conformsTo: ["public.audio"], description: "AIFF-C audio"),
        Declaration(
            "public.aiff-audio", conformsTo: ["public.aifc-audio"], extensions: ["aiff", "aif"],
            mimeTypes: ["audio/aiff", "audio/x-aiff"], description: "AIFF audio"),
        Declaration(
            "public.mpeg-4", conformsTo: ["public.movie"], extensions: ["mp4"], mimeTypes: ["video/mp4"],
            description: "MPEG-4 movie"),
        Declaration(
            "com.apple.protected-mpeg-4-video", conformsTo: ["public.mpeg-4"], extensions: ["m4v"],
            mimeTypes: ["video/x-m4v"], description: "protected MPEG-4 movie"),
        Declaration(
            "com.apple.quicktime-movie", conformsTo: ["public.movie"], extensions: ["mov", "qt"],
            mimeTypes: ["video/quicktime"], description: "QuickTime movie"),
        Declaration(
            "public.mpeg", conformsTo: ["public.movie"], extensions: ["mpg", "mpeg"], mimeTypes: ["video/mpeg"],
            description: "MPEG movie"),
        Declaration(
            "public.mpeg-2-video", conformsTo: ["public.mpeg"], extensions: ["mp2"], mimeTypes: ["video/mpeg2"],
            description: "MPEG-2 video"),
        Declaration(
            "public.mpeg-2-transport-stream", conformsTo: ["public.movie"], extensions: ["ts"],
            mimeTypes: ["video/mp2t"], description: "MPEG-2 transport stream"),
        Declaration(
            "public.avi", conformsTo: ["public.movie"], extensions: ["avi"],
            mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"], description: "AVI movie"),

        // Text and documents.
        Declaration("public.text", conformsTo: ["public.data", "public.content"], description: "text"),
        Declaration(
            "public.plain-text", conformsTo: ["public.text"], extensions: ["txt", "text"], mimeTypes: ["text/plain"],
            description: "plain text"),
        Declaration(
            "public.utf8-plain-text", conformsTo: ["public.plain-text"], description: "Unicode text, UTF-8"),
        Declaration(
            "public.json", conformsTo: ["public.text"], extensions: ["json"], mimeTypes: ["application/json"],
            description: "JSON"),
        Declaration(
            "public.html", conformsTo: ["public.text"], extensions: ["html", "htm"], mimeTypes: ["text/html"],
            description: "HTML text"),
        Declaration(
            "public.xml", conformsTo: ["public.text"], extensions: ["xml"],
            mimeTypes: ["application/xml", "text/xml"], description: "XML text"),
        Declaration(
            "com.adobe.pdf", conformsTo: ["public.data", "public.composite-content"], extensions: ["pdf"],
            mimeTypes: ["application/pdf"], description: "PDF document"),
        Declaration(
            "public.zip-archive", conformsTo: ["public.archive"], extensions: ["zip"],
            mimeTypes: ["application/zip"], description: "ZIP archive"),
    ]

    static let byIdentifier: [String: Declaration] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.identifier, $0) })
}

extension UTType {
    private static func declared(_ identifier: String) -> UTType {
        guard let type = UTType(identifier) else { fatalError("\(identifier) is not in the declarations") }
        return type
    }

    /// `public.item`: the root of the physical hierarchy.
    public static let item = declared("public.item")
    /// `public.content`: the root of the content hierarchy.
    public static let content = declared("public.content")
    /// `public.composite-content`.
    public static let compositeContent = declared("public.composite-content")
    /// `public.data`: bytes; conforms to `public.item`.
    public static let data = declared("public.data")
    /// `public.archive`.
    public static let archive = declared("public.archive")
    /// `public.url`.
    public static let url = declared("public.url")

    /// `public.image`: conforms to `public.data` and `public.content`.
    public static let image = declared("public.image")
    /// `public.jpeg` (`jpeg`, `jpg`; `image/jpeg`).
    public static let jpeg = declared("public.jpeg")
    /// `public.png` (`png`; `image/png`).
    public static let png = declared("public.png")
    /// `com.compuserve.gif` (`gif`; `image/gif`).
    public static let gif = declared("com.compuserve.gif")
    /// `public.heic` (`heic`; `image/heic`).
    public static let heic = declared("public.heic")
    /// `public.heif` (`heif`; `image/heif`).
    public static let heif = declared("public.heif")
    /// `org.webmproject.webp` (`webp`; `image/webp`).
    public static let webP = declared("org.webmproject.webp")
    /// `public.tiff` (`tiff`, `tif`; `image/tiff`).
    public static let tiff = declared("public.tiff")
    /// `com.microsoft.bmp` (`bmp`; `image/bmp`).
    public static let bmp = declared("com.microsoft.bmp")
    /// `com.microsoft.ico` (`ico`).
    public static let ico = declared("com.microsoft.ico")
    /// `public.svg-image` (`svg`; `image/svg+xml`).
    public static let svg = declared("public.svg-image")
    /// `public.camera-raw-image`.
    public static let rawImage = declared("public.camera-raw-image")

    /// `public.audiovisual-content`: conforms to `public.data` and `public.content`.
    public static let audiovisualContent = declared("public.audiovisual-content")
    /// `public.movie`: audio, video or both; conforms to `public.audiovisual-content`.
    public static let movie = declared("public.movie")
    /// `public.video`: video without audio; conforms to `public.movie`.
    public static let video = declared("public.video")
    /// `public.audio`: conforms to `public.audiovisual-content`.
    public static let audio = declared("public.audio")
    /// `public.mp3` (`mp3`; `audio/mpeg`).
    public static let mp3 = declared("public.mp3")
    /// `public.mpeg-4-audio` (`m4a`; `audio/mp4`): conforms to `public.mpeg-4` and `public.audio`.
    public static let mpeg4Audio = declared("public.mpeg-4-audio")
    /// `com.apple.protected-mpeg-4-audio` (`m4p`).
    public static let appleProtectedMPEG4Audio = declared("com.apple.protected-mpeg-4-audio")
    /// `com.microsoft.waveform-audio` (`wav`; `audio/vnd.wave`).
    public static let wav = declared("com.microsoft.waveform-audio")
    /// `public.aiff-audio` (`aiff`, `aif`; `audio/aiff`).
    public static let aiff = declared("public.aiff-audio")
    /// `public.mpeg-4` (`mp4`; `video/mp4`).
    public static let mpeg4Movie = declared("public.mpeg-4")
    /// `com.apple.protected-mpeg-4-video` (`m4v`).
    public static let appleProtectedMPEG4Video = declared("com.apple.protected-mpeg-4-video")
    /// `com.apple.quicktime-movie` (`mov`, `qt`; `video/quicktime`).
    public static let quickTimeMovie = declared("com.apple.quicktime-movie")
    /// `public.mpeg` (`mpg`, `mpeg`; `video/mpeg`).
    public static let mpeg = declared("public.mpeg")
    /// `public.mpeg-2-video` (`mp2`, as `UNNotificationAttachment` names it).
    public static let mpeg2Video = declared("public.mpeg-2-video")
    /// `public.mpeg-2-transport-stream` (`ts`).
    public static let mpeg2TransportStream = declared("public.mpeg-2-transport-stream")
    /// `public.avi` (`avi`; `video/avi`).
    public static let avi = declared("public.avi")

    /// `public.text`: conforms to `public.data` and `public.content`.
    public static let text = declared("public.text")
    /// `public.plain-text` (`txt`; `text/plain`).
    public static let plainText = declared("public.plain-text")
    /// `public.utf8-plain-text`.
    public static let utf8PlainText = declared("public.utf8-plain-text")
    /// `public.json` (`json`; `application/json`).
    public static let json = declared("public.json")
    /// `public.html` (`html`, `htm`; `text/html`).
    public static let html = declared("public.html")
    /// `public.xml` (`xml`; `application/xml`).
    public static let xml = declared("public.xml")
    /// `com.adobe.pdf` (`pdf`; `application/pdf`).
    public static let pdf = declared("com.adobe.pdf")
    /// `public.zip-archive` (`zip`; `application/zip`).
    public static let zip = declared("public.zip-archive")
}
