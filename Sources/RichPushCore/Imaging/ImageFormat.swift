/// Image formats the emulated iOS shows in a notification, detected from the bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png
    case jpeg
    case gif

    /// The canonical MIME type of the format.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        }
    }

    /// The file extension the attachment file gets; iOS types attachments by it.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .gif: "gif"
        }
    }
}
