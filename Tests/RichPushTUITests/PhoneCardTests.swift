import RichPushCore
import SnapshotTesting
import Testing

@testable import RichPushGraphics
@testable import RichPushTUI

/// The detail view's phone card: the lock screen, banner and expanded views drawn from the presentation alone, `v`
/// cycling them, the number keys tapping buttons, and the text prompt of a text-input button.
@Suite struct PhoneCardTests {
    static let categories = AppCategories(
        appName: "Shop",
        categories: [
            NotificationCategory(
                identifier: "order",
                actions: [
                    NotificationAction(identifier: "track", title: "Track"),
                    NotificationAction(
                        identifier: "cancel", title: "Cancel order", options: [.destructive, .authenticationRequired]),
                    NotificationAction(
                        identifier: "reply", title: "Reply",
                        textInput: NotificationAction.TextInput(buttonTitle: "Send", placeholder: "Message")),
                    NotificationAction(identifier: "open", title: "Open order", options: [.foreground]),
                ])
        ])

    static let longBody =
        "Good news: the three items you ordered on Monday left our warehouse this morning. The courier expects to deliver them on Thursday between 9:00 and 13:00. You can follow the parcel, change the delivery slot, send the driver a note, or cancel anything that has not left yet. Thank you for shopping with us!"

    /// The rich notification with a long body and the `order` category, presented under `rules`.
    static func orderResult(rules: PresentationRules = .iOS) -> DeliveryResult {
        var result = Fixtures.richResult(file: "payloads/presentation/order-long-body.json")
        result.content = NotificationContent(title: "Your order has shipped and is on its way", body: longBody)
        result.category = "order"
        result.badge = 2
        result.presentation = NotificationPresentation(of: result, categories: categories, rules: rules)
        return result
    }

    static func state(_ result: DeliveryResult = orderResult(), view: NotificationView = .expanded) -> TUIState {
        var state = Fixtures.state([Fixtures.entry(1, result, sentAt: 2)])
        state.categories = categories
        state.focus = .notifications
        state.detailID = 1
        state.detailView = view
        return state
    }

    private func press(_ state: inout TUIState, _ keys: Key...) {
        for key in keys { _ = reduce(&state, .key(key)) }
    }

    private func type(_ state: inout TUIState, _ text: String) {
        for character in text { _ = reduce(&state, .key(.character(character))) }
    }

    /// The rows of the card (the detail view's text starts at column 2; the card's border is there), as text
    /// between its borders.
    static func cardRows(_ grid: CellGrid) -> [String] {
        var rows: [String] = []
        for row in 0..<grid.height {
            guard case .character("│") = grid[row, 2].content else { continue }
            var line = ""
            for column in 4..<(4 + PresentationRules.iOS.lineColumns) {
                if case .character(let character) = grid[row, column].content { line.append(character) }
            }
            while line.last == " " { line.removeLast() }
            rows.append(line)
        }
        return rows
    }

    // MARK: Keys

    @Test func vCyclesTheThreeViews() {
        var state = Self.state()
        var seen: [NotificationView] = []
        for _ in 0..<3 {
            press(&state, .character("v"))
            seen.append(state.detailView)
        }
        #expect(seen == [.lockScreen, .banner, .expanded])
        #expect(state.status == "Showing the expanded view (1-4 tap its buttons)")
    }

    @Test func vOutsideTheDetailViewSaysWhereItWorks() {
        var state = Self.state()
        state.detailID = nil
        press(&state, .character("v"))
        #expect(state.detailView == .expanded)
        #expect(state.status?.hasPrefix("v shows the lock screen") == true)
    }

    @Test func aNumberKeyTapsThatButton() {
        var state = Self.state()
        press(&state, .character("1"))
        let response = state.notifications[0].result?.response
        #expect(response?.actionIdentifier == "track")
        #expect(response?.userText == nil)
        #expect(response?.categoryIdentifier == "order")
        #expect(response?.requestIdentifier == "payloads/presentation/order-long-body.json")
        #expect(state.status == "App received: track")
        press(&state, .character("4"))
        #expect(state.notifications[0].result?.response?.actionIdentifier == "open")
        #expect(state.status == "App received: open, opening the app")
    }

    @Test func aTextButtonAsksForTheTextAndSendsIt() {
        var state = Self.state()
        press(&state, .character("3"))
        #expect(state.prompt?.action.identifier == "reply")
        #expect(state.notifications[0].result?.response == nil, "nothing is sent before Enter")
        press(&state, .enter)
        #expect(state.prompt != nil, "an empty reply is not sent")
        #expect(state.status == "Nothing to send: type the text first (Esc cancels)")
        // Letters that are keys elsewhere (v, q, digits) are typed, not acted on.
        type(&state, "On my wayq 2v")
        press(&state, .backspace, .backspace, .backspace, .backspace)
        #expect(state.prompt?.text == "On my way")
        #expect(!state.isQuitting)
        #expect(state.detailView == .expanded)
        press(&state, .enter)
        #expect(state.prompt == nil)
        let response = state.notifications[0].result?.response
        #expect(response?.actionIdentifier == "reply")
        #expect(response?.userText == "On my way")
        #expect(state.status == "App received: reply, text \"On my way\"")
    }

