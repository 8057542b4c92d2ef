import Foundation
import RichPushCore
import Testing
import RichPushTestSupport

/// `richpush replay payloads/sdk --sdk all` through the real binary and the fixture CDN: the corpus whose
/// outcome differs between vendors, checked cell by cell.
@Suite(.serialized) struct SDKMatrixCommandTests {
    static let corpus = "payloads/sdk"

    @Test(.timeLimit(.minutes(2))) func theCorpusMatrixMatchesEveryProfilesExpectation() async throws {
        let run = try await runRichpush(["replay", Self.corpus, "--sdk", "all", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONParser.parse(Array(run.stdout.utf8))
        #expect(json["profiles"] == .array(SDKProfile.names.map { .string($0) }))
        guard case .array(let rows)? = json["payloads"] else {
            Issue.record("no payloads in \(run.stdout.prefix(300))")
            return
        }
        #expect(rows.count == 14)
        #expect(json["summary"]?["total"] == .number(Double(14 * SDKProfile.all.count)))
        #expect(json["summary"]?["failed"] == .number(0))
        #expect(json["summary"]?["unchecked"] == .number(0))

        func cell(_ file: String, _ profile: String) -> (outcome: String?, reason: String?) {
            let row = rows.first { $0["file"]?.stringValue == "\(Self.corpus)/\(file)" }
            let cell = row?["results"]?[profile]
            return (cell?["outcome"]?.stringValue, cell?["reason"]?.stringValue)
        }
        // The same bytes with no extension, served as application/octet-stream: only the extensions that name
        // the file from the payload's type or sniff it show the image.
        let octet = "no-extension-served-as-octet-stream.json"
        #expect(cell(octet, "requirement") == ("plain", "notAnImage"))
        #expect(cell(octet, "firebase") == ("plain", "attachmentRejected"))
        #expect(cell(octet, "onesignal") == ("plain", "unsupportedImageType"))
        #expect(cell(octet, "airship") == ("rich", nil))
        #expect(cell(octet, "braze") == ("rich", nil))
        #expect(cell(octet, "batch") == ("rich", nil))
        // A camera JPEG (Exif, FF D8 FF E1) with no extension: Airship's magic bytes know only E0/E2/E3.
        #expect(cell("exif-jpeg-served-as-octet-stream.json", "airship") == ("plain", "attachmentRejected"))
        #expect(cell("exif-jpeg-served-as-octet-stream.json", "braze") == ("rich", nil))
        // 6 s is past the requirement's 5 s deadline and within every vendor's.
        #expect(cell("six-seconds.json", "requirement") == ("plain", "timeout"))
        #expect(cell("six-seconds.json", "batch") == ("rich", nil))
        // 12 MB: the requirement refuses it before reading; the vendors download it and iOS refuses it.
        #expect(cell("twelve-megabytes.json", "requirement") == ("plain", "tooLarge"))
        #expect(cell("twelve-megabytes.json", "onesignal") == ("plain", "attachmentRejected"))
        // Two URLs, one a 404: neither vendor checks the status, so each attaches the error page as an image. OneSignal
        // reads `gone` first and shows no image; Airship's photo comes first and shows.
        #expect(cell("several-urls-one-missing.json", "onesignal") == ("plain", "attachmentRejected"))
        #expect(cell("several-urls-one-missing.json", "airship") == ("rich", nil))
        // Notificare reads `attachment.uri`; Kumulos only its own messages.
        #expect(cell("notificare-attachment-uri.json", "notificare") == ("rich", nil))
        #expect(cell("notificare-no-extension-octet-stream.json", "notificare") == ("plain", "unsupportedImageType"))
        // Infobip names the file from the URL's path only: no extension, no attachment iOS shows.
        #expect(cell("no-extension-served-as-jpeg.json", "infobip") == ("plain", "attachmentRejected"))
        #expect(cell("no-extension-served-as-jpeg.json", "klaviyo") == ("rich", nil))
        // Braze without ab.att.type shows the text only, and the hint says why.
        let braze = rows.first { $0["file"]?.stringValue == "\(Self.corpus)/braze-ab-att-without-type.json" }
        #expect(
            braze?["results"]?["braze"]?["hint"]?.stringValue?.contains("needs ab.att.type beside ab.att.url") == true)
    }

    @Test(.timeLimit(.minutes(2))) func textAndJUnitShowTheSameMatrix() async throws {
        let text = try await runRichpush(["replay", Self.corpus, "--sdk", "all"])
        #expect(text.status == 0, "\(text.stderr)")
        let header = try #require(text.stdoutLines.first { $0.hasPrefix("payload") })
        #expect(header.split(separator: " ").map(String.init) == ["payload"] + SDKProfile.names)
        let octet = try #require(text.stdoutLines.first { $0.contains("no-extension-served-as-octet-stream") })
        #expect(
            octet.split(separator: " ").map(String.init) == [
                "payloads/sdk/no-extension-served-as-octet-stream.json", "notAnImage", "attachmentRejected",
                "unsupportedImageType", "rich", "rich", "rich", "attachmentRejected", "attachmentRejected", "rich",
                "attachmentRejected", "attachmentRejected", "plain", "unsupportedImageType", "unsupportedImageType",
                "attachmentRejected", "rich",
            ])
        #expect(text.stdoutLines.last { !$0.isEmpty } == "\(14 * SDKProfile.all.count) passed, 0 failed")

        let folder = try TemporaryFolder()
        let junit = try await runRichpush([
            "replay", Self.corpus, "--sdk", "all", "--format", "junit", "--output", "\(folder.path)/matrix.xml",
        ])
        #expect(junit.status == 0, "\(junit.stderr)")
        let xml = try String(contentsOfFile: "\(folder.path)/matrix.xml", encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 14 * SDKProfile.all.count)
        #expect(xml.contains(#"<testsuite name="firebase" tests="14" failures="0""#))
        #expect(
            xml.contains(#"<testcase classname="airship" name="payloads/sdk/no-extension-served-as-octet-stream.json""#)
        )
    }

    @Test func aMismatchedCellFailsTheRunAndSaysWhichProfile() async throws {
        let folder = try TemporaryFolder()
        let body = try String(contentsOfFile: "\(repositoryRoot)/\(Self.corpus)/http-url.json", encoding: .utf8)
        try folder.write("http.json", body)
        try folder.write(
            "http.expect.json", #"{"expect": {}, "sdk": {"firebase": {"style": "rich"}, "braze": {"style": "plain"}}}"#)
        let run = try await runRichpush(["replay", folder.path, "--sdk", "all"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL  \(folder.path)/http.json  firebase"))
        #expect(run.stdout.contains(#"style: expected "rich", got "plain""#))
        // requirement (the file's own `expect`, empty) and braze pass; firebase fails.
        #expect(run.stdoutLines.last { !$0.isEmpty } == "2 passed, 1 failed")
    }

    @Test func theMatrixRefusesFormatsItDoesNotHave() async throws {
        let run = try await runRichpush(["replay", Self.corpus, "--sdk", "all", "--format", "html"])
        #expect(run.status == 64 || run.status == 2)
        #expect(run.stderr.contains("--sdk all prints a matrix as text, json or junit, not html"))
        let unknown = try await runRichpush(["replay", Self.corpus, "--sdk", "fcm"])
        #expect(unknown.stderr.contains("--sdk must be one of requirement, firebase"))
    }
}
