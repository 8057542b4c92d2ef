import Foundation
import RichPushTestSupport
import Testing

/// The notification center's command line, through the binary (the screen itself is Tests/EndToEnd/tui-e2e.sh's).
@Suite struct TUICommandTests {
    @Test(arguments: [["tui", "/nonexistent-richpush-folder"], ["/nonexistent-richpush-folder"]])
    func theFolderIsAnArgumentAsReplayTakesItsPaths(arguments: [String]) async throws {
        let run = try await runRichpush(arguments)
        #expect(run.status == 2)
        #expect(
            run.stderr == "richpush: /nonexistent-richpush-folder: no such folder (choose one: richpush tui DIR)\n",
            "\(run.stderr)")
    }

    @Test func theFolderAndItsOldSpellingTogetherAreAUsageError() async throws {
        let run = try await runRichpush(["tui", "payloads", "--payloads", "payloads"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--payloads is the old spelling of the DIR argument"), "\(run.stderr)")
    }
}
