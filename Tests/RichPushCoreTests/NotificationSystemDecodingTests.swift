import Foundation
import RichPushCore
import Synchronization
import Testing

/// A decoder double: answers with a fixed verdict and records what it was asked and how busy the pool was.
final class ScriptedImageDecoder: ImageDecoding {
    let verdict: DecodeVerdict
    let pool: ComputePool?
    private let calls = Mutex<[(file: URL, format: ImageFormat, poolRunning: Int)]>([])

    init(_ verdict: DecodeVerdict, pool: ComputePool? = nil) {
        self.verdict = verdict
        self.pool = pool
    }

    func verify(_ file: URL, format: ImageFormat) async -> DecodeVerdict {
        let running = pool?.running ?? 0
        calls.withLock { $0.append((file, format, running)) }
        return verdict
    }

    var asked: [(file: URL, format: ImageFormat, poolRunning: Int)] { calls.withLock { $0 } }
}

@Suite("NotificationSystem: decoding the attachment")
struct NotificationSystemDecodingTests {
    static let richPayload = Array(
        #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "fcm_options": {"image": "https://cdn.example.com/a.gif"}}"#
            .utf8)

    @Test("a decoded attachment: decoded true, an imageDecoded step after presented, run inside the compute pool")
    func decoded() async {
        let pool = ComputePool(width: 1)
        let decoder = ScriptedImageDecoder(.decoded, pool: pool)
        let system = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(format: .gif, width: 64, height: 64, frames: 8),
            decoder: decoder, computePool: pool)
        let result = await system.deliver(.file("a.json", bytes: Self.richPayload, appState: .background))
        #expect(result.style == .rich)
        #expect(result.attachment?.decoded == true)
        #expect(result.attachment?.decodeError == nil)
        #expect(result.hint == nil)
        #expect(OutcomeExplanation.sentence(for: result) == nil, "a decoded picture needs no explanation")
        let asked = decoder.asked
        #expect(asked.count == 1)
        #expect(asked.first?.format == .gif)
        #expect(asked.first?.file.path == result.attachment?.file)
        #expect(asked.first?.poolRunning == 1, "the decode holds a slot of the compute pool")
        #expect(pool.running == 0, "and gives it back")
        let kinds = result.events
        #expect(kinds.suffix(2) == [.presented, .imageDecoded])
        #expect(result.timeline.last?.detail == "gif 64x64, 8 frames")
        #expect(result.jsonValue["attachment"]?["decoded"] == .bool(true))
        #expect(result.jsonValue["attachment"]?["decodeError"] == nil)
    }

    @Test("an attachment that does not decode stays rich, says why, and the hint says what a person sees")
    func notDecoded() async {
        let sentence = "the GIF data ends early"
        let system = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(format: .gif),
            decoder: ScriptedImageDecoder(.notDecoded(sentence)))
        let result = await system.deliver(.file("a.json", bytes: Self.richPayload, appState: .closed))
        #expect(result.style == .rich)
        #expect(result.fallback == nil)
        #expect(result.attachment?.decoded == false)
        #expect(result.attachment?.decodeError == sentence)
        #expect(result.attachment?.summary.hasSuffix(" not decoded") == true)
        #expect(result.hint == HintEngine.undecodedImage(sentence))
        #expect(OutcomeExplanation.sentence(for: result) == OutcomeExplanation.undecodedImage)
        #expect(result.hint?.contains(sentence) == true)
        #expect(result.timeline.last == TimelineEvent(at: result.timeline.last?.at ?? 0, .imageDecodeFailed, sentence))
        #expect(result.jsonValue["attachment"]?["decoded"] == .bool(false))
        #expect(result.jsonValue["attachment"]?["decodeError"] == .string(sentence))
    }

    @Test("with a verdict cache, an attachment with the same bytes as an earlier one reuses its verdict and says so")
    func verdictReused() async {
        let decoder = ScriptedImageDecoder(.decoded)
        let system = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(), decoder: decoder, verdicts: DecodeVerdictCache())
        let first = await system.deliver(.file("a.json", bytes: Self.richPayload, appState: .background))
        let second = await system.deliver(.file("b.json", bytes: Self.richPayload, appState: .background))
        #expect(decoder.asked.count == 1, "the same SHA-256 is decoded once")
        #expect(first.attachment?.decoded == true && second.attachment?.decoded == true)
        #expect(first.timeline.last?.detail == "png 640x480")
        #expect(second.timeline.last?.kind == .imageDecoded)
        #expect(second.timeline.last?.detail == "png 640x480, the verdict of an earlier attachment with the same bytes")
    }

    @Test("without a decoder nothing changes: no decoded key, no decode step")
    func withoutDecoder() async {
        let result = await NotificationSystem(downloader: ScriptedDownloader.succeeding()).deliver(
            .file("a.json", bytes: Self.richPayload, appState: .background))
        #expect(result.style == .rich)
        #expect(result.attachment?.decoded == nil)
        #expect(result.jsonValue["attachment"]?["decoded"] == nil)
        #expect(!result.events.contains(.imageDecoded) && !result.events.contains(.imageDecodeFailed))
    }

    @Test("nothing is decoded when iOS showed no attachment (a refused one, a failed download, the foreground)")
    func onlyShownAttachments() async {
        let decoder = ScriptedImageDecoder(.decoded)
        let oversized = NotificationSystem(
            downloader: ScriptedDownloader.succeeding(bytes: 11 * 1024 * 1024),
            configuration: DeliveryConfiguration(downloadMaxBytes: 20 * 1024 * 1024), decoder: decoder)
        let refused = await oversized.deliver(.file("a.json", bytes: Self.richPayload, appState: .background))
        #expect(refused.fallback?.reason == .attachmentRejected)
        let failing = NotificationSystem(
            downloader: ScriptedDownloader.failing(.httpStatus, "HTTP 404"), decoder: decoder)
        _ = await failing.deliver(.file("a.json", bytes: Self.richPayload, appState: .background))
        _ = await failing.deliver(.file("a.json", bytes: Self.richPayload, appState: .foreground))
        #expect(decoder.asked.isEmpty)
    }
}
