import Foundation
import Logging
import RichPushCore
import RichPushLibrary
import SnapshotTesting
import Testing

@testable import RichPushTUI

/// Payloads written for a team's extension (`given.extension`, as `payloads/extensions/*`): marked in the library,
/// sent through that extension when the notification center runs with it (`--extension`), and otherwise not sent,
/// with the note replay prints.
@Suite struct ExtensionPayloadTests {
    /// `plain.json`, and `team/image.json` whose expectation was written for the extension in `ext/` beside the
    /// library, in a fresh temporary folder.
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-\(UUID().uuidString)")
        let payload = #"{"aps":{"alert":{"title":"New arrivals","body":"Tap to see what's new"},"mutable-content":1}}"#
        let files = [
            "payloads/plain.json": payload,
            "payloads/team/image.json": payload,
            "payloads/team/image.expect.json": #"{"given":{"extension":"../../ext"},"expect":{"style":"rich"}}"#,
            "ext/NotificationService.swift": "",
        ]
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    /// Temporary paths change from run to run.
    private static func masked(_ text: String) -> String {
        text.replacing(/\/[^ │]*richpush-[0-9A-F-]+\//, with: "<tmp>/")
    }

    @Test("the listing marks the payload written for a team's extension, met only with that --extension")
    func listingMarksExtensionPayloads() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("payloads").path
        let requirement = ExtensionRequirement(payloadPath: root + "/team/image.json", given: "../../ext")
        #expect(requirement.folder == folder.path + "/ext")

        let without = try PayloadLibrary(root: root).listing().get()
        #expect(without.files == ["plain.json", "team/image.json"])
        #expect(without.extensionMarks == ["team/image.json": ExtensionMark(requirement: requirement, isMet: false)])

        // Another spelling of the same folder is the same extension; another folder is not.
        let with = try PayloadLibrary(root: root, extensionFolder: root + "/../ext/").listing().get()
        #expect(with.extensionMarks["team/image.json"]?.isMet == true)
        let other = try PayloadLibrary(root: root, extensionFolder: root).listing().get()
        #expect(other.extensionMarks["team/image.json"]?.isMet == false)
    }

    private static let requirement = ExtensionRequirement(
        payloadPath: "payloads/extensions/naive/image.json", given: "../../../examples/extensions/naive")

    private static func state(isMet: Bool) -> TUIState {
        var state = Fixtures.state()
        state.library = ["extensions/naive/image.json", "png-background.json"]
        state.libraryExtensionMarks = [
            "extensions/naive/image.json": ExtensionMark(requirement: requirement, isMet: isMet)
        ]
        return state
    }

    @Test(
        "Enter on a payload written for an extension the notification center does not run sends nothing, with replay's note"
    )
    func notSentWithoutItsExtension() {
        var state = Self.state(isMet: false)
        #expect(reduce(&state, .activate) == [])
        #expect(state.notifications.isEmpty)
        #expect(state.status == ExtensionRequirement.skippedNote([Self.requirement]))
        #expect(
            state.status
                == "1 payload written for --extension examples/extensions/naive (given.extension) skipped")
    }

    @Test("Enter on a payload written for the extension the notification center runs sends it")
    func sentThroughItsExtension() {
        var state = Self.state(isMet: true)
        #expect(
            reduce(&state, .activate) == [.deliver(id: 1, file: "extensions/naive/image.json", appState: .background)])
        #expect(
            state.status
                == "Sent extensions/naive/image.json through --extension examples/extensions/naive (app background)")
    }

    @Test("the library marks such payloads with ext, muted when Enter would not send them")
    func libraryShowsTheMark() {
        for isMet in [false, true] {
            var state = Self.state(isMet: isMet)
            state.librarySelection = 1
            let grid = render(state, size: Fixtures.size)
            // The text is the same either way; the styles below tell them apart.
            if !isMet { assertSnapshot(of: grid, as: .frame) }
            // Row 2 is the first file; its name starts at column 3 and its tag ends at the pane's inner edge.
            #expect(grid[2, 3].style == (isMet ? CellStyle.plain : CellStyle.muted))
            let layout = ScreenLayout(size: Fixtures.size)
            let tagColumn = layout.library.maxColumn - 4
            #expect(grid[2, tagColumn].style == (isMet ? CellStyle.accent : CellStyle.muted))
        }
    }

    @Test("the whole UI: without --extension the payload is marked and Enter leaves the note; with it, it is sent")
    func wholeUI() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("payloads").path
        for extensionFolder in [nil, folder.appendingPathComponent("ext").path] {
            let terminal = InMemoryTerminal(size: TerminalSize(columns: 140, rows: 20))
            let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
            let delivering = ScriptedDelivery()
            let state = TUIState(
                appState: .background, libraryRoot: root, size: terminal.size,
                startTimeOfDay: Fixtures.startTimeOfDay)
            let loop = NotificationCenterLoop(
                terminal: terminal, library: PayloadLibrary(root: root, extensionFolder: extensionFolder),
                delivering: delivering, state: state, continuation: continuation,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let running = Task { await loop.run(events: events) }
            await terminal.waitForFrame(containing: " ext│")
            terminal.type([.down, .enter])
            continuation.yield(.input)
            if extensionFolder == nil {
                let screen = await terminal.waitForFrame(containing: "(given.extension) skipped")?.text ?? terminal.text
                assertSnapshot(of: Self.masked(screen), as: .lines, named: "skipped")
                #expect(delivering.inputs.all.isEmpty)
            } else {
                await terminal.waitForFrame(containing: "Notification Center (1)")
                #expect(delivering.inputs.all.map(\.origin) == [.file(root + "/team/image.json")])
                #expect(delivering.inputs.all.first?.settings.extensionFolder == "../../ext")
            }
            terminal.type([.character("q")])
            continuation.yield(.input)
            await running.value
        }
    }
}
