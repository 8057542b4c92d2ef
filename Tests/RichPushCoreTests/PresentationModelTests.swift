import Foundation
import RichPushCore
import Testing

/// The presentation model: what each view shows of a delivered notification, the app's categories, responses.
@Suite struct PresentationModelTests {
    static let longBody = String(repeating: "Your parcel is on its way and arrives on Thursday. ", count: 6)

    static let order = AppCategories(
        appName: "Shop",
        categories: [
            NotificationCategory(
                identifier: "order",
                actions: [
                    NotificationAction(identifier: "track", title: "Track"),
                    NotificationAction(identifier: "cancel", title: "Cancel order", options: [.destructive]),
                    NotificationAction(
                        identifier: "reply", title: "Reply",
                        textInput: .init(buttonTitle: "Send", placeholder: "Message")),
                    NotificationAction(identifier: "open", title: "Open", options: [.foreground]),
                ], options: [.customDismissAction])
        ])

    static func result(
        title: String = "Shipped", body: String = longBody, category: String? = "order", image: Bool = true
    ) -> DeliveryResult {
        var result = DeliveryResult(
            file: "order.json", appState: .background, style: image ? .rich : .plain,
            content: NotificationContent(title: title, body: body))
        result.category = category
        if image {
            result.attachment = Attachment(
                url: "https://example.com/a.png", format: .png, width: 640, height: 320, frames: 1, bytes: 100,
                sha256: "", file: "/tmp/a.png")
        }
        return result
    }

    @Test func eachViewCutsTheBodyToItsLines() throws {
        let presentation = try #require(NotificationPresentation(of: Self.result(), categories: Self.order))
        for (view, lines) in [(NotificationView.lockScreen, 4), (.banner, 2), (.expanded, 7)] {
            let body = try #require(presentation.view(view)?.body)
            #expect(body.lines.count == lines, "\(view)")
            #expect(body.truncated, "\(view)")
            #expect(body.lines.last?.hasSuffix("…") == true, "\(view)")
            #expect(body.lines.allSatisfy { TextWidth.of($0) <= body.columns }, "\(view)")
        }
        // The thumbnail beside the text takes its columns; the expanded view's media is above it.
        let rules = PresentationRules.iOS
        #expect(presentation.view(.lockScreen)?.body.columns == rules.lineColumns - rules.thumbnailColumns)
        #expect(presentation.view(.expanded)?.body.columns == rules.lineColumns)
        #expect(presentation.view(.lockScreen)?.thumbnail?.kind == .image)
        #expect(presentation.view(.expanded)?.thumbnail == nil)
        #expect(presentation.view(.expanded)?.media?.width == 640)
    }

