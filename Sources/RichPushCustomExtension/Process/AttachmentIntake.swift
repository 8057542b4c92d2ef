import Crypto
import Foundation
import RichPushCodecs
import RichPushCore
import RichPushFiles
import RichPushHostProtocol

/// The system's side of the attachments an extension hands back: each is a claim from the team's code, so it counts
/// only when its file is in the notification's own store; the first is moved out of the store (removed with the
/// container) into the host's kept folder until its result is reported, and read as the system reads it.
///
/// File work: it runs on the host's compute pool, never on Swift's cooperative threads.
enum AttachmentIntake {
    /// Kept attachments, in the host's folder.
    static let keptFolderName = "attachments"

    /// What the extension handed to its content handler, with its attachments checked against `store` and the first
    /// one moved to `kept`.
    static func receive(_ content: HostContent, call: Int, store: String, kept: String) -> HandedContent {
        var handed = HandedContent(content)
        // iOS uses only the first call: later ones are counted, their files left alone.
        guard call == 1 else { return handed }
        if let sender = content.communication {
            handed.communication = communication(sender, store: store, kept: kept)
        }
        handed.attachments = content.attachments.enumerated().map { index, attachment in
            guard isStored(attachment.file, in: store) else {
                return HandedAttachment(
                    identifier: attachment.identifier, file: attachment.file, type: attachment.type,
                    inspection: .notAnImage("not a file in the attachment store (attachmentNotInDataStore)"))
            }
            // Only the first is shown; it is kept until its result is reported.
            let path = index == 0 ? keep(attachment.file, in: kept) ?? attachment.file : attachment.file
            return HandedAttachment(
                identifier: attachment.identifier, file: path, type: attachment.type,
                inspection: inspect(
                    path, type: attachment.type, thumbnailTime: attachment.options.thumbnailTime,
                    poster: index == 0))
        }
        return handed
    }

    /// The sender as the system shows it: the avatar read as an image, kept beside the attachments.
    static func communication(_ sender: HostCommunication, store: String, kept: String) -> Communication {
        var communication = Communication(
            senderName: sender.senderName, senderHandle: sender.senderHandle,
            conversationID: sender.conversationIdentifier, groupName: sender.groupName)
        guard let file = sender.avatarFile else { return communication }
        guard isStored(file, in: store), let path = keep(file, in: kept) else {
            communication.avatarProblem = "the avatar is not a file in the notification's store"
            return communication
        }
        switch inspect(path, type: "public.image") {
        case .image(let image): communication.avatar = image
        case .notAnImage(let what): communication.avatarProblem = "the avatar is \(what), not an image"
        case .media, .notMedia: communication.avatarProblem = "the avatar is not an image"
        }
        return communication
    }

    /// Whether `path` names a regular file (not a link) directly in `folder`, with no `..` on the way.
    static func isStored(_ path: String, in folder: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        guard url.standardizedFileURL.path == path, url.deletingLastPathComponent().path == folder else {
            return false
        }
        return (try? FileNode.itself(path).get())?.isRegularFile == true
    }

    /// Moves a stored attachment out of the notification's store into `folder`.
    static func keep(_ file: String, in folder: String) -> String? {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let destination = folder + "/" + UUID().uuidString + "." + (file as NSString).pathExtension
        return rename(file, destination) == 0 ? destination : nil
    }

    /// What an attached file is, read as the system reads it: an image of a type a notification shows, or audio or
    /// video read by its container (with, when `poster`, a video's frame at `thumbnailTime` written beside it).
    static func inspect(
        _ path: String, type: String, thumbnailTime: Double? = nil, poster: Bool = false
    ) -> HandedAttachment.Inspection {
        switch TypeDeclaration.named(type)?.attachment {
        case .audio: return inspectMedia(path, type: type, kind: .audio, thumbnailTime: thumbnailTime, poster: poster)
        case .video: return inspectMedia(path, type: type, kind: .video, thumbnailTime: thumbnailTime, poster: poster)
        case .image, nil: break
        }
        let url = URL(fileURLWithPath: path)
        let inspection: ImageInspection
        do {
            inspection = try ImageInspector.inspect(fileAt: url)
        } catch {
            return .notAnImage("unreadable (\(error.localizedDescription))")
        }
        switch inspection {
        case .image(let info):
            guard let (bytes, sha256) = digest(of: path) else { return .notAnImage("unreadable") }
            return .image(
                DownloadedImage(
                    file: url, format: info.format, width: info.width, height: info.height, frames: info.frames,
                    bytes: bytes, sha256: sha256, servedContentType: nil))
        case .unsupportedImageType(let name):
            return .notAnImage("a \(name) image")
        case .notAnImage(let what):
            return .notAnImage(what)
        }
    }

    /// An audio or video file, read with FFmpeg (``MediaProbe``): its container, codecs, duration and size; for the
    /// attachment shown, a video's frame at `thumbnailTime` (0 without one) as a PNG beside the kept file.
    static func inspectMedia(
        _ path: String, type: String, kind: MediaAttachment.Kind, thumbnailTime: Double?, poster: Bool
    ) -> HandedAttachment.Inspection {
        let probe = MediaProbe()
        let info: MediaProbe.Info
        do {
            info = try probe.probe(path)
        } catch {
            // A picture attached as audio or video says what it is.
            if case .image(let image)? = try? ImageInspector.inspect(fileAt: URL(fileURLWithPath: path)) {
                return .notMedia("a \(image.format.rawValue.uppercased()) image")
            }
            return .notMedia(error.description)
        }
        var media = MediaAttachment(
            kind: kind, type: type, container: info.container, codecs: info.codecs, duration: info.duration ?? 0,
            bytes: info.bytes, file: path, width: info.width, height: info.height)
        var posterProblem: String?
        if poster, info.hasVideo {
            let file = (path as NSString).deletingPathExtension + "-poster.png"
            do {
                let frame = try probe.poster(of: path, at: thumbnailTime ?? 0, writingTo: file)
                if let (bytes, sha256) = digest(of: file) {
                    media.poster = DownloadedImage(
                        file: frame.file, format: .png, width: frame.width, height: frame.height, frames: 1,
                        bytes: bytes, sha256: sha256, servedContentType: nil)
                    media.posterTime = frame.time
                } else {
                    posterProblem = "the poster frame could not be read back"
                }
            } catch {
                posterProblem = error.description
            }
        }
        return .media(media, MediaStreams(audio: info.hasAudio, video: info.hasVideo), posterProblem: posterProblem)
    }

    /// The file's size and SHA-256, read in pieces.
    static func digest(of path: String) -> (Int, String)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        var total = 0
        while let data = try? handle.read(upToCount: 64 * 1024), !data.isEmpty {
            hasher.update(data: data)
            total += data.count
        }
        return (total, Hexadecimal.lowercase(hasher.finalize()))
    }
}
