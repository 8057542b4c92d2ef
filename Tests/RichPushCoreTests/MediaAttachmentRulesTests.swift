import Foundation
import RichPushCore
import Testing

/// iOS's rules for audio and video attachments (Apple's `UNNotificationAttachment` table: AIFF, WAV, MP3 and MPEG-4
/// audio up to 5 MB; MPEG, MPEG-2, MPEG-4 and AVI video up to 50 MB), applied to what FFmpeg read of the file.
@Suite("Audio and video attachments by iOS's rules")
struct MediaAttachmentRulesTests {
    static func video(
        _ container: String = "MP4", type: String = "public.mpeg-4", bytes: Int = 8414,
        codecs: [String] = ["h264", "aac"]
    ) -> MediaAttachment {
        MediaAttachment(
            kind: .video, type: type, container: container, codecs: codecs, duration: 2, bytes: bytes,
            file: "/tmp/a.mp4", width: 64, height: 48)
    }

    static func audio(_ container: String = "WAV", type: String = "com.microsoft.waveform-audio", bytes: Int = 8044)
        -> MediaAttachment
    {
        MediaAttachment(
            kind: .audio, type: type, container: container, codecs: ["pcm_s16le"], duration: 0.5, bytes: bytes,
            file: "/tmp/a.wav")
    }

    static let both = MediaStreams(audio: true, video: true)
    static let sound = MediaStreams(audio: true, video: false)

    @Test("the size cap of each kind, the reason naming the size and the limit")
    func sizeCaps() {
        #expect(MediaAttachmentRules.rejection(for: Self.video(bytes: 50_000_000), streams: Self.both) == nil)
        #expect(
            MediaAttachmentRules.rejection(for: Self.video(bytes: 52_400_000), streams: Self.both)
                == "52.4 MB is over the 50 MB limit for video attachments")
        // One byte over: one decimal would read as the limit itself, so the bytes are given.
        #expect(
            MediaAttachmentRules.rejection(for: Self.video(bytes: 50_000_001), streams: Self.both)
                == "50000001 bytes is over the 50 MB limit for video attachments")
        #expect(MediaAttachmentRules.rejection(for: Self.audio(bytes: 5_000_000), streams: Self.sound) == nil)
        #expect(
            MediaAttachmentRules.rejection(for: Self.audio(bytes: 5_250_124), streams: Self.sound)
                == "5.3 MB is over the 5 MB limit for audio attachments")
    }

    @Test("the container must be the one the type stands for")
    func containers() {
        #expect(
            MediaAttachmentRules.rejection(for: Self.video("Matroska", codecs: ["h264"]), streams: Self.both)
                == "the file's container is Matroska (h264), not the MPEG-4 movie (public.mpeg-4) it was attached as")
        #expect(
            MediaAttachmentRules.rejection(for: Self.video("QuickTime"), streams: Self.both)?.hasPrefix(
                "the file's container is QuickTime") == true)
        #expect(
            MediaAttachmentRules.rejection(for: Self.audio("MP3"), streams: Self.sound)
                == "the file's container is MP3 (pcm_s16le), not the Waveform audio (com.microsoft.waveform-audio) it was attached as"
        )
        let accepted: [(MediaAttachment, MediaStreams)] = [
            (Self.video("MPEG", type: "public.mpeg"), Self.both),
            (Self.video("MPEG", type: "public.mpeg-2-video"), Self.both),
            (Self.video("AVI", type: "public.avi"), Self.both),
            (Self.audio("AIFF", type: "public.aiff-audio"), Self.sound),
            (Self.audio("MP3", type: "public.mp3"), Self.sound),
            (Self.audio("M4A", type: "public.mpeg-4-audio"), Self.sound),
            (Self.audio("MP4", type: "public.mpeg-4-audio"), Self.sound),
        ]
        for (media, streams) in accepted {
            #expect(MediaAttachmentRules.rejection(for: media, streams: streams) == nil, "\(media.type)")
        }
    }

    @Test("video needs a video stream; audio needs audio and no video")
    func streams() {
        #expect(
            MediaAttachmentRules.rejection(
                for: Self.video(codecs: ["aac"]), streams: MediaStreams(audio: true, video: false))
                == "the file has no video stream (aac), and MPEG-4 movie (public.mpeg-4) is video")
        #expect(
            MediaAttachmentRules.rejection(
                for: Self.audio("MP4", type: "public.mpeg-4-audio"), streams: Self.both)?.hasSuffix(
                    "is audio: attach it as video") == true)
    }

    @Test("the result's media: every key, the poster as file and size, seconds to the millisecond")
    func json() throws {
        var media = Self.video()
        media.poster = DownloadedImage(
            file: URL(fileURLWithPath: "/tmp/a-poster.png"), format: .png, width: 64, height: 48, frames: 1,
            bytes: 100, sha256: "", servedContentType: nil)
        media.posterTime = 1.0000004
        let object = try #require(media.jsonValue.objectValue)
        #expect(
            Array(object.keys) == [
                "kind", "type", "container", "codecs", "duration", "bytes", "file", "width", "height", "poster",
                "posterTime",
            ])
        #expect(object["kind"] == "video")
        #expect(object["codecs"] == .array(["h264", "aac"]))
        #expect(object["poster"]?["file"] == "/tmp/a-poster.png")
        #expect(object["poster"]?["width"] == 64)
        #expect(object["posterTime"] == 1)
        #expect(Self.audio().jsonValue["poster"] == .null)
        #expect(Self.audio().jsonValue["width"] == .null)
        #expect(media.summary == "MP4 video h264/aac 2.0 s 64x48, poster at 1.0 s")
    }
}
