public import RichPushCore

/// Reads an attachment's file back, for front ends that show or embed the image after the delivery (the HTML
/// report, the notification center's export).
public enum AttachmentFile {
    /// The attachment's bytes, or nil when its file is gone, is no longer a regular file or no longer has the
    /// size the delivery recorded.
    public static func read(_ attachment: Attachment) -> [UInt8]? {
        guard case .bytes(let bytes) = SafeFileReader.read(attachment.file, limit: attachment.bytes),
            bytes.count == attachment.bytes
        else { return nil }
        return bytes
    }
}
