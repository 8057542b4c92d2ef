import Foundation
import RichPushTestSupport
import Testing

/// `richpush replay --device-matrix --format html`: the report's page, a card per payload, each with its row of the
/// matrix (a column per phone state). The unit rules are in HTMLReporterTests.
@Suite struct DeviceMatrixHTMLCommandTests {
    @Test func aPageWithATablePerPayloadAndSixStates() async throws {
        let folder = try TemporaryFolder()
        let page = folder.url.appendingPathComponent("matrix.html").path
        let run = try await runRichpush([
            "replay", "payloads/phone", "--device-matrix", "--format", "html", "--output", page,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Report written to \(page)\n"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("http-equiv=\"Content-Security-Policy\"") && !html.contains("<script"))
        let payloads = try FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/payloads/phone")
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expect.json") }
        let cards = html.components(separatedBy: "<article ").dropFirst()
        #expect(cards.count == payloads.count)
        for card in cards {
            #expect(card.components(separatedBy: "<table class=\"dm-table\">").count - 1 == 1)
            let header = card.components(separatedBy: "<th scope=\"col\">").dropFirst().map {
                String($0.prefix { $0 != "<" })
            }
            #expect(header == ["unlocked", "locked", "focus", "summary", "silent", "night"])
        }
        let passive = try #require(cards.first { $0.contains("payloads/phone/passive-quiet.json") })
        let outcomes = passive.components(separatedBy: "<td ").dropFirst().map { cell in
            String(cell.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        }
        // Passive is quiet where nothing holds it; a Focus holds it and the summary keeps it (the HIG row's "no"s).
        #expect(outcomes == ["quiet", "quiet", "held by Focus", "summary", "quiet", "held by Focus"])
        #expect(passive.contains("title=\"passive: added to Notification Center without lighting the screen"))
    }
}
