import RichPushCore
import Testing

@testable import RichPushTUI

@Suite struct PresentationTests {
    @Test func everyReasonHasASentenceForAProductOwner() {
        let limits = DeliveryLimits()
        for reason in FallbackReason.allCases {
            let sentence = ReasonExplanation.sentence(for: reason, limits: limits)
            #expect(sentence.hasSuffix("."), "\(reason)")
            #expect(!sentence.contains(reason.rawValue), "no reason codes in the sentence: \(reason)")
        }
        for reason in RejectionReason.allCases {
            #expect(ReasonExplanation.sentence(for: reason).hasSuffix("."))
        }
        #expect(
            ReasonExplanation.sentence(for: .timeout, limits: limits)
                == "The image took longer than 5 seconds to download, so the phone showed the text without it.")
        #expect(ReasonExplanation.sentence(for: .tooLarge, limits: limits).contains("10 MB"))
        let quick = DeliveryLimits(downloadTimeout: 0.25, extensionBudget: 2)
        #expect(ReasonExplanation.sentence(for: .timeout, limits: quick).contains("250 milliseconds"))
        #expect(ReasonExplanation.sentence(for: .extensionExpired, limits: quick).contains("2 seconds"))
    }

    @Test func rowSummaries() {
        let limits = DeliveryLimits()
        let rich = Fixtures.entry(1, Fixtures.richResult(), sentAt: 0)
        #expect(NotificationSummary.status(of: rich, now: 1, limits: limits).text == "png 640x480 47.1 KB")
        let plain = Fixtures.entry(2, Fixtures.timeoutResult(), sentAt: 0)
        #expect(
            NotificationSummary.status(of: plain, now: 1, limits: limits).text
                == "plain text — timeout: no complete image within 5 s")
        let rejected = Fixtures.entry(3, Fixtures.rejectedResult(), sentAt: 0)
        #expect(
            NotificationSummary.status(of: rejected, now: 1, limits: limits).text.hasPrefix("rejected — malformedJSON"))
        var gif = Fixtures.richResult()
        gif.attachment = Attachment(
            url: "u", format: .gif, width: 64, height: 64, frames: 12, bytes: 2_000_000, sha256: "", file: "f")
        #expect(gif.attachment!.summary == "gif 64x64 1.9 MB 12 frames")
    }

    @Test func progressBeforeDuringAndAfterTheDownload() {
        let limits = DeliveryLimits()
        var entry = NotificationEntry(id: 1, file: "x.json", appState: .background, sentAt: 10)
        #expect(NotificationSummary.progress(of: entry, now: 10, limits: limits) == "sending")
        entry.events = [TimelineEvent(at: 0, .received), TimelineEvent(at: 0.5, .extensionStarted)]
        #expect(
            NotificationSummary.progress(of: entry, now: 11, limits: limits)
                == "extension running · 29.5 s left of 30 s budget")
        entry.events.append(TimelineEvent(at: 1, .downloadStarted))
        entry.bytesReceived = 2048
        #expect(
            NotificationSummary.progress(of: entry, now: 13, limits: limits)
                == "downloading 2.0 KB · 3.0 s left of 5 s · 27.5 s left of 30 s budget")
        #expect(
            NotificationSummary.progress(of: entry, now: 30, limits: limits)
                == "downloading 2.0 KB · 0.0 s left of 5 s · 10.5 s left of 30 s budget", "never negative")
        entry.events.append(TimelineEvent(at: 6, .downloadFailed))
        #expect(
            NotificationSummary.progress(of: entry, now: 16.1, limits: limits)
                == "download failed, finishing · 24.4 s left of 30 s budget")
    }

    @Test func formats() {
        #expect(Format.fixed(3.14159, 1) == "3.1")
        #expect(Format.fixed(-0.01, 1) == "0.0")
        #expect(Format.bytes(512) == "512 B")
        #expect(Format.grouped(48_213) == "48,213")
        #expect(Format.grouped(1_048_576) == "1,048,576")
        #expect(Format.timeOfDay(14 * 3600 + 3 * 60 + 22.9) == "14:03:22")
        #expect(Format.timeOfDay(86_400 + 5) == "00:00:05")
        #expect(Format.limit(0.25) == "250 ms")
        #expect(Format.limit(2.5) == "2.5 s")
    }
}
