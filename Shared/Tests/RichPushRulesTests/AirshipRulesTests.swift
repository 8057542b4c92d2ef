import Foundation
import RichPushRules
import Testing

@Suite("Airship's rules: the media payload decodes as MediaAttachmentPayload, or nothing is fetched")
struct AirshipRulesTests {
    static func payload(_ media: Value) -> Value { .object([("com.urbanairship.media_attachment", media)]) }

    func urls(_ media: Value) -> [String] { Airship().imageRequests(in: Self.payload(media)).map(\.url) }

    @Test("urls entries with url and url_id, in order; an entry without url, or one URL(string:) refuses, is dropped")
    func urlsEntries() {
        let media = Value.object([
            (
                "urls",
                .array([
                    .object([("url", .string("https://a.test/1.jpg")), ("url_id", .string("a"))]),
                    .object([("url_id", .string("b"))]),
                    .object([("url", .string("http://exa mple.test/2.jpg"))]),
                    .object([("url", .string("https://a.test/3.png"))]),
                ])
            )
        ])
        #expect(urls(media) == ["https://a.test/1.jpg", "https://a.test/3.png"])
        #expect(Airship().mediaPayloadDecodes(in: Self.payload(media)))
    }

    @Test("a value of another type anywhere in urls or url: the payload does not decode, nothing is fetched")
    func strictDecoding() {
        let numberedID = Value.object([
            ("urls", .array([.object([("url", .string("https://a.test/1.jpg")), ("url_id", .number(7))])]))
        ])
        let mixed = Value.object([("url", .array([.string("https://a.test/1.jpg"), .number(2)]))])
        let notAnArray = Value.object([("urls", .string("https://a.test/1.jpg"))])
        for media in [numberedID, mixed, notAnArray] {
            #expect(urls(media).isEmpty && !Airship().mediaPayloadDecodes(in: Self.payload(media)))
        }
        // `urls` wins over `url`, even when it is empty.
        let both = Value.object([("urls", .array([])), ("url", .string("https://a.test/1.jpg"))])
        #expect(urls(both).isEmpty && Airship().mediaPayloadDecodes(in: Self.payload(both)))
    }

    @Test("neither url nor urls, text content that is no object, a crop without all four edges: does not decode")
    func otherKeys() {
        let url: (String, Value) = ("url", .string("https://a.test/1.jpg"))
        #expect(!Airship().mediaPayloadDecodes(in: Self.payload(.object([("content", .object([]))]))))
        #expect(!Airship().mediaPayloadDecodes(in: Self.payload(.object([url, ("content", .string("Sale"))]))))
        let partialCrop = Value.object([("x", .number(0)), ("y", .number(0)), ("width", .number(1))])
        #expect(
            !Airship().mediaPayloadDecodes(
                in: Self.payload(.object([url, ("options", .object([("crop", partialCrop)]))]))))
        #expect(
            !Airship().mediaPayloadDecodes(
                in: Self.payload(.object([url, ("options", .object([("hidden", .string("yes"))]))]))))
        let crop = Value.object([("x", .number(0)), ("y", .number(0)), ("width", .number(1)), ("height", .number(1))])
        let decodes = Value.object([
            url, ("thumbnail_id", .string("a")), ("options", .object([("crop", crop), ("time", .number(2))])),
            ("content", .object([("title", .string("Sale")), ("body", .string("Today"))])),
        ])
        #expect(urls(decodes) == ["https://a.test/1.jpg"])
    }

    @Test("every module name leads to Airship; UANotificationServiceExtension is the base class")
    func sdk() throws {
        let sdk = try #require(Airship().sdk)
        for module in [
            "AirshipServiceExtension", "AirshipNotificationServiceExtension", "AirshipExtensions",
            "AirshipAppExtensions",
        ] {
            #expect(Vendors.providing(module: module)?.name == "airship", "\(module)")
        }
        #expect(
            sdk.baseClasses == ["UANotificationServiceExtension"] && sdk.pods.contains("UrbanAirship-iOS-AppExtensions")
        )
    }
}
