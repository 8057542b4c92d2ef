import RichPushCore
import RichPushLibrary
import RichPushReplay
import Testing

@Suite struct JUnitReporterTests {
    @Test func aFailedCaseOfATeamsExtensionCarriesItsCallsAndOutputEscaped() {
        var result = DeliveryResult(file: "e.json", appState: .background, style: .plain)
        result.extensionIdentity = ExtensionIdentity(kind: .custom, source: "ext", principalClass: "Service")
        result.contentHandlerCalls = 2
        result.extensionLog = ["download failed: <timeout>\u{1B}"]
        let item = ReplayItem(
            file: PayloadFile(path: "e.json"), result: result, verdict: .failed(["style: expected \"rich\""]))
        let xml = JUnitReporter().testCase(item)
        #expect(xml.contains("Your extension Service from ext: content handler called 2 times"))
        #expect(xml.contains("download failed: &lt;timeout&gt;\u{FFFD}"))

        var builtin = result
        builtin.extensionIdentity = .emulated(.requirement)
        builtin.extensionLog = []
        let plain = JUnitReporter().testCase(
            ReplayItem(file: PayloadFile(path: "b.json"), result: builtin, verdict: .failed(["x"])))
        #expect(!plain.contains("Your extension"))
    }
}