    @Test func aShortBodyIsShownWhole() throws {
        let presentation = try #require(
            NotificationPresentation(of: Self.result(body: "See you soon"), categories: Self.order))
        let body = try #require(presentation.view(.banner)?.body)
        #expect(body.lines == ["See you soon"])
        #expect(!body.truncated)
    }

    @Test func theTitleIsOneLineNarrowedByTheTimestamp() throws {
        let title = "中文标题很长很长的通知标题😀😀😀 with more words after it"
        let presentation = try #require(NotificationPresentation(of: Self.result(title: title), categories: nil))
        let shown = try #require(presentation.view(.lockScreen)?.title)
        let rules = PresentationRules.iOS
        #expect(shown.lines.count == 1)
        #expect(shown.truncated)
        #expect(shown.columns == rules.lineColumns - TextWidth.of(rules.timestamp) - rules.timestampGap)
        #expect(TextWidth.of(shown.lines[0]) <= shown.columns)
        // Wide characters count two columns: fewer characters fit than the column count.
        #expect(shown.lines[0].count < shown.columns)
    }

    @Test func aChangedRuleIsWhatEveryViewReads() throws {
        var rules = PresentationRules.iOS
        rules.bodyLines[.lockScreen] = 3
        rules.actions[.banner] = 1
        let presentation = try #require(
            NotificationPresentation(of: Self.result(), categories: Self.order, rules: rules))
        #expect(presentation.view(.lockScreen)?.body.lines.count == 3)
        #expect(presentation.view(.banner)?.actions.map(\.identifier) == ["track"])
        #expect(presentation.view(.banner)?.actionsLeftOut == 3)
    }

    @Test func theBannerShowsTheFirstTwoActionsAndTheExpandedViewAll() throws {
        let presentation = try #require(NotificationPresentation(of: Self.result(), categories: Self.order))
        #expect(presentation.view(.lockScreen)?.actions.isEmpty == true)
        #expect(presentation.view(.banner)?.actions.map(\.identifier) == ["track", "cancel"])
        #expect(presentation.view(.banner)?.actions[1].destructive == true)
        #expect(presentation.view(.expanded)?.actions.map(\.number) == [1, 2, 3, 4])
        #expect(presentation.category == PresentedCategory(identifier: "order", registered: true))
        #expect(presentation.notes.isEmpty)
    }

    @Test func anUnregisteredCategoryShowsNoButtonsAndSaysSo() throws {
        let presentation = try #require(
            NotificationPresentation(of: Self.result(category: "orders"), categories: Self.order))
        #expect(presentation.views.allSatisfy { $0.actions.isEmpty })
        #expect(presentation.category?.registered == false)
        #expect(presentation.notes == ["category orders is not registered by the app: no buttons"])
    }

    @Test func withoutCategoriesTheButtonsAreUnknownNotMissing() throws {
        let presentation = try #require(NotificationPresentation(of: Self.result(), categories: nil))
        #expect(presentation.category?.registered == nil)
        #expect(presentation.notes.first?.contains("--categories") == true)
    }

    @Test func theExtensionsThumbnailOptionsAreHonoured() throws {
        var result = Self.result()
        var content = HostContent(title: "Shipped")
        content.attachments = [
            HostAttachment(
                identifier: "image", file: "/tmp/a.png", type: "public.png",
                options: HostAttachmentOptions(thumbnailClippingRect: [0.25, 0, 0.5, 1.5]))
        ]
        result.deliveredContent = HandedContent(content)
        var presentation = try #require(NotificationPresentation(of: result, categories: nil))
        // Clamped to the image.
        #expect(presentation.view(.lockScreen)?.thumbnail?.crop == UnitRect(x: 0.25, y: 0, width: 0.5, height: 1))
        #expect(presentation.view(.expanded)?.media?.crop == nil)

        content.attachments[0].options = HostAttachmentOptions(thumbnailHidden: true)
        result.deliveredContent = HandedContent(content)
        presentation = try #require(NotificationPresentation(of: result, categories: nil))
        #expect(presentation.view(.lockScreen)?.thumbnail == nil)
        #expect(presentation.view(.lockScreen)?.body.columns == PresentationRules.iOS.lineColumns)
        #expect(presentation.view(.expanded)?.media != nil)
    }

    @Test func nothingIsPresentedForASilentOrRefusedPayload() {
        var silent = Self.result()
        silent.style = .silent
        #expect(NotificationPresentation(of: silent, categories: nil) == nil)
        var refused = Self.result()
        refused.delivered = false
        #expect(NotificationPresentation(of: refused, categories: nil) == nil)
    }

    @Test func theJSONCarriesTheVisibleTextAndATruncatedFlag() throws {
        let presentation = try #require(NotificationPresentation(of: Self.result(), categories: Self.order))
        let json = presentation.jsonValue
        #expect(json["views"]?["lockScreen"]?["body"]?["truncated"] == .bool(true))
        guard case .array(let actions)? = json["views"]?["banner"]?["actions"] else {
            Issue.record("no banner actions in \(JSONWriter.string(json))")
            return
        }
        #expect(actions[1]["options"] == .array([.string("destructive")]))
        let text = try #require(json["views"]?["banner"]?["body"]?["text"]?.stringValue)
        #expect(text.split(separator: "\n").count == 2)
    }
}

@Suite struct TextFittingTests {
    @Test func paragraphsAreKeptAndTheLastShownLineGetsTheEllipsis() {
        let fitted = TextLayout.fit("one two\nthree four five six", width: 10, maxLines: 2)
        #expect(fitted.lines == ["one two", "three fou…"])
        #expect(fitted.truncated)
    }

    @Test func aFullLastLineIsCutForTheEllipsis() {
        let fitted = TextLayout.fit("abcdefghij klmnop", width: 10, maxLines: 1)
        #expect(fitted.lines == ["abcdefghi…"])
        #expect(TextWidth.of(fitted.lines[0]) == 10)
    }

    @Test func wideCharactersNeverSpillPastTheWidth() {
        let fitted = TextLayout.fit(String(repeating: "漢", count: 30), width: 11, maxLines: 2)
        #expect(fitted.lines.allSatisfy { TextWidth.of($0) <= 11 })
        #expect(fitted.truncated)
    }

    @Test func emptyTextHasNoLines() {
        #expect(TextLayout.fit("", width: 10, maxLines: 4) == ([], false))
    }
}

