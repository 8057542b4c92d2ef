import Foundation
import Logging
import RichPushCore
import RichPushGraphics
import SnapshotTesting
import Testing

@testable import RichPushTUI

/// The whole UI — keys, run loop, deliveries as actions, render — against an in-memory terminal.
@Suite struct NotificationCenterLoopTests {
    private struct Harness {
        let terminal = InMemoryTerminal(size: TerminalSize(columns: 100, rows: 30))
        let continuation: AsyncStream<AppEvent>.Continuation
        let running: Task<Void, Never>

        init(folder: URL, delivering: ScriptedDelivery = ScriptedDelivery(), imageDrawing: ImageDrawing? = nil) {
            let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
            self.continuation = continuation
            let library = PayloadLibrary(root: folder.path)
            var state = TUIState(
                appState: .background, libraryRoot: "payloads", size: terminal.size,
                startTimeOfDay: Fixtures.startTimeOfDay)
            state.images = imageDrawing.map { ImageSettings(renderer: $0.renderer) }
            let loop = NotificationCenterLoop(
                terminal: terminal, library: library, delivering: delivering, state: state,
                continuation: continuation, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                imageDrawing: imageDrawing)
            running = Task { await loop.run(events: events) }
        }

        func press(_ keys: Key...) {
            terminal.type(keys)
            continuation.yield(.input)
        }

        /// Waits for the frame that shows `text` (deliveries run in their own tasks) and returns its text.
        @discardableResult
        func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async -> String {
            await terminal.waitForFrame(containing: text, sourceLocation: sourceLocation)?.text ?? terminal.text
        }
    }

