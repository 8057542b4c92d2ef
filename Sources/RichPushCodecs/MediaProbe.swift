internal import CFFmpegShim
public import Foundation

/// Reads an audio or video file with FFmpeg (Debian's libavformat, libavcodec, libswscale): its real container,
/// its streams' codecs, its duration and a video's size, and writes a video's frame at a given time as a PNG (the
/// poster iOS shows for `UNNotificationAttachmentOptionsThumbnailTimeKey`).
///
/// The file is treated as hostile: it is opened by descriptor (a regular file, no link followed, never a FIFO or a
/// device), libavformat gets no protocol and no other file (a container that names one is refused), only the
/// demuxers of common audio and video containers are used, the bytes probed are bounded, and every call ends
/// within ``timeLimit`` (checked on each read and by libavformat's interrupt callback).
///
/// ```swift
/// let probe = MediaProbe()
/// let info = try probe.probe(path)                       // "MP4", ["h264", "aac"], 12.0 s, 640x360
/// let poster = try probe.poster(of: path, at: 1.0, writingTo: path + ".poster.png")
/// ```
///
/// Demuxing: https://ffmpeg.org/doxygen/5.1/group__lavf__decoding.html (avformat_open_input,
/// avformat_find_stream_info, av_seek_frame); decoding with avcodec_send_packet / avcodec_receive_frame
/// (https://ffmpeg.org/doxygen/5.1/group__lavc__encdec.html), converting with sws_scale. The C is in CFFmpegShim.
public struct MediaProbe: Sendable {
    /// What a probe found.
    public struct Info: Sendable, Equatable {
        /// libavformat's demuxer name (`mov,mp4,m4a,3gp,3g2,mj2`).
        public var format: String
        /// The container, short and for people: `MP4`, `M4A`, `QuickTime`, `WAV`, `MP3`, `AIFF`, `MPEG`, `AVI`,
        /// `Matroska`, … (``container(format:brand:longName:)``).
        public var container: String
        /// The ISO base media file's major brand (`isom`, `M4A`), trimmed; nil for other containers.
        public var brand: String?
        /// The audio and video streams, in the file's order (a cover picture attached to audio is not one).
        public var streams: [Stream]
        /// Seconds; nil when the container does not say.
        public var duration: Double?
        /// The first video stream's size; nil without video.
        public var width: Int?
        public var height: Int?
        /// The file's size.
        public var bytes: Int

        public var codecs: [String] { streams.map(\.codec) }
        public var hasVideo: Bool { streams.contains { $0.kind == .video } }
        public var hasAudio: Bool { streams.contains { $0.kind == .audio } }
    }

