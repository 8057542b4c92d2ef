import NIOHTTP1
import RichPushCore
import RichPushServe
import RichPushServeTestSupport
import Testing

@Suite("serve: the person's answers at /richpush/v1/responses", .serialized)
struct ResponseEndpointTests {
    static let categories = AppCategories(categories: [
        NotificationCategory(
            identifier: "order",
            actions: [
                NotificationAction(identifier: "track", title: "Track"),
                NotificationAction(
                    identifier: "reply", title: "Reply", textInput: .init(buttonTitle: "Send", placeholder: "")),
            ])
    ])

    @Test("a pushed notification's text button answered over the API: the app gets the text, GET lists it")
    func replyRoundTrip() async throws {
        try await withServer(categories: Self.categories) { harness in
            let id = "7b3e1a52-0c4d-4e8f-9a61-2d5c8b7f0e13"
            let payload = #"{"aps":{"alert":{"title":"Order 42","body":"Shipped"},"category":"order"}}"#
            #expect(try await harness.push(payload: payload) { $0["apns-id"] = id }.status == 200)
            let shown = try #require(await harness.nextResult())
            #expect(shown.result.presentation?.view(.expanded)?.actions.map(\.identifier) == ["track", "reply"])

            let answer = try await harness.send(
                .POST, "/richpush/v1/responses",
                body: #"{"notification": "\#(id)", "action": "reply", "text": "On my way"}"#)
            #expect(answer.status == 200)
            #expect(answer.json?["actionIdentifier"]?.stringValue == "reply")
            #expect(answer.json?["userText"]?.stringValue == "On my way")
            #expect(answer.json?["request"]?["identifier"]?.stringValue == id)

            let listing = try #require(try await harness.send(.GET, "/richpush/v1/responses").json)
            #expect(listing["total"]?.numberValue == 1)
            #expect(listing["responses"]?.arrayValue?.first?["userText"]?.stringValue == "On my way")
            #expect(try await harness.send(.DELETE, "/richpush/v1/responses").status == 204)
            #expect(try await harness.send(.GET, "/richpush/v1/responses").json?["total"]?.numberValue == 0)
        }
    }

    @Test(
        "what a person cannot do is refused with the reason: a missing button 422, an unknown notification 404, a bad body 400"
    )
    func refusals() async throws {
        try await withServer(categories: Self.categories) { harness in
            let id = "0c8d2e4f-6a1b-4c3d-8e5f-7a9b1c2d3e4f"
            let payload = #"{"aps":{"alert":{"title":"Order 43","body":"Shipped"},"category":"order"}}"#
            #expect(try await harness.push(payload: payload) { $0["apns-id"] = id }.status == 200)
            _ = await harness.nextResult()

            let missing = try await harness.send(
                .POST, "/richpush/v1/responses", body: #"{"notification": "\#(id)", "action": "refund"}"#)
            #expect(missing.status == 422)
            #expect(missing.json?["error"]?.stringValue?.contains("no button \"refund\"") == true)
            let noText = try await harness.send(
                .POST, "/richpush/v1/responses", body: #"{"notification": "\#(id)", "action": "reply"}"#)
            #expect(noText.status == 422)
            let unknown = try await harness.send(
                .POST, "/richpush/v1/responses", body: #"{"notification": "nope", "action": "default"}"#)
            #expect(unknown.status == 404)
            let bad = try await harness.send(.POST, "/richpush/v1/responses", body: "[1]")
            #expect(bad.status == 400)
            #expect(try await harness.send(.GET, "/richpush/v1/responses").json?["total"]?.numberValue == 0)
        }
    }
}
