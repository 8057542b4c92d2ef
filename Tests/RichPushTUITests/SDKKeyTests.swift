import RichPushCore
import Testing

@testable import RichPushTUI

/// `p` cycles the SDK whose service extension library payloads go through; the header names it.
@Suite struct SDKKeyTests {
    @Test func pCyclesEverySDKAndBack() {
        var state = Fixtures.state()
        var seen: [String] = []
        for _ in SDKProfile.all {
            _ = reduce(&state, KeyBindings.action(for: .character("p"))!)
            seen.append(state.sdk.name)
        }
        #expect(seen == Array(SDKProfile.names.dropFirst()) + ["requirement"])
    }

    @Test func theHeaderNamesAVendorSDKAndTheStatusLineSaysWhatChanged() {
        var state = Fixtures.state()
        let before = render(state, size: Fixtures.size).text
        #expect(!before.contains("SDK:"), "the requirement's extension is the default and is not named")
        _ = reduce(&state, .cycleSDK)
        #expect(state.status?.hasPrefix("SDK: firebase, Firebase (FIRMessagingExtensionHelper)") == true)
        let header = render(state, size: Fixtures.size).text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("App state: BACKGROUND (f/b/c/s)   SDK: FIREBASE (p)"))
    }
}
