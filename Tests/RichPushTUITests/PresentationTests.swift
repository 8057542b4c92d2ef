import RichPushCore
import Testing

@testable import RichPushTUI

@Suite struct PresentationTests {
    @Test func rowSummaries() {
        let limits = Fixtures.configuredLimits
        let rich = Fixtures.entry(1, Fixtures.richResult(), sentAt: 0)
        #expect(NotificationSummary.status(of: rich, now: 1, configured: limits).text == "png 640x480 47.1 KB")
        let plain = Fixtures.entry(2, Fixtures.timeoutResult(), sentAt: 0)
        #expect(
            NotificationSummary.status(of: plain, now: 1, configured: limits).text
                == "plain text — timeout: no complete image within 5 s")
        let rejected = Fixtures.entry(3, Fixtures.rejectedResult(), sentAt: 0)
        #expect(
            NotificationSummary.status(of: rejected, now: 1, configured: limits).text.hasPrefix(
                "rejected — malformedJSON"))
        var gif = Fixtures.richResult()
        gif.attachment = Attachment(
            url: "u", format: .gif, width: 64, height: 64, frames: 12, bytes: 2_000_000, sha256: "", file: "f")
        #expect(gif.attachment!.summary == "gif 64x64 1.9 MB 12 frames")
    }

    @Test func progressBeforeDuringAndAfterTheDownload() {
        let limits = Fixtures.configuredLimits
        var entry = NotificationEntry(id: 1, file: "x.json", appState: .background, sentAt: 10)
        #expect(NotificationSummary.progress(of: entry, now: 10, configured: limits) == "sending")
        entry.events = [TimelineEvent(at: 0, .received), TimelineEvent(at: 0.5, .extensionStarted)]
        #expect(
            NotificationSummary.progress(of: entry, now: 11, configured: limits)
                == "extension running · 29.5 s left of 30 s budget")
        entry.events.append(TimelineEvent(at: 1, .downloadStarted))
        entry.bytesReceived = 2048
        #expect(
            NotificationSummary.progress(of: entry, now: 13, configured: limits)
                == "downloading 2.0 KB · 3.0 s left of 5 s · 27.5 s left of 30 s budget")
        #expect(
            NotificationSummary.progress(of: entry, now: 30, configured: limits)
                == "downloading 2.0 KB · 0.0 s left of 5 s · 10.5 s left of 30 s budget", "never negative")
        entry.events.append(TimelineEvent(at: 6, .downloadFailed))
        #expect(
            NotificationSummary.progress(of: entry, now: 16.1, configured: limits)
                == "download failed, finishing · 24.4 s left of 30 s budget")
    }

    @Test func formats() {
        #expect(Format.fixed(3.14159, 1) == "3.1")
        #expect(Format.fixed(-0.01, 1) == "0.0")
        #expect(Format.grouped(48_213) == "48,213")
        #expect(Format.grouped(1_048_576) == "1,048,576")
        #expect(Format.timeOfDay(14 * 3600 + 3 * 60 + 22.9) == "14:03:22")
        #expect(Format.timeOfDay(86_400 + 5) == "00:00:05")
        #expect(Format.number(0.75) == "0.75")
        #expect(Format.number(1) == "1")
    }

    @Test func progressCountsDownFromTheNotificationsOwnLimits() {
        var entry = NotificationEntry(id: 1, file: "fallback/extension-expired.json", appState: .background, sentAt: 10)
        entry.events = [
            TimelineEvent(at: 0, .received), TimelineEvent(at: 0, .extensionStarted),
            TimelineEvent(at: 0.1, .downloadStarted),
        ]
        entry.limits = Fixtures.oneSecondBudget
        #expect(
            NotificationSummary.progress(of: entry, now: 10.6, configured: Fixtures.configuredLimits)
                == "downloading 0 B · 9.5 s left of 10 s · 0.4 s left of 1 s budget")
    }

    @Test func theDetailSaysEverythingThePayloadSaid() {
        var result = Fixtures.richResult()
        result.badge = 3
        result.sound = "chime\u{1B}[31m.caf"
        result.threadID = "sale-42"
        result.category = "SALE_ACTIONS"
        result.interruptionLevel = "time-sensitive"
        result.relevanceScore = 0.75
        result.targetContentID = "spring\u{202E}collection"
        let entry = Fixtures.entry(1, result, sentAt: 0)
        let text = DetailContent(entry: entry, configuredLimits: Fixtures.configuredLimits, timeOfDay: 0)
            .lines(width: 80).map(\.text)
        for line in [
            "  Badge       3", "  Sound       chime.caf", "  Thread ID   sale-42", "  Category    SALE_ACTIONS",
            "  Interruption time-sensitive", "  Relevance   0.75", "  Target ID   springcollection",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        let plain = DetailContent(
            entry: Fixtures.entry(2, Fixtures.richResult(), sentAt: 0), configuredLimits: Fixtures.configuredLimits,
            timeOfDay: 0
        ).lines(width: 80).map(\.text)
        #expect(!plain.contains("Also in the payload"), "nothing to say when the payload said nothing more")
    }

    @Test func theDetailShowsTheReceiptSanitisedAndWhetherItWasInTime() {
        var late = Fixtures.richResult()
        late.receipt = ReceiptReport(
            url: "https://stats.example.com/r\u{1B}[2J", pushID: "2018\u{202E}001", status: 200, error: nil,
            completedAfterContentHandler: true)
        let text = DetailContent(
            entry: Fixtures.entry(1, late, sentAt: 0), configuredLimits: Fixtures.configuredLimits, timeOfDay: 0
        ).lines(width: 100).map(\.text)
        for line in [
            "Receipt", "  Sent to     https://stats.example.com/r", "  Body        push_id=2018001",
            "  Answer      HTTP 200", "  Timing      ended after the content handler: on a device it may be lost",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        #expect(!text.joined().contains("\u{1B}"), "no escape sequence reaches the terminal")
        #expect(!text.joined().contains("\u{202E}"), "no bidirectional override reaches the terminal")

        var failed = Fixtures.richResult()
        failed.receipt = ReceiptReport(
            url: "https://stats.example.com/r", pushID: "7", status: 500, error: "HTTP 500",
            completedAfterContentHandler: false)
        let failedText = DetailContent(
            entry: Fixtures.entry(2, failed, sentAt: 0), configuredLimits: Fixtures.configuredLimits, timeOfDay: 0
        ).lines(width: 100).map(\.text)
        #expect(failedText.contains("  Answer      failed: HTTP 500"))
        #expect(failedText.contains("  Timing      in time, before the content handler"))

        let none = DetailContent(
            entry: Fixtures.entry(3, Fixtures.richResult(), sentAt: 0), configuredLimits: Fixtures.configuredLimits,
            timeOfDay: 0
        ).lines(width: 100).map(\.text)
        #expect(!none.contains("Receipt"), "no receipt section when none was sent")
    }

    @Test func theDetailShowsATeamsExtensionItsHandlerCallsAndItsLastOutputSanitised() {
        var result = Fixtures.richResult()
        result.extensionIdentity = ExtensionIdentity(
            kind: .custom, source: "examples/extensions/naive", principalClass: "NotificationService")
        result.contentHandlerCalls = 2
        result.extensionLog = (1...20).map { "line \($0)" } + ["evil \u{1B}[2J\u{202E}end"]
        let text = DetailContent(
            entry: Fixtures.entry(1, result, sentAt: 0), configuredLimits: Fixtures.configuredLimits, timeOfDay: 0
        ).lines(width: 100).map(\.text)
        for line in [
            "Your extension", "  Class       NotificationService", "  From        examples/extensions/naive",
            "  Handler     called 2 times; iOS used the first", "  line 20", "  evil end",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        #expect(!text.contains("  line 13"), "only the last lines of the log")
        #expect(!text.joined().contains("\u{1B}") && !text.joined().contains("\u{202E}"))

        let builtin = DetailContent(
            entry: Fixtures.entry(2, Fixtures.richResult(), sentAt: 0), configuredLimits: Fixtures.configuredLimits,
            timeOfDay: 0
        ).lines(width: 100).map(\.text)
        #expect(!builtin.contains("Your extension"))
    }

    @Test func aNotificationShownWhileItsReceiptIsInFlightSaysSo() {
        var entry = NotificationEntry(
            id: 1, file: "receipts/delayed-receipt-no-image.json", appState: .closed, sentAt: 10,
            preview: NotificationContent(title: "T", subtitle: "", body: "B"))
        entry.events = [
            TimelineEvent(at: 0, .received, "120 bytes, app closed"),
            TimelineEvent(at: 0.001, .extensionStarted),
            TimelineEvent(at: 0.001, .receiptSent, "push_id=1 to https://fixtures.richpush.test/receipts"),
            TimelineEvent(at: 0.002, .contentHandlerCalled, "without attachment"),
            TimelineEvent(at: 0.002, .presented, "plain"),
        ]
        #expect(
            NotificationSummary.progress(of: entry, now: 11, configured: Fixtures.configuredLimits)
                == "shown · display receipt in flight · 29.0 s left of 30 s budget")
    }
}
