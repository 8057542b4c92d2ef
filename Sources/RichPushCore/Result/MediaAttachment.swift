import Foundation

/// An audio or video attachment as iOS shows it (the result's `media`): read by its real container and codecs, with
/// its duration and, for video, the poster frame at the attachment's thumbnail time.
///
/// iOS attaches audio (AIFF, WAV, MP3, MPEG-4 audio: at most 5 MB) and video (MPEG, MPEG-2, MPEG-4, AVI: at most
/// 50 MB): https://developer.apple.com/documentation/usernotifications/unnotificationattachment
public struct MediaAttachment: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case audio, video
    }

    public var kind: Kind
    /// The type identifier iOS gave it (`public.mpeg-4`).
    public var type: String
    /// The container the bytes are, short and for people: `MP4`, `M4A`, `WAV`, `MP3`, `AIFF`, `MPEG`, `AVI`, or
    /// another's name (`Matroska`, `QuickTime`).
    public var container: String
    /// The audio and video streams' codecs, in the file's order (`["h264", "aac"]`).
    public var codecs: [String]
    /// Seconds.
    public var duration: Double
    public var bytes: Int
    /// The kept file.
    public var file: String
    /// A video's size; nil for audio.
    public var width: Int?
    public var height: Int?
    /// A video's frame at ``posterTime``, as a PNG file beside the kept attachment; nil for audio, or when no frame
    /// could be decoded.
    public var poster: DownloadedImage?
    /// The time of the poster frame, in seconds.
    public var posterTime: Double?

    public init(
        kind: Kind, type: String, container: String, codecs: [String], duration: Double, bytes: Int, file: String,
        width: Int? = nil, height: Int? = nil, poster: DownloadedImage? = nil, posterTime: Double? = nil
    ) {
        self.kind = kind
        self.type = type
        self.container = container
        self.codecs = codecs
        self.duration = duration
        self.bytes = bytes
        self.file = file
        self.width = width
        self.height = height
        self.poster = poster
        self.posterTime = posterTime
    }

    /// The result's `media`.
    public var jsonValue: JSONValue {
        func number(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        return [
            "kind": .string(kind.rawValue), "type": .string(type), "container": .string(container),
            "codecs": .array(codecs.map { .string($0) }), "duration": .number(DeliveryResult.milliseconds(duration)),
            "bytes": .number(Double(bytes)), "file": .string(file), "width": number(width), "height": number(height),
            "poster": poster.map {
                [
                    "file": .string($0.file.path), "width": .number(Double($0.width)),
                    "height": .number(Double($0.height)),
                ]
            } ?? .null,
            "posterTime": posterTime.map { .number(DeliveryResult.milliseconds($0)) } ?? .null,
        ]
    }

    /// What the timeline says of it: `MP4 video h264/aac 12.0 s 640x360, poster at 1.0 s`.
    public var summary: String {
        var text = "\(container) \(kind.rawValue)"
        if !codecs.isEmpty { text += " " + codecs.joined(separator: "/") }
        text += " " + Self.seconds(duration)
        if let width, let height { text += " \(width)x\(height)" }
        if let posterTime, poster != nil { text += ", poster at " + Self.seconds(posterTime) }
        return text
    }

    /// Seconds with one decimal: `12.0 s`.
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10)) s"
    }
}

/// What the system reads of an audio or video file, besides what the result shows: which kinds of stream it has,
/// for the check against the type the extension declared.
public struct MediaStreams: Sendable, Equatable {
    public var audio: Bool
    public var video: Bool

    public init(audio: Bool, video: Bool) {
        self.audio = audio
        self.video = video
    }
}

/// iOS's rules for an audio or video attachment: the container its type stands for, the stream its kind needs, the
/// size cap of its kind.
public enum MediaAttachmentRules {
    /// The containers each attachable audio and video type is (``MediaAttachment/container``).
    static let containers: [String: Set<String>] = [
        "public.aiff-audio": ["AIFF"],
        "com.microsoft.waveform-audio": ["WAV"],
        "public.mp3": ["MP3"],
        "public.mpeg-4-audio": ["M4A", "MP4"],
        "public.mpeg": ["MPEG"],
        "public.mpeg-2-video": ["MPEG"],
        "public.mpeg-4": ["MP4"],
        "public.avi": ["AVI"],
    ]

    /// Nil when iOS shows `media`; otherwise why it is refused: its size over its kind's cap, a container other than
    /// the one its type stands for, or no stream of its kind.
    public static func rejection(for media: MediaAttachment, streams: MediaStreams) -> String? {
        let kind: AttachmentKind = media.kind == .audio ? .audio : .video
        if let problem = kind.sizeProblem(bytes: media.bytes) { return problem }
        let declaration = TypeDeclaration.named(media.type)
        let described = declaration?.description.map { "\($0) (\(media.type))" } ?? media.type
        if let accepted = containers[media.type.lowercased()], !accepted.contains(media.container) {
            let codecs = media.codecs.isEmpty ? "" : " (\(media.codecs.joined(separator: "/")))"
            return "the file's container is \(media.container)\(codecs), not the \(described) it was attached as"
        }
        switch media.kind {
        case .video where !streams.video:
            return "the file has no video stream (\(media.codecs.joined(separator: "/"))), and \(described) is video"
        case .audio where streams.video:
            return
                "the file has a video stream (\(media.codecs.joined(separator: "/"))), and \(described) is audio: attach it as video"
        case .audio where !streams.audio:
            return "the file has no audio stream, and \(described) is audio"
        default:
            return nil
        }
    }
}
