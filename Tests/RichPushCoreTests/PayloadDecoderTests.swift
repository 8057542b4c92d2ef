import RichPushCore
import Testing

@Suite struct PayloadDecoderTests {
    let decoder = PayloadDecoder()

    @Test func alertStringIsTheBody() throws {
        let request = try decoder.decode(payload(#"{"aps": {"alert": "Hello"}}"#))
        #expect(request.content == NotificationContent(body: "Hello"))
        #expect(request.source == .apns)
    }

    @Test func alertDictionaryAndApsFields() throws {
        let request = try decoder.decode(
            payload(
                #"""
                {"aps": {"alert": {"title": "T", "subtitle": "S", "body": "B"}, "badge": 3,
                 "sound": {"critical": 1, "name": "siren.caf", "volume": 0.8}, "thread-id": "t1",
                 "category": "PROMO", "mutable-content": 1, "content-available": 1,
                 "interruption-level": "time-sensitive", "relevance-score": 0.75, "target-content-id": "w1"},
                 "push_id": "p-1", "deep": {"link": "app://x"}}
                """#))
        #expect(request.content == NotificationContent(title: "T", subtitle: "S", body: "B"))
        #expect(request.badge == 3)
        #expect(request.sound == "siren.caf")
        #expect(request.threadID == "t1")
        #expect(request.category == "PROMO")
        #expect(request.mutableContent)
        #expect(request.contentAvailable)
        #expect(request.interruptionLevel == "time-sensitive")
        #expect(request.relevanceScore == 0.75)
        #expect(request.targetContentID == "w1")
        #expect(request.userInfo.keys == ["push_id", "deep"])
        #expect(request.userInfo["deep"] == ["link": "app://x"])
    }

    @Test func localisationKeysShowWithTheirArgumentsWhenThereIsNoLiteral() throws {
        let request = try decoder.decode(
            payload(
                #"{"aps": {"alert": {"title-loc-key": "GAME_INVITE_TITLE", "loc-key": "GAME_INVITE", "loc-args": ["Jenna", 3], "subtitle": "Now"}}}"#
            ))
        #expect(request.content.title == "GAME_INVITE_TITLE")
        #expect(request.content.body == "GAME_INVITE(Jenna, 3)")
        #expect(request.content.subtitle == "Now")
    }

    @Test(arguments: [
        (#"1"#, true), (#"1.0"#, true), (#"true"#, false), (#""1""#, false), (#"0"#, false),
        (#"2"#, false),
    ])
    func onlyTheNumberOneMakesContentMutable(value: String, mutable: Bool) throws {
        let request = try decoder.decode(
            payload(#"{"aps": {"alert": "x", "mutable-content": \#(value)}}"#))
        #expect(request.mutableContent == mutable)
    }

    @Test func simulatorFileReadsTheTargetBundleAndKeepsItOutOfUserInfo() throws {
        let request = try decoder.decode(
            payload(#"{"Simulator Target Bundle": "com.example.shop", "aps": {"alert": "Hi"}, "k": 1}"#))
        #expect(request.source == .simulator)
        #expect(request.targetBundle == "com.example.shop")
        #expect(request.userInfo.keys == ["k"])
    }

    @Test func fcmMessageIsTranslatedToWhatTheDeviceReceives() throws {
        let request = try decoder.decode(
            payload(
                #"""
                {"message": {"token": "abc",
                  "notification": {"title": "Sale", "body": "50% off", "image": "https://cdn.example/n.png"},
                  "data": {"push_id": "42", "aps": "must not clobber"},
                  "apns": {"payload": {"aps": {"mutable-content": 1, "sound": "default"}},
                           "fcm_options": {"image": "https://cdn.example/apns.png"}}}}
                """#))
        #expect(request.source == .fcmV1)
        #expect(request.content == NotificationContent(title: "Sale", body: "50% off"))
        #expect(request.mutableContent)
        #expect(request.sound == "default")
        #expect(request.userInfo["push_id"] == "42")
        #expect(request.payload["fcm_options"]?["image"] == "https://cdn.example/apns.png")
        #expect(request.userInfo["message"] == nil)
    }

    @Test func fcmImageFallsBackToNotificationImageAndApnsAlertWins() throws {
        let request = try decoder.decode(
            payload(
                #"""
                {"message": {"notification": {"title": "FCM title", "image": "https://cdn.example/n.png"},
                  "apns": {"payload": {"aps": {"alert": {"title": "APNs title"}}}}}}
                """#))
        #expect(request.content.title == "APNs title")
        #expect(request.payload["fcm_options"]?["image"] == "https://cdn.example/n.png")
    }

    @Test func fcmApnsHeadersCarryTheCollapseID() throws {
        let request = try decoder.decode(
            payload(
                #"{"message": {"notification": {"title": "T"}, "apns": {"headers": {"apns-collapse-id": "sale-42", "apns-priority": "10"}}}}"#
            ))
        #expect(request.collapseID == "sale-42")
        #expect(request.payload["headers"] == nil, "headers are not part of the payload the device receives")
    }

    @Test func fcmDoesNotInventMutableContent() throws {
        let request = try decoder.decode(
            payload(
                #"{"message": {"notification": {"title": "T", "body": "B", "image": "https://x.test/a.png"}}}"#
            ))
        #expect(request.mutableContent == false)
        #expect(request.payload["aps"]?["mutable-content"] == nil)
    }

    @Test func chineseAndEmojiTextIsKeptIntact() throws {
        let request = try decoder.decode(
            payload(#"{"aps": {"alert": {"title": "新品上架 🎉", "body": "點擊查看 👩‍👩‍👧 \u2728"}}}"#))
        #expect(request.content.title == "新品上架 🎉")
        #expect(request.content.body == "點擊查看 👩‍👩‍👧 ✨")
    }

    @Test func malformedJSONIsRejectedWithLineAndColumn() {
        #expect(
            throws: PayloadRejection(
                .malformedJSON,
                "not valid JSON at line 2, column 17: unexpected '}', expected a key in double quotes")
        ) {
            try decoder.decode(payload("{\"aps\": {\n  \"alert\": \"x\", }}"))
        }
    }

    @Test func nonObjectAndMissingApsAreRejected() {
        #expect(throws: PayloadRejection(.notAnObject, "the payload is an array, not a JSON object")) {
            try decoder.decode(payload("[1]"))
        }
        #expect(throws: PayloadRejection(.missingAps, "no \"aps\" key")) {
            try decoder.decode(payload(#"{"alert": "x"}"#))
        }
        #expect(throws: PayloadRejection(.missingAps, "\"aps\" is a string, not a dictionary")) {
            try decoder.decode(payload(#"{"aps": "x"}"#))
        }
    }

    @Test func payloadsOverFourKilobytesAreRejected() throws {
        let filler = String(repeating: "x", count: 4096)
        #expect {
            try decoder.decode(payload(#"{"aps": {"alert": "x"}, "filler": "\#(filler)"}"#))
        } throws: { ($0 as? PayloadRejection)?.reason == .payloadTooLarge }

        // Exactly at the limit is accepted.
        let base = #"{"aps":{"alert":"x"},"f":""}"#.utf8.count
        let exact = String(repeating: "y", count: 4096 - base)
        #expect(
            try decoder.decode(payload(#"{"aps":{"alert":"x"},"f":"\#(exact)"}"#)).payloadBytes == 4096)
    }

    @Test func theLimitCountsTheTranslatedFCMPayloadNotTheEnvelope() throws {
        // The token and other envelope fields are not part of what APNs carries.
        let token = String(repeating: "t", count: 5000)
        let request = try decoder.decode(
            payload(#"{"message": {"token": "\#(token)", "notification": {"title": "T"}}}"#))
        #expect(request.payloadBytes < 100)
    }
}
