import Foundation
import RichPushCore
import RichPushLibrary
import RichPushReplay
import Testing

/// The matrix runner and its three formats, with a downloader double; the corpus itself goes through the real
/// binary and the fixture CDN in `SDKMatrixCommandTests`.
@Suite struct SDKMatrixTests {
    /// Answers every URL with a PNG served as `contentType`; the file keeps its name for the profiles used here.
    struct PNGDownloader: ImageDownloading {
        var contentType: String

        func download(
            _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
        ) async throws -> DownloadedImage {
            if limits.contentTypeRule == .imageOnly, !contentType.hasPrefix("image/") {
                throw DownloadFailure(.notAnImage, "served \(contentType)")
            }
            return DownloadedImage(
                file: URL(fileURLWithPath: "/tmp/richpush-matrix-test/\(UUID().uuidString).png"), format: .png,
                width: 4, height: 4, frames: 1, bytes: 100, sha256: "", servedContentType: contentType)
        }
    }

    static let body = #"""
        {"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1},
         "fcm_options": {"image": "https://cdn.test/cat.png"}}
        """#

    func loaded(_ path: String, expectation: String?) throws -> LoadedPayload {
        var payload = LoadedPayload(file: PayloadFile(path: path), bytes: Array(Self.body.utf8))
        if let expectation { payload.expectation = try Expectation.parse(Array(expectation.utf8)) }
        return payload
    }

    func matrix(_ payloads: [LoadedPayload], contentType: String = "application/octet-stream") async -> ReplayMatrix {
        let system = NotificationSystem(downloader: PNGDownloader(contentType: contentType))
        return await ReplayMatrixRunner(
            runner: ReplayRunner(system: system), profiles: [.requirement, SDKProfile(Firebase())]
        )
        .run(payloads)
    }

    @Test func eachPayloadRunsOncePerProfileAndEachCellIsCheckedAgainstItsOwnPartialResult() async throws {
        let checked = try loaded(
            "sdk/cat.json",
            expectation: #"""
                {"expect": {"style": "plain"},
                 "sdk": {"requirement": {"style": "plain", "fallback": {"reason": "notAnImage"}},
                         "firebase": {"style": "plain"}}}
                """#)
        let bare = try loaded("sdk/bare.json", expectation: nil)
        let result = await matrix([checked, bare])
        #expect(result.rows.count == 2)
        #expect(result.rows[0].cells.map(\.column.name) == ["requirement", "firebase"])
        #expect(result.rows[0].cells.map(\.outcome) == ["plain", "rich"])
        #expect(result.rows[0].cells[0].reason == "notAnImage")
        #expect(result.rows[0].cells[0].verdict == .passed)
        #expect(result.rows[0].cells[1].failed, "Firebase shows the image the expectation says it does not")
        #expect(result.rows[1].cells.allSatisfy { $0.verdict == .unchecked })
        #expect(result.summary.failed == 1)
        #expect(result.summary.passed == 1)
        #expect(result.summary.unchecked == 2)
    }

    @Test func withoutAnSdkEntryOnlyTheFilesOwnProfileUsesExpect() async throws {
        let own = try loaded(
            "sdk/own.json", expectation: #"{"given": {"sdk": "firebase"}, "expect": {"style": "rich"}}"#)
        let result = await matrix([own])
        #expect(result.rows[0].cells.map(\.verdict) == [.unchecked, .passed])
    }

    @Test func theThreeFormatsShowEveryCell() async throws {
        let payload = try loaded(
            "sdk/cat.json",
            expectation: #"{"expect": {}, "sdk": {"requirement": {"style": "rich"}, "firebase": {"style": "rich"}}}"#)
        let result = await matrix([payload])

        let text = ReplayMatrixReporter(format: .text).render(result)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("payload") && $0.contains("requirement") && $0.contains("firebase") })
        let row = try #require(lines.first { $0.hasPrefix("sdk/cat.json") })
        #expect(row.contains("notAnImage *"))
        #expect(row.hasSuffix("rich"))
        #expect(text.contains("FAIL  sdk/cat.json  requirement"))
        #expect(text.hasSuffix("1 passed, 1 failed\n"))

        let json = try JSONParser.parse(Array(ReplayMatrixReporter(format: .json).render(result).utf8))
        #expect(json["profiles"] == .array([.string("requirement"), .string("firebase")]))
        guard case .array(let rows)? = json["payloads"] else {
            Issue.record("no payloads array")
            return
        }
        let cells = rows.first?["results"]
        #expect(cells?["requirement"]?["outcome"] == .string("plain"))
        #expect(cells?["requirement"]?["reason"] == .string("notAnImage"))
        #expect(cells?["requirement"]?["verdict"] == .string("failed"))
        #expect(cells?["firebase"]?["outcome"] == .string("rich"))
        #expect(json["summary"]?["failed"] == .number(1))

        let xml = ReplayMatrixReporter(format: .junit).render(result)
        #expect(xml.contains(#"<testsuite name="requirement" tests="1" failures="1""#))
        #expect(xml.contains(#"<testsuite name="firebase" tests="1" failures="0""#))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2, "one test case per payload and profile")
        #expect(xml.contains(#"<testcase classname="firebase" name="sdk/cat.json""#))
    }

    @Test func anExpectationsSdkObjectNamesKnownProfilesWithPartialResults() throws {
        let parsed = try Expectation.parse(Array(#"{"expect": {}, "sdk": {"braze": {"style": "rich"}}}"#.utf8))
        #expect(parsed.bySDK == ["braze": ["style": .string("rich")]])
        for (document, problem) in [
            (#"{"expect": {}, "sdk": {"fcm": {}}}"#, #"unknown profile "sdk.fcm"; profiles are "requirement""#),
            (#"{"expect": {}, "sdk": {"braze": "rich"}}"#, #""sdk.braze" must be an object"#),
            (#"{"expect": {}, "sdk": []}"#, #""sdk" must be an object of partial results by profile"#),
        ] {
            #expect(throws: ExpectationError.self) { try Expectation.parse(Array(document.utf8)) }
            do {
                _ = try Expectation.parse(Array(document.utf8))
            } catch {
                #expect(error.message.hasPrefix(problem), "\(error.message)")
            }
        }
    }
}
