import Foundation
import RichPushCore
import RichPushReplay
import Testing

/// The header every report prints (replay's, the notification center's export) comes from one initialiser.
@Suite struct ReportContextTests {
    static func value(_ name: String, in context: ReportContext) -> String? {
        context.settings.first { $0.name == name }?.value
    }

    @Test func theLimitsAreTheOnesInForceForTheSDK() {
        var configuration = DeliveryConfiguration(downloadTimeout: .milliseconds(750))
        let requirement = ReportContext(about: [], configuration: configuration)
        #expect(Self.value("SDK", in: requirement)?.hasPrefix("requirement") == true)
        #expect(Self.value("Download timeout", in: requirement) == "750 ms")
        #expect(Self.value("Download cap", in: requirement) == "10 MB")

        // Firebase's helper has a timeout of its own and no size check: the header says what bound the
        // deliveries, as each result's limits do, not the --download-timeout it ignored.
        configuration.sdk = SDKProfile(Firebase())
        let firebase = ReportContext(about: [], configuration: configuration)
        let limits = EffectiveLimits(configuration)
        #expect(Self.value("SDK", in: firebase)?.hasPrefix("firebase") == true)
        #expect(Self.value("Download timeout", in: firebase) == limits.downloadTimeout.shortDescription)
        #expect(Self.value("Download timeout", in: firebase) != "750 ms")
        #expect(Self.value("Download cap", in: firebase) == ByteCount.limit(limits.downloadMaxBytes))
        #expect(Self.value("Attachment cap", in: firebase) == "10 MB")
    }

    @Test func aTeamsExtensionIsNamedWithItsMemoryLimitInsteadOfAnSDK() {
        let context = ReportContext(
            about: [.init("From", "here")], configuration: DeliveryConfiguration(),
            customExtension: "examples/extensions/naive", then: [.init("Jobs", "2")])
        #expect(context.settings.first?.name == "From" && context.settings.last?.name == "Jobs")
        #expect(Self.value("Extension", in: context)?.contains("examples/extensions/naive") == true)
        #expect(Self.value("SDK", in: context) == nil)
        #expect(Self.value("Extension memory", in: context) == "24 MB")
    }
}