    private static func payloadFolder(
        _ names: [String] = ["http-url.json", "png-background.json", "png-background.expect.json", "images/cat.png"]
    ) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-lib-\(UUID().uuidString)")
        let payload = #"{"aps":{"alert":{"title":"New arrivals","body":"Tap to see what's new"},"mutable-content":1}}"#
        for name in names {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((name.hasSuffix(".expect.json") ? #"{"expect":{}}"# : payload).utf8).write(to: url)
        }
        return folder
    }

    /// Times of day and temporary paths change from run to run.
    private static func masked(_ text: String) -> String {
        text.replacing(/\d\d:\d\d:\d\d/, with: "HH:MM:SS")
            .replacing(/\/[^ │]*richpush-[0-9A-F-]+\//, with: "<tmp>/")
    }

    @Test(
        "a file too large to be a payload is sent unread as such and shown as the rejected notification replay reports, not as a failed delivery"
    )
    func oversizedFileIsARejectedNotification() async throws {
        let folder = try Self.payloadFolder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(count: 200_000).write(to: folder.appendingPathComponent("video.json"))
        let delivering = ScriptedDelivery()
        let ui = Harness(folder: folder, delivering: delivering)
        await ui.waitFor("Payloads (2)")
        ui.press(.down, .enter)
        let screen = await ui.waitFor("payloadTooLarge")
        #expect(!screen.contains("failed"))
        #expect(delivering.inputs.all.map(\.payload) == [.oversized(bytes: 200_000)])
        #expect(delivering.inputs.all.map(\.origin) == [.file(folder.path + "/video.json")])
        // The expectation beside a payload gives its settings, as in replay.
        try Data(#"{"given":{"extensionBudget":"4s"},"expect":{}}"#.utf8)
            .write(to: folder.appendingPathComponent("a.expect.json"))
        ui.press(.up, .enter)
        await ui.waitFor("Notification Center (2)")
        #expect(delivering.inputs.all.last?.settings.extensionBudget == .seconds(4))
        ui.press(.character("q"))
        await ui.running.value
    }

    @Test("a payload is delivered on the phone on screen, and its own given.device still patches over it")
    func aPayloadIsDeliveredOnThePhoneOnScreen() async throws {
        let folder = try Self.payloadFolder(["a.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"given":{"device":{"locked":false}},"expect":{}}"#.utf8)
            .write(to: folder.appendingPathComponent("a.expect.json"))
        let delivering = ScriptedDelivery()
        let ui = Harness(folder: folder, delivering: delivering)
        await ui.waitFor("Payloads (1)")
        ui.press(.character("F"), .character("L"))
        await ui.waitFor("Phone: LOCKED · FOCUS")
        ui.press(.enter)
        await ui.waitFor("Notification Center (1)")
        var phone = DeviceState.newPhone
        phone.locked = true
        phone.focus = .on
        let settings = delivering.inputs.all.last?.settings
        #expect(settings?.device == phone)
        #expect(
            settings?.devicePatch == DeviceState.Patch(locked: false),
            "the payload's given.device is kept, to patch over it")
        let configuration = settings?.applied(to: DeliveryConfiguration())
        #expect(configuration?.device.focus == .on && configuration?.device.locked == false)
        ui.press(.character("q"))
        await ui.running.value
    }

    @Test func sendSwitchStateOpenDetailAndQuit() async throws {
        let folder = try Self.payloadFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ui = Harness(folder: folder)

        await ui.waitFor("Payloads (2)")
        #expect(!ui.terminal.text.contains("expect.json"))
        ui.press(.character("c"))
        await ui.waitFor("App state: CLOSED")
        ui.press(.character("b"), .down, .enter)
        await ui.waitFor("png 640x480 47.1 KB")
        ui.press(.up, .enter)
        let list = await ui.waitFor("plain text — insecureURL")
        assertSnapshot(of: Self.masked(list), as: .lines, named: "list")

        ui.press(.tab, .down, .enter)
        let detail = await ui.waitFor("SHA-256")
        assertSnapshot(of: Self.masked(detail), as: .lines, named: "detail")

        ui.press(.escape, .tab, .character("f"), .up, .enter)
        await ui.waitFor("Banner · app in foreground")

        ui.terminal.resize(to: TerminalSize(columns: 40, rows: 10))
        ui.continuation.yield(.tick)
        await ui.waitFor("Terminal too small")

        ui.press(.character("q"))
        await ui.running.value
    }

    /// A quit signal is seen before the next event, not after every event queued ahead of it: with a backlog of
    /// keys that would each send a notification, the loop quits without sending any of them.
    @Test func aQuitSignalDoesNotWaitBehindQueuedEvents() async throws {
        let folder = try Self.payloadFolder(["png-background.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = InMemoryTerminal(size: TerminalSize(columns: 100, rows: 30))
        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self)
        let state = TUIState(
            appState: .background, libraryRoot: "payloads", size: terminal.size,
            startTimeOfDay: Fixtures.startTimeOfDay)
        let quitRequest = QuitRequest()
        let loop = NotificationCenterLoop(
            terminal: terminal, library: PayloadLibrary(root: folder.path), delivering: ScriptedDelivery(),
            state: state, continuation: continuation,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), quitRequest: quitRequest)
        // 200 Enter presses are queued before the loop starts, then a signal asks it to quit.
        for _ in 0..<200 {
            terminal.type([.enter])
            continuation.yield(.input)
        }
        quitRequest.request()
        continuation.yield(.terminated)
        await loop.run(events: events)
        #expect(terminal.text.contains("Notification Center (0)"), "\(terminal.text)")
        #expect(!terminal.text.contains("Notification Center (1"))
    }

    /// The run loop asks for the drawings a frame needs and shows them when they arrive: the thumbnail after
    /// the delivery, the large image when the detail opens, the GIF's next frame when its delay is up.
    @Test func imagesArriveInLaterFramesAndAGIFPlaysByItself() async throws {
        let folder = try Self.payloadFolder(["png-background.json", "spinner.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var delivering = ScriptedDelivery()
        delivering.gifFiles = ["spinner.json"]
        let pictures = [
            delivering.attachmentFolder.appendingPathComponent("cat.png").path: Pictures.quarters,
            delivering.attachmentFolder.appendingPathComponent("spinner.gif").path: Pictures.redThenBlue,
        ]
        let drawing = ImageDrawing(
            loader: PictureLoader(pictures: pictures),
            renderer: CellRenderer(colorMode: .indexed256, symbols: .quadrants))
        let ui = Harness(folder: folder, delivering: delivering, imageDrawing: drawing)

        await ui.waitFor("Payloads (2)")
        ui.press(.enter)
        await ui.waitFor("png 640x480 47.1 KB")
        await ui.terminal.waitForFrame("the 8x3 thumbnail") { $0.imageCellCount == 24 }
        ui.press(.tab, .enter)
        await ui.terminal.waitForFrame("the detail image") { $0.imageCellCount > 24 && $0.text.contains("Attachment") }
        ui.press(.escape, .tab, .down, .enter)
        await ui.waitFor("Notification Center (2)")
        ui.press(.tab, .enter)
        // Red for 500 ms, then blue: the blue frame comes with no key pressed.
        await ui.terminal.waitForFrame("the GIF's first frame") { $0.imageColors.contains(.indexed(196)) }
        await ui.terminal.waitForFrame("the GIF's second frame", deadline: .seconds(30)) {
            $0.imageColors.contains(.indexed(21)) && !$0.imageColors.contains(.indexed(196))
        }
        ui.press(.character("q"))
        await ui.running.value
    }

    @Test func anExpiredExtensionIsExplainedWithItsOwnBudget() async throws {
        let folder = try Self.payloadFolder(["fallback/extension-expired.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let ui = Harness(folder: folder)

        await ui.waitFor("Payloads (1)")
        ui.press(.enter)
        await ui.waitFor("plain text — extensionExpired")
        ui.press(.tab, .enter)
        let detail = await ui.waitFor("Why there is no image")
        #expect(detail.contains("The extension used up its 1 second before the image was ready"))
        #expect(!detail.contains("30 seconds"), "the configured budget is not this payload's")
        ui.press(.character("q"))
        await ui.running.value
    }

    @Test(arguments: [AppEvent.inputClosed, .terminated])
    func closedInputAndSIGTERMQuit(event: AppEvent) async throws {
        let folder = try Self.payloadFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ui = Harness(folder: folder)
        await ui.waitFor("Payloads (2)")
        ui.continuation.yield(event)
        let running = ui.running
        let quit = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await running.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return false
            }
            let first = await group.next() ?? false
            // Unblocks the first child if the loop did not quit by itself.
            running.cancel()
            group.cancelAll()
            return first
        }
        #expect(quit, "the run loop kept going after \(event)")
    }
}
