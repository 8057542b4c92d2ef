/// The checks iOS makes on an attachment after the extension hands it over.
///
/// iOS types an attachment by its file extension, accepts JPEG, GIF and PNG images up to 10 MB,
/// and drops the attachment (keeping the text) otherwise.
public struct AttachmentValidator: Sendable {
    public var attachmentMaxBytes: Int

    public init(attachmentMaxBytes: Int = DownloadLimits.tenMegabytes) {
        self.attachmentMaxBytes = attachmentMaxBytes
    }

    /// Nil when iOS would show the attachment; otherwise why it is dropped.
    public func rejection(for attachment: Attachment) -> String? {
        let fileExtension = attachment.file.split(separator: "/").last.flatMap { name -> Substring? in
            guard let dot = name.lastIndex(of: ".") else { return nil }
            return name[name.index(after: dot)...]
        }.map { $0.lowercased() }
        let accepted: Bool =
            switch attachment.format {
            case .png: fileExtension == "png"
            case .jpeg: fileExtension == "jpg" || fileExtension == "jpeg"
            case .gif: fileExtension == "gif"
            }
        guard accepted else {
            return
                "the file \"\(attachment.file.split(separator: "/").last ?? "")\" has no extension iOS maps to \(attachment.format.mimeType)"
        }
        if attachment.bytes > attachmentMaxBytes {
            return
                "\(attachment.bytes) bytes is over the \(attachmentMaxBytes)-byte limit for image attachments"
        }
        if attachment.bytes == 0 || attachment.width <= 0 || attachment.height <= 0 {
            return
                "the image has no pixels (\(attachment.width)x\(attachment.height), \(attachment.bytes) bytes)"
        }
        return nil
    }
}