    @Test func escCancelsTheTextPrompt() {
        var state = Self.state()
        press(&state, .character("3"))
        type(&state, "never mind")
        press(&state, .escape)
        #expect(state.prompt == nil)
        #expect(state.detailID == 1, "Esc closes the prompt, not the detail view")
        #expect(state.notifications[0].result?.response == nil)
        #expect(state.status == "Not sent: the reply was cancelled")
    }

    @Test func theTextIsSanitisedAndCapped() {
        var state = Self.state()
        press(&state, .character("3"))
        type(&state, "a\u{1B}[31mb\u{202E}c\u{7}")
        #expect(state.prompt?.text == "a[31mbc", "control and directional characters are not taken")
        type(&state, String(repeating: "x", count: 300))
        #expect(state.prompt?.text.count == TextPrompt.maxLength)
        #expect(state.status == "The reply is at most 200 characters")
        press(&state, .enter)
        #expect(state.notifications[0].result?.response?.userText?.count == TextPrompt.maxLength)
    }

    @Test func aNumberWithoutAButtonDoesNothingAndSaysSo() {
        var state = Self.state()
        let before = state.notifications
        press(&state, .character("7"))
        #expect(state.notifications == before)
        #expect(state.prompt == nil)
        #expect(state.status == "No button 7: its buttons are 1-4")
        press(&state, .character("0"))
        #expect(state.status == "No button 10: its buttons are 1-4")
        #expect(state.notifications == before)
    }

    @Test func buttonsAreTappedInTheExpandedViewOnly() {
        var state = Self.state(view: .banner)
        press(&state, .character("1"))
        #expect(state.notifications[0].result?.response == nil)
        #expect(state.status == "Buttons are tapped in the expanded view: v until it shows, then 1")
    }

    @Test func digitsOutsideTheDetailViewDoNothing() {
        var state = Self.state()
        state.detailID = nil
        let before = state
        press(&state, .character("1"))
        #expect(state == before)
    }

    @Test func aNotificationWithoutButtonsSaysSo() {
        var result = Fixtures.richResult()
        result.presentation = NotificationPresentation(of: result, categories: nil)
        var state = Self.state(result)
        press(&state, .character("1"))
        #expect(state.status == "No button 1: this notification shows no buttons")
        #expect(state.notifications[0].result?.response == nil)
    }

    // MARK: Drawing

    @Test func theThreeViewsDrawTheModelsLines() {
        let result = Self.orderResult()
        let presentation = result.presentation!
        for view in NotificationView.allCases {
            let state = Self.state(result, view: view)
            let grid = render(state, size: Fixtures.size)
            #expect(grid.rowWidths.allSatisfy { $0 == Fixtures.size.columns })
            let rows = Self.cardRows(grid)
            let model = presentation.view(view)!
            // Every line of the model's title and body is a row of the card, in order, exactly.
            let body = rows.filter { row in model.body.lines.contains { row.hasPrefix($0) } }
            #expect(body.count == model.body.lines.count, "\(view)")
            #expect(model.body.lines.last?.hasSuffix("…") == true)
            #expect(rows.contains { $0.hasPrefix(model.title.lines[0]) })
            let buttons = rows.filter { $0.first?.isNumber == true && $0.dropFirst().first == " " }
            #expect(buttons.count == model.actions.count, "\(view)")
        }
        #expect(presentation.view(.lockScreen)?.body.lines.count == 4)
        #expect(presentation.view(.banner)?.body.lines.count == 2)
        #expect(presentation.view(.expanded)?.body.lines.count == 7)
    }

