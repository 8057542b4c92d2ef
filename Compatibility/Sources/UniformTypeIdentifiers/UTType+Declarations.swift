import RichPushRules

/// The system's declarations are richpush's one table of types (`RichPushRules.TypeDeclaration`), which the
/// attachment checks and the vendors' rules read too.
typealias Declaration = TypeDeclaration

extension TypeDeclaration {
    func tags(_ tagClass: UTTagClass) -> [String] {
        switch tagClass {
        case .filenameExtension: extensions
        case .mimeType: mimeTypes
        default: []
        }
    }
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
