import Foundation
import RichPushTestSupport
import Testing

/// `richpush replay` on paths that hold no payload: a typo in a CI script must not stay green (pytest exits 5 when
/// it collects nothing). Payloads skipped for their `given.extension` are not "nothing": the note says why.
@Suite struct ReplayEmptyTests {
    static let payload = #"{"aps": {"alert": {"title": "T", "body": "B"}}}"#

    @Test("an empty folder exits 2 with one line naming it, and no report")
    func emptyFolder() async throws {
        let folder = try TemporaryFolder()
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 2, "\(run)")
        #expect(
            run.stderr
                == "richpush replay: no payloads in \(folder.path) (payloads are *.json and *.apns files, not *.expect.json)\n"
        )
        #expect(run.stdout.isEmpty, "no summary of a replay that did not happen: \(run.stdout)")
    }

    @Test("several paths with nothing in them are named in the one line; the report file is not created")
    func severalPathsNoReport() async throws {
        let folder = try TemporaryFolder()
        try folder.write("one/notes.txt", "not a payload")
        try folder.write("two/.hidden.json", Self.payload)
        let report = "\(folder.path)/report.xml"
        let run = try await runRichpush([
            "replay", "\(folder.path)/one", "\(folder.path)/two", "--format", "junit", "--output", report,
        ])
        #expect(run.status == 2, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(
            lines.first?.hasPrefix("richpush replay: no payloads in \(folder.path)/one, \(folder.path)/two") == true)
        #expect(!FileManager.default.fileExists(atPath: report))
    }

    @Test("a folder holding only an expectation: its note, then the error")
    func onlyAnExpectation() async throws {
        let folder = try TemporaryFolder()
        try folder.write("lost.expect.json", #"{"expect": {"style": "rich"}}"#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("lost.expect.json: no payload beside it"))
        #expect(run.stderr.contains("richpush replay: no payloads in \(folder.path) "))
    }

    @Test("a folder holding only payloads written for a team's extension is not an error; the note says why")
    func onlyPayloadsForAnExtension() async throws {
        let folder = try TemporaryFolder()
        for name in ["a", "b"] {
            try folder.write("cases/\(name).json", Self.payload)
            try folder.write(
                "cases/\(name).expect.json", #"{"given": {"extension": "../ext"}, "expect": {"style": "plain"}}"#)
        }
        let run = try await runRichpush(["replay", "\(folder.path)/cases"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr
                == "richpush replay: note: 2 payloads written for --extension \(folder.path)/ext (given.extension) skipped\n"
        )
        #expect(run.stdout.contains("Replayed 0 payloads"))
    }

    @Test("a shard that gets no payload of a corpus that has some is not an error")
    func emptyShard() async throws {
        let folder = try TemporaryFolder()
        try folder.write("only.json", Self.payload)
        let run = try await runRichpush(["replay", folder.path, "--shard", "2/2"])
        #expect(run.status == 0, "\(run)")
    }
}