    @Test func aChangedRuleIsDrawn() {
        var rules = PresentationRules.iOS
        rules.bodyLines[.lockScreen] = 3
        let changed = Self.orderResult(rules: rules)
        let lines = changed.presentation!.view(.lockScreen)!.body.lines
        #expect(lines.count == 3)
        let grid = render(Self.state(changed, view: .lockScreen), size: Fixtures.size)
        let rows = Self.cardRows(grid)
        // The header, the title, three body lines (the thumbnail's label beside the first), "+4 more actions".
        #expect(rows.count == 6, "\(rows)")
        for (row, line) in zip(rows[2...4], lines) { #expect(row.hasPrefix(line)) }
        #expect(rows[4].hasPrefix(lines[2]) && lines[2].hasSuffix("…"))
        #expect(rows[5] == "+4 more actions")

        let standard = Self.cardRows(render(Self.state(Self.orderResult(), view: .lockScreen), size: Fixtures.size))
        #expect(standard.count == 7, "four body lines under the iOS rules")
    }

    @Test func snapshotsOfTheThreeViews() {
        for view in NotificationView.allCases {
            let grid = render(Self.state(view: view), size: Fixtures.size)
            assertSnapshot(of: grid, as: .frame, named: view.rawValue)
        }
    }

    @Test func snapshotOfThePromptAndTheResponse() {
        var state = Self.state()
        press(&state, .character("3"))
        type(&state, "On my")
        assertSnapshot(of: render(state, size: Fixtures.size), as: .frame, named: "prompt")
        type(&state, " way")
        press(&state, .enter)
        let grid = render(state, size: Fixtures.size)
        #expect(grid.text.contains("App received: reply, text \"On my way\""))
        assertSnapshot(of: grid, as: .frame, named: "response")
    }

    @Test func videoAndAudioShowTheirPosterAndDuration() {
        let text = PresentedText("Clip", maxLines: 1, columns: 35)
        func view(_ media: PresentedMedia) -> PresentedView {
            PresentedView(
                view: .expanded, appName: "Films", timestamp: "now", title: text,
                subtitle: PresentedText("", maxLines: 1, columns: 40),
                body: PresentedText("Watch", maxLines: 7, columns: 40),
                media: media)
        }
        let video = PhoneCard(
            view: view(PresentedMedia(kind: .video, file: "/tmp/poster.png", width: 640, height: 360, duration: 12)),
            rules: .iOS, drawsImages: true
        ).layout()
        #expect(video.rows.contains { $0.contains { $0.text == "▶ 0:12" } })
        #expect(video.pictures.map(\.key.file) == ["/tmp/poster.png"])
        #expect(video.pictures.first?.key.purpose == .detail)

        let audio = PhoneCard(
            view: view(PresentedMedia(kind: .audio, file: nil, width: 0, height: 0, duration: 185)), rules: .iOS,
            drawsImages: true
        ).layout()
        #expect(audio.rows.contains { $0.contains { $0.text == "♪ 3:05" } })
        #expect(audio.pictures.isEmpty, "audio has no poster")

        var thumbnailView = view(
            PresentedMedia(kind: .video, file: "/tmp/poster.png", width: 640, height: 360, duration: 75))
        thumbnailView.view = .lockScreen
        thumbnailView.thumbnail = thumbnailView.media
        thumbnailView.media = nil
        let thumbnail = PhoneCard(view: thumbnailView, rules: .iOS, drawsImages: false).layout()
        #expect(thumbnail.rows.contains { $0.contains { $0.text == "[video]" } })
        #expect(thumbnail.rows.contains { $0.contains { $0.text == "▶ 1:15" } })
    }

    @Test func theThumbnailTakesItsAllowanceAndItsCrop() {
        var result = Self.orderResult()
        result.presentation!.views[0].thumbnail?.crop = UnitRect(x: 0.5, y: 0, width: 0.5, height: 0.5)
        var state = Self.state(result, view: .lockScreen)
        state.images = ImageRenderTests.settings
        let keys = ImageLayout.needed(state)
        #expect(keys.count == 1)
        let key = keys[0]
        #expect(key.purpose == .thumbnail)
        #expect(key.crop == CropRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
        // The allowance (10 columns) less the gap: 8 columns, square at two rows per column... of a 4:3 crop.
        #expect(key.columns <= PresentationRules.iOS.thumbnailColumns - PhoneCard.thumbnailGap)
        // The top-right quarter of the picture is green: the crop is drawn, nothing else.
        let drawing = ImageDrawing(
            loader: PictureLoader(pictures: [Fixtures.catAttachment.file: Pictures.quarters]),
            renderer: ImageRenderTests.settings.renderer)
        _ = reduce(&state, .imageRendered(key, drawing.render(key)))
        let grid = render(state, size: Fixtures.size)
        #expect(grid.imageCellCount == key.columns * key.rows)
        #expect(grid.imageColors.subtracting([.terminalDefault]) == [.indexed(46)])
    }

    @Test func withoutAClippingRectTheThumbnailIsTheCentredSquare() {
        var state = Self.state(view: .banner)
        state.images = ImageRenderTests.settings
        let key = ImageLayout.needed(state).first
        #expect(key?.crop == CropRect.centredSquare(width: 640, height: 480))
        #expect(key?.columns == 8)
        #expect(key?.rows == 4)
    }

    @Test func cropKeepsThePartAsked() {
        let cropped = ImageDrawing.crop(Pictures.quarters, to: CropRect(x: 0, y: 0.5, width: 0.5, height: 0.5))
        #expect(cropped.width == 32 && cropped.height == 24)
        // The bottom-left quarter: blue, corner to corner.
        for (x, y) in [(0, 0), (31, 23)] {
            let pixel = cropped.pixel(x: x, y: y)
            #expect(pixel.r == 0 && pixel.g == 0 && pixel.b == 255, "(\(x), \(y))")
        }
    }
}
