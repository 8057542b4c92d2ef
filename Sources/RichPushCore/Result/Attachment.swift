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
    /// Whether the codecs decoded the image to pixels; nil when the system ran without a decoder.
    public var decoded: Bool?
    /// Why the image did not decode, as a sentence, when `decoded` is false.
    public var decodeError: String?

    public var mimeType: String { format.mimeType }

    public init(
        url: String, format: ImageFormat, width: Int, height: Int, frames: Int, bytes: Int,
        sha256: String,
        file: String, decoded: Bool? = nil, decodeError: String? = nil
    ) {
        self.url = url
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.bytes = bytes
        self.sha256 = sha256
        self.file = file
        self.decoded = decoded
        self.decodeError = decodeError
    }

    /// Records the codecs' verdict on this attachment.
    public mutating func record(_ verdict: DecodeVerdict) {
        decoded = verdict.isDecoded
        decodeError = verdict.error
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
