import Foundation
import RichPushCore
import Testing
import RichPushTestSupport

/// Payload folders a hostile user could hand to `richpush replay`: the real binary, as root and as `nobody`.
@Suite(.serialized) struct HostileFilesTests {
    static let fixtures = "\(repositoryRoot)/payloads/images"
    static let plain = #"{"aps": {"alert": {"title": "T", "body": "b"}}}"#

    /// A temporary folder anyone may enter, so `nobody` can be pointed at it.
    static func sharedFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o755)
        return folder
    }

    @Test func aFIFONamedLikeAPayloadIsReportedAndTheRestRuns() async throws {
        let folder = try Self.sharedFolder()
        try folder.write("a.json", Self.plain)
        try folder.write("a.expect.json", #"{"expect": {"style": "plain"}}"#)
        #expect(mkfifo("\(folder.path)/pipe.json", 0o644) == 0)
        #expect(mkfifo("\(folder.path)/z.expect.json", 0o644) == 0)
        try folder.write("z.json", Self.plain)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("ERR "))
        #expect(run.stdout.contains("pipe.json: is a FIFO (named pipe), not a regular file"))
        #expect(run.stdout.contains("z.expect.json: is a FIFO (named pipe), not a regular file"))
        #expect(run.stdout.contains("PASS  background  plain"))
    }

    @Test func jsonCountsEveryPayloadTheTextReportCounts() async throws {
        let folder = try Self.sharedFolder()
        try folder.write("a.json", Self.plain)
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder.path)/broken.json", withDestinationPath: "\(folder.path)/missing.json")
        let run = try await runRichpush(["replay", folder.path, "--format", "json"])
        #expect(run.status == 1)
        guard case .array(let results) = try JSONParser.parse(Array(run.stdout.utf8)) else {
            Issue.record("not an array: \(run.stdout)")
            return
        }
        #expect(results.count == 2)
        #expect(results.map { $0["file"]?.stringValue } == ["\(folder.path)/a.json", "\(folder.path)/broken.json"])
        #expect(results[1]["delivered"] == false)
        #expect(results[1]["error"]?.stringValue?.contains("broken link") == true)
    }

    @Test func anUnreadableFolderFailsTheRunAndIsNamed() async throws {
        let folder = try Self.sharedFolder()
        try folder.write("open/a.json", Self.plain)
        try folder.write("locked/b.json", Self.plain)
        chmod("\(folder.path)/open", 0o755)
        chmod("\(folder.path)/open/a.json", 0o644)
        chmod("\(folder.path)/locked", 0)
        guard let run = try await runRichpushAsNobody(["replay", folder.path], in: "/tmp") else {
            // Not root: this process is the unprivileged user itself.
            let own = try await runRichpush(["replay", folder.path], in: "/tmp")
            #expect(own.status == 1)
            #expect(own.stdout.contains("locked: cannot read the folder: Permission denied"))
            return
        }
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("locked: cannot read the folder: Permission denied"), "\(run.stdout)")
        #expect(run.stdout.contains("open/a.json"))
    }

    @Test func anExpectationWithoutPayloadIsMentioned() async throws {
        let folder = try Self.sharedFolder()
        try folder.write("a.json", Self.plain)
        try folder.write("gone.expect.json", #"{"expect": {}}"#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("gone.expect.json: no payload beside it"))
    }

    @Test func oneFolderGivenTwiceIsReplayedOnce() async throws {
        let folder = try Self.sharedFolder()
        try folder.write("dir/a.json", Self.plain)
        let run = try await runRichpush(["replay", "\(folder.path)/dir", "\(folder.path)/dir/../dir"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Replayed 1 payload in"))
    }
}
