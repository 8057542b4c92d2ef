import Foundation
import RichPushTestSupport
import Testing

/// `richpush replay --screenshots DIR`: Chromium or one line saying what to install, and files written inside DIR
/// only. The pictures themselves are checked in a browser by Tests/EndToEnd/html-report-e2e.py.
@Suite struct ReplayScreenshotsTests {
    static let payload = "payloads/presentation/cjk-emoji-title.json"

    static var chromiumInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { folder in
            ["chromium", "chromium-browser"].contains {
                FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)")
            }
        }
    }

    @Test func withoutChromiumItIsOneLineSayingWhatToInstall() async throws {
        let folder = try TemporaryFolder()
        let shots = folder.url.appendingPathComponent("shots").path
        let run = try await runRichpush(
            ["replay", Self.payload, "--screenshots", shots], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "richpush replay: --screenshots needs Chromium, which is not installed: apt-get install chromium\n")
        #expect(!FileManager.default.fileExists(atPath: shots), "nothing made before the check")
    }

    @Test(.enabled(if: chromiumInstalled))
    func theFolderIsMadeAndNoLinkOrOtherFileInItIsFollowedOrReplaced() async throws {
        let folder = try TemporaryFolder()
        let shots = folder.url.appendingPathComponent("new/shots")
        let made = try await runRichpush(["replay", Self.payload, "--screenshots", shots.path])
        #expect(made.status == 0, "\(made.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: shots.path).sorted()
        #expect(
            names == [
                "cjk-emoji-title.banner-dark.png", "cjk-emoji-title.banner.png", "cjk-emoji-title.expanded-dark.png",
                "cjk-emoji-title.expanded.png", "cjk-emoji-title.lockScreen-dark.png", "cjk-emoji-title.lockScreen.png",
            ])

        // A link in DIR to a file outside: not followed, the file outside untouched.
        let outside = folder.url.appendingPathComponent("outside.txt")
        try Data("keep".utf8).write(to: outside)
        let link = shots.appendingPathComponent("cjk-emoji-title.banner.png")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
        let linked = try await runRichpush(["replay", Self.payload, "--screenshots", shots.path])
        #expect(linked.status == 2)
        #expect(
            linked.stderr.contains(
                "richpush replay: cannot write the screenshot \(shots.path)/cjk-emoji-title.banner.png: it exists and is not a regular file, so it is not replaced"
            ), "\(linked.stderr)")
        #expect(try String(contentsOf: outside, encoding: .utf8) == "keep")

        // A folder where a picture goes is not replaced either.
        try FileManager.default.removeItem(at: link)
        let inTheWay = shots.appendingPathComponent("cjk-emoji-title.lockScreen.png")
        try FileManager.default.removeItem(at: inTheWay)
        try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: false)
        let blocked = try await runRichpush(["replay", Self.payload, "--screenshots", shots.path])
        #expect(blocked.status == 2)
        #expect(blocked.stderr.contains("cjk-emoji-title.lockScreen.png: it exists and is not a regular file"))
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: inTheWay.path, isDirectory: &isFolder) && isFolder.boolValue)
    }
}
