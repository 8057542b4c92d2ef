import RichPushCore
import Testing

/// A key in `aps` that Apple does not define, or a value of a type Apple does not define for its key, is ignored by
/// iOS; the hint names the key or the type that was meant. Delivery is unchanged.
@Suite struct APSKeyHintTests {
    private func hint(_ aps: String, image: Bool = false) throws -> String? {
        let extra = image ? #", "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}"# : ""
        let request = try PayloadDecoder().decode(payload(#"{"aps": \#(aps)\#(extra)}"#))
        let engine = HintEngine(policy: .blueprint)
        return engine.hint(for: request, resolvedImage: ImageURLPolicy.blueprint.resolve(in: request.payload))
    }

    @Test(
        "a key within one separator or two edits of Apple's gets a did-you-mean naming it",
        arguments: [
            ("mutable_content", "mutable-content"), ("mutableContent", "mutable-content"),
            ("MutableContent", "mutable-content"), ("mutablecontent", "mutable-content"),
            ("mutable-contnet", "mutable-content"), ("content_available", "content-available"),
            ("contentAvailable", "content-available"), ("thread_id", "thread-id"), ("threadId", "thread-id"),
            ("interruption_level", "interruption-level"), ("interruptionLevel", "interruption-level"),
            ("relevance_score", "relevance-score"), ("relevanceScore", "relevance-score"),
            ("target_content_id", "target-content-id"), ("targetContentID", "target-content-id"),
            ("filter_criteria", "filter-criteria"), ("filterCriteria", "filter-criteria"), ("Badge", "badge"),
            ("bagde", "badge"), ("catgory", "category"),
        ])
    func didYouMean(written: String, meant: String) throws {
        let hint = try hint(#"{"alert": "Hi", "\#(written)": 1}"#)
        #expect(
            hint == "aps.\(written) is not a key Apple defines, so iOS ignores it: did you mean \"\(meant)\"?")
    }

    @Test("mutable_content with an image: the hint names mutable-content, not the generic 'no mutable-content'")
    func misspeltMutableContentWithAnImage() throws {
        let hint = try hint(#"{"alert": "Hi", "mutable_content": 1}"#, image: true)
        #expect(
            hint
                == #"aps.mutable_content is not a key Apple defines, so iOS ignores it: did you mean "mutable-content"?"#
        )
    }

    @Test("several misspelt keys are named in one sentence, in the payload's order")
    func severalMisspeltKeys() throws {
        let hint = try hint(#"{"alert": "Hi", "thread_id": "t", "mutableContent": 1}"#)
        #expect(
            hint
                == #"aps.thread_id and aps.mutableContent are not keys Apple defines, so iOS ignores them: did you mean "thread-id" and "mutable-content"?"#
        )
    }

    @Test(
        "keys far from Apple's, Apple's own keys, and a misspelling beside the right key get no did-you-mean",
        arguments: [
            #"{"alert": "Hi", "custom": 1, "url": "https://a.test", "priority": 10}"#,
            #"{"alert": "Hi", "mutable-content": 0, "thread-id": "t", "event": "update", "events": "end"}"#,
            #"{"alert": "Hi", "thread-id": "t", "thread_id": "t"}"#,
        ])
    func noDidYouMean(aps: String) throws {
        #expect(try hint(aps) == nil)
    }

    @Test(
        "a value of a type Apple does not define for its key gets the type APNs expects",
        arguments: [
            (
                #"{"alert": "Hi", "mutable-content": "1"}"#,
                #"aps.mutable-content is "1" (a string); iOS runs the extension only for the number 1: send "mutable-content": 1."#
            ),
            (
                #"{"content-available": true}"#,
                #"aps.content-available is true (a boolean); iOS wakes the app for a background update only for the number 1: send "content-available": 1."#
            ),
            (
                #"{"alert": "Hi", "badge": "3"}"#,
                #"aps.badge is "3" (a string); APNs expects a number: send "badge": 3."#
            ),
            (
                #"{"alert": "Hi", "thread-id": 42}"#,
                #"aps.thread-id is 42 (a number); APNs expects a string: send "thread-id": "42"."#
            ),
            (
                #"{"alert": 5}"#,
                #"aps.alert is 5 (a number); APNs expects a string or a dictionary."#
            ),
            (
                #"{"alert": "Hi", "relevance-score": "high"}"#,
                #"aps.relevance-score is "high" (a string); APNs expects a number."#
            ),
        ])
    func wrongType(aps: String, expected: String) throws {
        #expect(try hint(aps) == expected)
    }

    @Test("delivery is unchanged: a misspelt mutable-content still does not run the extension")
    func deliveryUnchanged() async {
        let system = NotificationSystem(downloader: ScriptedDownloader.succeeding())
        let result = await system.deliver(
            .file(
                "p.json",
                bytes: payload(
                    #"{"aps": {"alert": "Hi", "mutable_content": 1, "badge": "3"}, "fcm_options": {"image": "https://fixtures.richpush.test/cat.png"}}"#
                ), appState: .background))
        #expect(result.delivered)
        #expect(result.style == .plain)
        #expect(result.extensionInvoked == false)
        #expect(result.fallback?.reason == .notMutable)
        #expect(result.badge == nil)
        #expect(result.hint?.contains(#"did you mean "mutable-content"?"#) == true)
    }
}
