import Foundation
import RichPushCore
import RichPushLibrary
import RichPushReplay
import Testing

/// The reports written piece by piece while a replay runs are the documents the whole-report renderers write.
@Suite struct ReportStreamTests {
    static let items: [ReplayItem] = [
        ReplayItem(
            file: PayloadFile(path: "p/a.json"),
            result: DeliveryResult(
                file: "p/a.json", appState: .background, style: .plain,
                content: NotificationContent(title: "Line\nbreak \"quoted\"", subtitle: "", body: "b"),
                hint: "a hint"),
            verdict: .passed),
        ReplayItem(
            file: PayloadFile(path: "p/deeper/b.json"),
            result: DeliveryResult(file: "p/deeper/b.json", appState: .closed, style: .silent),
            verdict: .failed(["style: expected \"rich\", got \"silent\""])),
        ReplayItem(
            file: PayloadFile(path: "p/c.json"), result: nil, verdict: .failed(["p/c.json: is a FIFO"]),
            error: "p/c.json: is a FIFO"),
        ReplayItem(
            file: PayloadFile(path: "p/d.json"),
            result: DeliveryResult(file: "p/d.json", appState: .foreground, style: .plain), verdict: .unchecked),
    ]

    /// The report as `replay` writes it while running: the header (once the counts are known), each piece in
    /// path order, the footer.
    static func streamed(_ format: ReplayFormat, _ items: [ReplayItem]) -> String {
        let report = ReplayReport(items: items, elapsed: 1.25)
        let stream = ReportStream(format: format, paths: items.map(\.file.path))
        let pieces = items.map(stream.prepare).enumerated().map { stream.text(of: $0.element, position: $0.offset) }
        return stream.header(report.summary) + pieces.joined() + stream.footer(report.summary)
    }

    @Test func theJSONArrayWrittenElementByElementIsThePrettyDocument() throws {
        for items in [Self.items, [], [Self.items[0]]] {
            let streamed = Self.streamed(.json, items)
            let objects = items.map { item -> JSONValue in
                item.result?.jsonValue
                    ?? ["file": .string(item.file.path), "delivered": false, "error": .string(item.error ?? "")]
            }
            #expect(streamed == JSONWriter.string(.array(objects), pretty: true) + "\n")
            #expect(try JSONParser.parse(Array(streamed.utf8)) == .array(objects))
        }
    }

    @Test func jsonLinesAreOneCompactObjectPerPayload() throws {
        let lines = Self.streamed(.jsonl, Self.items).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.items.count + 1)
        #expect(lines.last == "")
        for (line, item) in zip(lines, Self.items) {
            guard case .object(let object) = try JSONParser.parse(Array(line.utf8)) else {
                Issue.record("not an object: \(line)")
                continue
            }
            #expect(object["file"] == .string(item.file.path))
        }
    }

    @Test func textAndJUnitStreamedAreTheWholeReports() {
        let report = ReplayReport(items: Self.items, elapsed: 1.25)
        #expect(Self.streamed(.text, Self.items) == TextReporter().render(report))
        #expect(Self.streamed(.junit, Self.items) == JUnitReporter().render(report))
        let text = Self.streamed(.text, Self.items)
        #expect(text.hasSuffix("\nReplayed 4 payloads in 1.3 s (1 without expectations)\n1 passed, 2 failed\n"))
        // Paths are padded to the longest path in the corpus, known before any result.
        #expect(text.contains("p/a.json         \"Line break"))
        let junit = Self.streamed(.junit, Self.items)
        #expect(junit.contains(#"<testsuites name="richpush replay" tests="3" failures="2">"#))
        #expect(!junit.contains("d.json"), "a payload without expectations is not a test case")
    }

    @Test func aShownVideoIsSummedUpNotCalledPlainText() {
        var result = DeliveryResult(
            file: "v.json", appState: .background, style: .rich,
            content: NotificationContent(title: "Trailer", subtitle: "", body: ""))
        result.media = MediaAttachment(
            kind: .video, type: "public.mpeg-4", container: "MP4", codecs: ["h264", "aac"], duration: 2, bytes: 8414,
            file: "/tmp/v.mp4", width: 64, height: 48)
        #expect(TextReporter.summary(of: result) == "\"Trailer\" MP4 video h264/aac 2.0 s 64x48")
    }
}
