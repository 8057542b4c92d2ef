extension Attachment {
    /// What the image is at a glance, for every front end: "png 640x480 47.1 KB", "gif 64x64 7.1 KB 8 frames",
    /// "png 640x480 1.5 KB not decoded" when the codecs could not draw it.
    public var summary: String {
        var text = "\(format.rawValue) \(width)x\(height) \(ByteCount.text(bytes))"
        if frames > 1 { text += " \(frames) frames" }
        if decoded == false { text += " not decoded" }
        return text
    }
}