@Suite struct AppCategoriesTests {
    @Test func theIssuesShapeReads() throws {
        let file = """
            {"categories": [{"identifier": "order",
              "actions": [{"identifier": "track", "title": "Track"},
                          {"identifier": "cancel", "title": "Cancel order", "options": ["destructive"]},
                          {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}],
              "hiddenPreviewsBodyPlaceholder": "%u new orders", "options": ["hiddenPreviewsShowTitle"]}]}
            """
        let app = try AppCategories.parse(Array(file.utf8))
        let order = try #require(app.category("order"))
        #expect(order.actions.map(\.identifier) == ["track", "cancel", "reply"])
        #expect(order.actions[1].options == [.destructive])
        #expect(order.actions[2].textInput == .init(buttonTitle: "Send", placeholder: "Message"))
        #expect(order.hiddenPreviewsBodyPlaceholder == "%u new orders")
        #expect(order.options == [.hiddenPreviewsShowTitle])
        #expect(app.category("Order") == nil)
    }

    @Test(
        arguments: [
            (#"[]"#, "must be a JSON object"),
            (#"{"categories": {}}"#, "\"categories\" must be an array"),
            (#"{"categories": [{"actions": []}]}"#, "categories[0].identifier is missing"),
            (
                #"{"categories": [{"identifier": "a", "actions": [{"identifier": "x"}]}]}"#,
                "categories[0].actions[0].title is missing"
            ),
            (
                #"{"categories": [{"identifier": "a", "actions": [{"identifier": "x", "title": "X", "options": ["red"]}]}]}"#,
                "categories[0].actions[0].options[0]: \"red\" is not one of"
            ),
            (#"{"categories": [{"identifier": "a"}, {"identifier": "a"}]}"#, "is registered twice"),
            (#"{"categories": [{"identifier": "a", "colour": 1}]}"#, "categories[0].colour is not a key"),
            (
                #"{"categories": [{"identifier": "a", "actions": [{"identifier": "x", "title": "X", "textInput": "yes"}]}]}"#,
                "categories[0].actions[0].textInput must be an object"
            ),
        ])
    func aBadFileNamesTheField(file: String, problem: String) {
        #expect(throws: AppCategoriesError.self) { try AppCategories.parse(Array(file.utf8)) }
        do {
            _ = try AppCategories.parse(Array(file.utf8))
        } catch {
            #expect(error.message.contains(problem), "\(error.message)")
        }
    }
}

@Suite struct NotificationResponseTests {
    func answer(_ request: ResponseRequest, locked: Bool = false) throws -> Result<
        NotificationResponse, ResponseRefusal
    > {
        let result = PresentationModelTests.result()
        let presentation = try #require(
            NotificationPresentation(of: result, categories: PresentationModelTests.order))
        return NotificationResponse.answer(
            request, to: presentation, categories: PresentationModelTests.order, requestIdentifier: "id-1",
            content: result.content, locked: locked)
    }

    @Test func aTextActionCarriesTheText() throws {
        let response = try answer(ResponseRequest(action: "reply", text: "On my way")).get()
        #expect(response.actionIdentifier == "reply")
        #expect(response.userText == "On my way")
        #expect(response.categoryIdentifier == "order")
        #expect(response.requestIdentifier == "id-1")
    }

    @Test func theDefaultAndDismissActionsUseApplesIdentifiers() throws {
        let tapped = try answer(ResponseRequest(action: "default")).get()
        #expect(tapped.actionIdentifier == "com.apple.UNNotificationDefaultActionIdentifier")
        #expect(tapped.opensApp)
        let dismissed = try answer(ResponseRequest(action: "dismiss")).get()
        #expect(dismissed.actionIdentifier == "com.apple.UNNotificationDismissActionIdentifier")
    }

    @Test func whatThePersonCannotDoIsRefusedWithTheReason() throws {
        guard case .failure(let missing) = try answer(ResponseRequest(action: "refund")) else {
            Issue.record("an action the category lacks was answered")
            return
        }
        #expect(missing.reason.contains("\"track\", \"cancel\", \"reply\", \"open\""))
        guard case .failure(let noText) = try answer(ResponseRequest(action: "reply")) else {
            Issue.record("a text action without text was answered")
            return
        }
        #expect(noText.reason.contains("asks for text"))
        guard case .failure(let extra) = try answer(ResponseRequest(action: "track", text: "hi")) else {
            Issue.record("text on a plain button was answered")
            return
        }
        #expect(extra.reason.contains("takes no text"))
    }

    @Test func aForegroundActionOnALockedPhoneUnlocksFirst() throws {
        #expect(try answer(ResponseRequest(action: "open"), locked: true).get().unlockedFirst)
        #expect(try answer(ResponseRequest(action: "open")).get().unlockedFirst == false)
        #expect(try answer(ResponseRequest(action: "track"), locked: true).get().unlockedFirst == false)
    }
}
