import RichPushCore
import Testing

@Suite struct ImageURLPolicyTests {
    func object(_ json: String) throws -> JSONObject {
        try #require(try JSONParser.parse(Array(json.utf8)).objectValue)
    }

    @Test func blueprintPrefersFcmOptionsImageOverNotificationImage() throws {
        let payload = try object(
            #"{"notification": {"image": "https://a.test/n.png"}, "fcm_options": {"image": "https://a.test/f.png"}}"#
        )
        let resolved = ImageURLPolicy.blueprint.resolve(in: payload)
        #expect(resolved?.keyPath == "fcm_options.image")
        #expect(resolved?.url == "https://a.test/f.png")

        let onlyNotification = try object(#"{"notification": {"image": "https://a.test/n.png"}}"#)
        #expect(ImageURLPolicy.blueprint.resolve(in: onlyNotification)?.keyPath == "notification.image")
    }

    @Test func nonStringValuesAreSkipped() throws {
        let payload = try object(
            #"{"fcm_options": {"image": 5}, "notification": {"image": "https://a.test/n.png"}}"#)
        #expect(ImageURLPolicy.blueprint.resolve(in: payload)?.url == "https://a.test/n.png")
    }

    @Test func addedKeyPathsFindTheSeedArticlesShapes() throws {
        let small = try object(
            #"{"aps": {"alert": "x"}, "data": {"smallImage": "https://a.test/s.png"}}"#)
        #expect(ImageURLPolicy.blueprint.resolve(in: small) == nil)
        #expect(
            ImageURLPolicy.blueprint(adding: ["data.smallImage"]).resolve(in: small)?.url
                == "https://a.test/s.png")

        let alertImage = try object(
            #"{"aps": {"alert": {"title": "t", "image": "https://a.test/i.png"}}}"#)
        #expect(
            ImageURLPolicy.blueprint(adding: ["aps.alert.image"]).resolve(in: alertImage)?.url
                == "https://a.test/i.png")
    }

    @Test func keyPathsMatchKeysThatContainDots() throws {
        let payload = try object(
            #"{"com.urbanairship.media_attachment": {"url": ["x"], "urls": []}, "com.batch.at": {"u": "https://b.test/x.jpg"}}"#
        )
        #expect(PayloadKeyPath(parsing: "com.batch.at.u")?.value(in: payload) == "https://b.test/x.jpg")
        #expect(
            PayloadKeyPath(parsing: "com.urbanairship.media_attachment.url")?.value(in: payload) == ["x"])
    }

    @Test func invalidKeyPathsAreRefused() {
        #expect(PayloadKeyPath(parsing: "") == nil)
        #expect(PayloadKeyPath(parsing: "a..b") == nil)
        #expect(PayloadKeyPath(parsing: ".a") == nil)
        #expect(PayloadKeyPath(parsing: "data.smallImage")?.components == ["data", "smallImage"])
    }

    @Test func missedWellKnownKeysAreNamedForTheHint() throws {
        let payload = try object(
            #"{"aps": {"alert": {"title": "t", "image": "https://a.test/i.png"}}}"#)
        #expect(ImageURLPolicy.blueprint.missedImageKey(in: payload)?.keyPath == "aps.alert.image")

        let oneSignal = try object(#"{"aps": {"alert": "x"}, "att": {"id": "https://o.test/1.png"}}"#)
        #expect(ImageURLPolicy.blueprint.missedImageKey(in: oneSignal)?.keyPath == "att.id")

        let insecure = try object(#"{"data": {"smallImage": "http://a.test/s.png"}}"#)
        #expect(ImageURLPolicy.blueprint.missedImageKey(in: insecure) == nil)
    }
}
