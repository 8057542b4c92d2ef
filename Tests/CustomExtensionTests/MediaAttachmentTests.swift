import Foundation
import RichPushTestSupport
import Testing

/// Audio and video attached by a team's extension, through the real binary, the real compiler, the fixture CDN and
/// FFmpeg: the system reads each file by its container and codecs, checks it against iOS's types and caps, and
/// shows a video's poster frame.
@Suite("Audio and video from a team's extension", .serialized)
struct MediaAttachmentTests {
    static let cache = ExtensionProcessTests.cache
    static let fixtures = repositoryRootPath + "/payloads/extensions/media/fixtures"

    func events(_ result: [String: Any]?) -> [(event: String, detail: String)] {
        (result?["timeline"] as? [[String: Any]] ?? []).map {
            ($0["event"] as? String ?? "", $0["detail"] as? String ?? "")
        }
    }

    func fallback(_ result: [String: Any]?) -> (reason: String?, detail: String?) {
        let fallback = result?["fallback"] as? [String: Any]
        return (fallback?["reason"] as? String, fallback?["detail"] as? String)
    }

    /// Results by payload name.
    func byName(_ run: CommandRun) throws -> [String: [String: Any]] {
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        var byName: [String: [String: Any]] = [:]
        for result in results {
            let file = (result["file"] as? String ?? "") as NSString
            byName[(file.lastPathComponent as NSString).deletingPathExtension] = result
        }
        return byName
    }

    @Test("examples/extensions/media: a poster and a duration for an MP4, each refusal with its reason")
    func example() async throws {
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", "payloads/extensions/media", "--extension", "examples/extensions/media", "--format", "json",
            ],
            environment: ["XDG_CACHE_HOME": Self.cache])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try byName(run)

        let mp4 = results["mp4-poster"]
        #expect(mp4?["style"] as? String == "rich")
        let media = try #require(mp4?["media"] as? [String: Any])
        #expect(media["container"] as? String == "MP4")
        #expect(media["codecs"] as? [String] == ["h264", "aac"])
        #expect(abs((media["duration"] as? Double ?? 0) - 2.0) < 0.1)
        #expect((media["poster"] as? [String: Any])?["width"] as? Int == 64)
        #expect((media["poster"] as? [String: Any])?["height"] as? Int == 48)
        #expect(abs((media["posterTime"] as? Double ?? -1) - 1.0) < 0.05)
        #expect(
            events(mp4).contains {
                $0 == ("attachmentCreated", "public.mpeg-4, MP4 video h264/aac 2.0 s 64x48, poster at 1.0 s")
            }, "\(events(mp4))")
        #expect(events(mp4).contains { $0 == ("presented", "rich, with video") })

        let wav = results["wav-audio"]
        #expect(wav?["style"] as? String == "rich")
        #expect(events(wav).contains { $0 == ("presented", "rich, with audio") })

        // Over the caps: iOS refuses to make the attachment (the extension goes on without it, as its handler sees
        // the error), and the timeline says how far over.
        for (name, reason) in [
            ("mp4-over-50mb", "attachmentInvalidFileSize: 53.5 MB is over the 50 MB limit for video attachments"),
            ("wav-over-5mb", "attachmentInvalidFileSize: 5.3 MB is over the 5 MB limit for audio attachments"),
        ] {
            #expect(results[name]?["style"] as? String == "plain")
            #expect(results[name]?["media"] is NSNull)
            #expect(
                events(results[name]).contains { $0.event == "attachmentRejected" && $0.detail.contains(reason) },
                "\(events(results[name]))")
        }
        // The system reads the bytes, not the name.
        #expect(
            fallback(results["matroska-declared-mp4"]).detail
                == "the file's container is Matroska (h264), not the MPEG-4 movie (public.mpeg-4) it was attached as")
        #expect(
            fallback(results["png-declared-video"]).detail == "the attached file (public.mpeg-4, video) is a PNG image")
        #expect(
            fallback(results["mp4-truncated"]).detail?.hasPrefix(
                "the attached file (public.mpeg-4, video) is truncated: its QuickTime / MOV index runs to byte 8414")
                == true, "\(fallback(results["mp4-truncated"]))")

        let late = results["thumbnail-past-end"]
        #expect(
            events(late).contains {
                $0.event == "attachmentCreated"
                    && $0.detail.hasSuffix(
                        "thumbnail time 30.0 s is past the video's 2.0 s: the poster is its last frame, at 1.9 s")
            }, "\(events(late))")
    }

    /// Attaches the payload's `media.url` (with `media.type` as the type hint), then makes the file in the store
    /// `grow` bytes long: after `UNNotificationAttachment` checked it, as an extension holding its URL can.
    static let growing = """
        import UserNotifications
        class NotificationService: UNNotificationServiceExtension {
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                let content = request.content.mutableCopy() as! UNMutableNotificationContent
                let media = content.userInfo["media"] as! [String: Any]
                let url = URL(string: media["url"] as! String)!
                URLSession.shared.downloadTask(with: url) { location, _, _ in
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + "." + url.pathExtension)
                    try! FileManager.default.moveItem(at: location!, to: file)
                    var options: [AnyHashable: Any] = [:]
                    if let type = media["type"] as? String { options[UNNotificationAttachmentOptionsTypeHintKey] = type }
                    let attachment = try! UNNotificationAttachment(identifier: "media", url: file, options: options)
                    if let grow = media["grow"] as? Int {
                        let handle = try! FileHandle(forWritingTo: attachment.url)
                        try! handle.truncate(atOffset: UInt64(grow))
                        try! handle.close()
                    }
                    content.attachments = [attachment]
                    contentHandler(content)
                }.resume()
            }
        }
        """

    @Test("the system checks the size again when the handler is called: a file grown in the store is refused")
    func grownInTheStore() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("ext/NotificationService.swift", Self.growing)
        func payload(_ media: String) -> String {
            #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1},"media":\#(media)}"#
        }
        _ = try folder.write(
            "payloads/video.json",
            payload(#"{"url":"https://fixtures.richpush.test/clip.mp4","type":"public.mpeg-4","grow":52400000}"#))
        _ = try folder.write(
            "payloads/audio.json", payload(#"{"url":"https://fixtures.richpush.test/tone.wav","grow":5300000}"#))
        _ = try folder.write(
            "payloads/kept.json", payload(#"{"url":"https://fixtures.richpush.test/clip.mp4","grow":49000000}"#))
        let run = try await runExecutable(
            richpushBinary(),
            [
                "replay", folder.path + "/payloads", "--extension", folder.path + "/ext", "--fixtures", Self.fixtures,
                "--format", "json",
            ],
            environment: ["XDG_CACHE_HOME": Self.cache])
        let results = try byName(run)
        #expect(fallback(results["video"]).reason == "attachmentRejected")
        #expect(fallback(results["video"]).detail == "52.4 MB is over the 50 MB limit for video attachments")
        #expect(results["video"]?["style"] as? String == "plain")
        #expect(results["video"]?["media"] is NSNull)
        #expect(
            events(results["video"]).contains {
                $0 == ("attachmentRejected", "public.mpeg-4: 52.4 MB is over the 50 MB limit for video attachments")
            })
        #expect(fallback(results["audio"]).detail == "5.3 MB is over the 5 MB limit for audio attachments")
        // Under the cap, the grown MP4 (a sparse tail after its samples) is still a video iOS shows.
        #expect(results["kept"]?["style"] as? String == "rich", "\(events(results["kept"]))")
        #expect((results["kept"]?["media"] as? [String: Any])?["bytes"] as? Int == 49_000_000)
    }
}