    public struct Stream: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case audio, video
        }

        public var kind: Kind
        /// libavcodec's name (`h264`, `aac`, `pcm_s16le`).
        public var codec: String
    }

    /// A video's frame written as a PNG.
    public struct Poster: Sendable, Equatable {
        public var file: URL
        public var width: Int
        public var height: Int
        /// The frame's time, in seconds from the start of the video.
        public var time: Double
    }

    /// Why a file was not read: a sentence that completes "the file is …" or stands alone ("not an audio or video
    /// file (libavformat reads it as piped png sequence)", "truncated: …", "reading it took longer than 2.0 s").
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The longest one call may take, in seconds.
    public var timeLimit: Double
    /// The most pixels a decoded video frame may have.
    public var maxFramePixels: Int

    public init(timeLimit: Double = 2, maxFramePixels: Int = 36_000_000) {
        self.timeLimit = timeLimit
        self.maxFramePixels = maxFramePixels
    }

    /// The container, streams, duration and video size of the file at `path`.
    public func probe(_ path: String) throws(Failure) -> Info {
        var info = rp_media_info()
        var error = [CChar](repeating: 0, count: 512)
        guard rp_media_probe(path, timeLimit, &info, &error, error.count) == 0 else {
            throw Failure(description: Self.string(error))
        }
        let count = min(Int(info.stream_count), Int(RP_MEDIA_MAX_STREAMS))
        let streams = withUnsafeBytes(of: info.codecs) { codecs in
            withUnsafeBytes(of: info.kinds) { kinds in
                (0..<count).map { index in
                    let width = codecs.count / Int(RP_MEDIA_MAX_STREAMS)
                    let name = codecs[(index * width)..<((index + 1) * width)].prefix { $0 != 0 }
                    let kind = kinds.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self)
                    return Stream(
                        kind: kind == Int32(RP_MEDIA_VIDEO) ? .video : .audio,
                        codec: String(decoding: name, as: UTF8.self))
                }
            }
        }
        let format = Self.string(info.format)
        // Only an ISO base media file has a brand (a remuxed file may carry the metadata along).
        let brand =
            format == Self.isoBaseMedia ? Self.string(info.brand).trimmingCharacters(in: .whitespaces) : ""
        let video = streams.contains { $0.kind == .video }
        return Info(
            format: format,
            container: Self.container(format: format, brand: brand, longName: Self.string(info.format_long)),
            brand: brand.isEmpty ? nil : brand, streams: streams, duration: info.duration >= 0 ? info.duration : nil,
            width: video ? Int(info.width) : nil, height: video ? Int(info.height) : nil, bytes: Int(info.bytes))
    }

    /// Writes the video frame shown at `time` seconds (the last frame at or before it: the last frame for a time past
    /// the end, the first for a time before it) as a PNG at `png`, a file that must not exist yet.
    public func poster(of path: String, at time: Double, writingTo png: String) throws(Failure) -> Poster {
        var width: Int32 = 0
        var height: Int32 = 0
        var frameTime: Double = 0
        var error = [CChar](repeating: 0, count: 512)
        let at = time.isFinite ? max(0, time) : 0
        guard
            rp_media_poster(
                path, at, timeLimit, UInt64(maxFramePixels), png, &width, &height, &frameTime, &error, error.count)
                == 0
        else {
            throw Failure(description: Self.string(error))
        }
        return Poster(file: URL(fileURLWithPath: png), width: Int(width), height: Int(height), time: frameTime)
    }

    /// The container for people, from libavformat's demuxer name and, for ISO base media files, the major brand:
    /// `M4A` (brands `M4A`, `M4B`), `QuickTime` (`qt`), `3GP` (`3g…`), else `MP4`.
    public static func container(format: String, brand: String, longName: String) -> String {
        switch format {
        case isoBaseMedia:
            let brand = brand.trimmingCharacters(in: .whitespaces)
            if brand == "M4A" || brand == "M4B" { return "M4A" }
            if brand == "qt" { return "QuickTime" }
            if brand.hasPrefix("3g") { return "3GP" }
            return "MP4"
        case "wav": return "WAV"
        case "w64": return "Wave64"
        case "mp3": return "MP3"
        case "aiff": return "AIFF"
        case "mpeg", "mpegvideo": return "MPEG"
        case "m4v": return "MPEG-4 elementary stream"
        case "avi": return "AVI"
        case "matroska,webm": return "Matroska"
        case "ogg": return "Ogg"
        case "flac": return "FLAC"
        case "aac": return "AAC (ADTS)"
        case "asf": return "ASF"
        case "flv": return "FLV"
        case "mpegts": return "MPEG-TS"
        case "caf": return "CAF"
        case "amr": return "AMR"
        default: return longName.isEmpty ? format : longName
        }
    }

    /// libavformat's demuxer of ISO base media files (MP4, M4A, QuickTime, 3GP).
    static let isoBaseMedia = "mov,mp4,m4a,3gp,3g2,mj2"

    /// A C string in a fixed-size array (a tuple, as Swift imports it), up to its NUL.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }

    static func string(_ array: [CChar]) -> String {
        array.withUnsafeBufferPointer { buffer in
            let end = buffer.firstIndex(of: 0) ?? buffer.count
            return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
