import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushNetwork
import Testing

/// The emulated iPhone with the real codecs: real HTTPS downloads from the fixture CDN (its `truncate=` fault
/// cuts images short), then the attachment decoded through the compute pool.
@Suite("Delivery with the codecs, against the fixture CDN")
struct DeliveryDecodingTests {
    static let quietLogger: Logger = {
        var logger = Logger(label: "richpush.tests") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .critical
        return logger
    }()

    /// Delivers one payload per image path (`cat.png?truncate=1500`) with the app in the background, through
    /// the fixture CDN, the real downloader and the real decoder.
    func deliver(_ paths: [String]) async throws -> [DeliveryResult] {
        let cdn = try await FixtureCDN.start(root: fixturesRoot, logger: Self.quietLogger)
        let parent = FileManager.default.temporaryDirectory
            .appendingPathComponent("richpush-codecs-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let store = try AttachmentStore(parent: parent, logger: Self.quietLogger)
        let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn.hostMapping, logger: Self.quietLogger)
        defer {
            store.removeAll()
            try? FileManager.default.removeItem(at: parent)
        }
        let system = NotificationSystem(
            downloader: downloader, configuration: DeliveryConfiguration(downloadTimeout: .seconds(60)),
            logger: Self.quietLogger, decoder: ImageDecoder(), computePool: ComputePool(width: 1))
        var results: [DeliveryResult] = []
        for path in paths {
            let payload = #"""
                {"aps": {"alert": {"title": "Poster", "body": "Doors at 7"}, "mutable-content": 1},
                 "fcm_options": {"image": "https://fixtures.richpush.test/\#(path)"}}
                """#
            results.append(await system.deliver(.file(path, bytes: Array(payload.utf8), appState: .background)))
        }
        await downloader.shutdown()
        await cdn.shutdown()
        return results
    }

    @Test("complete images: rich, decoded, an imageDecoded step after presentation, no hint")
    func complete() async throws {
        let results = try await deliver(["cat.png", "photo.jpg", "photo-progressive.jpg", "spinner.gif"])
        for result in results {
            #expect(result.style == .rich, "\(result.file)")
            #expect(result.attachment?.decoded == true, "\(result.file)")
            #expect(result.attachment?.decodeError == nil)
            #expect(result.hint == nil, "\(result.file): \(result.hint ?? "")")
            let kinds = result.timeline.map(\.kind)
            let presented = try #require(kinds.firstIndex(of: .presented))
            let decoded = try #require(kinds.firstIndex(of: .imageDecoded), "\(result.file): \(kinds)")
            #expect(decoded > presented)
            #expect(!kinds.contains(.imageDecodeFailed))
            let attachment = try #require(result.jsonValue["attachment"])
            #expect(attachment["decoded"] == .bool(true))
            #expect(attachment["decodeError"] == nil, "no decodeError key when decoded")
        }
        #expect(results[3].timeline.first { $0.kind == .imageDecoded }?.detail == "gif 64x64, 8 frames")
    }

    @Test(
        "images cut short by the CDN's truncate= fault: still rich (iOS accepts the file), decoded false, its sentence and a hint",
        arguments: [
            ("cat.png?truncate=1500", "the PNG data ends early"),
            ("photo.jpg?truncate=4000", "the JPEG data ends early"),
            ("photo-progressive.jpg?truncate=5000", "the JPEG data ends early"),
            ("spinner.gif?truncate=3000", "the GIF data ends early"),
            ("bomb.png", "the PNG is 100000x100000 (10000 megapixels), over the 50-megapixel budget"),
        ])
    func damaged(path: String, sentence: String) async throws {
        let result = try #require(try await deliver([path]).first)
        #expect(result.style == .rich)
        #expect(result.fallback == nil)
        let attachment = try #require(result.attachment)
        #expect(attachment.decoded == false)
        #expect(attachment.decodeError == sentence)
        #expect(result.timeline.contains { $0.kind == .imageDecodeFailed && $0.detail == sentence })
        #expect(result.hint == HintEngine.undecodedImage(sentence))
        #expect(result.hint?.contains("cannot be drawn") == true)
        let json = try #require(result.jsonValue["attachment"])
        #expect(json["decoded"] == .bool(false))
        #expect(json["decodeError"] == .string(sentence))
    }
}
