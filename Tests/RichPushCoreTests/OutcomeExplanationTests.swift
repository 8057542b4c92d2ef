import RichPushCore
import Testing

/// The sentences the notification center and the HTML report explain outcomes with.
@Suite struct OutcomeExplanationTests {
    @Test func everyReasonHasASentenceForAProductOwner() {
        let limits = EffectiveLimits(DeliveryConfiguration())
        for reason in FallbackReason.allCases {
            let sentence = OutcomeExplanation.sentence(for: reason, limits: limits)
            #expect(sentence.hasSuffix("."), "\(reason)")
            #expect(!sentence.contains(reason.rawValue), "no reason codes in the sentence: \(reason)")
        }
        for reason in RejectionReason.allCases {
            #expect(OutcomeExplanation.sentence(for: reason).hasSuffix("."))
        }
        #expect(
            OutcomeExplanation.sentence(for: .timeout, limits: limits)
                == "The image took longer than 5 seconds to download, so the phone showed the text without it.")
        #expect(OutcomeExplanation.sentence(for: .tooLarge, limits: limits).contains("10 MB"))
        let quick = EffectiveLimits(
            downloadTimeout: .milliseconds(250), extensionBudget: .seconds(2), downloadMaxBytes: 512 * 1024,
            attachmentMaxBytes: DownloadLimits.tenMegabytes)
        #expect(OutcomeExplanation.sentence(for: .timeout, limits: quick).contains("250 milliseconds"))
        #expect(OutcomeExplanation.sentence(for: .extensionExpired, limits: quick).contains("2 seconds"))
        #expect(
            OutcomeExplanation.sentence(for: .tooLarge, limits: quick).contains(
                "bigger than the 512 KB the extension downloads at most"))
        #expect(OutcomeExplanation.sentence(for: .attachmentRejected, limits: quick).contains("up to 10 MB"))
    }

    @Test func aSchemeOtherThanHTTPSIsNotCalledHTTP() {
        let sentence = OutcomeExplanation.sentence(for: .insecureURL, limits: EffectiveLimits(DeliveryConfiguration()))
        #expect(sentence.contains("does not start with https://"))
    }
}
