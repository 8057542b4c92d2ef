import Foundation

/// An image attached to a notification by the service extension.
public struct Attachment: Sendable, Equatable {
    /// The URL as the payload wrote it.
    public var url: String
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var frames: Int
    public var bytes: Int
    public var sha256: String
    /// Local file the attachment was written to.
    public var file: String

    public var mimeType: String { format.mimeType }

    public init(
        url: String, format: ImageFormat, width: Int, height: Int, frames: Int, bytes: Int,
        sha256: String,
        file: String
    ) {
        self.url = url
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.bytes = bytes
        self.sha256 = sha256
        self.file = file
    }
}

extension Attachment {
    /// The attachment the extension makes of a downloaded image; `url` is the URL as the payload wrote it.
    public init(url: String, image: DownloadedImage) {
        self.init(
            url: url, format: image.format, width: image.width, height: image.height, frames: image.frames,
            bytes: image.bytes, sha256: image.sha256, file: image.file.path)
    }
}
