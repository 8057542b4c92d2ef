/// Every vendor's rules, richpush's own extension first, in the order of the README's table and the matrix's columns.
/// Adding a vendor: its file in this folder, its entry here, its modules' folders in Compatibility/Sources/Vendors, its
/// example in examples/extensions/vendors and its column in `payloads/sdk`'s expectations (docs/sdk-profiles.md).
public enum Vendors {
    public static let all: [any VendorRules] = [
        Requirement(), Firebase(), OneSignal(), Airship(), Braze(), CleverTap(), Iterable(), CustomerIO(), Batch(),
        MoEngage(), Pushwoosh(), Notificare(), Kumulos(), Optimove(), Infobip(), Klaviyo(),
    ]

    /// The rules called `name` (case does not matter), or nil.
    public static func named(_ name: String) -> (any VendorRules)? {
        let lowered = name.lowercased()
        return all.first { $0.name == lowered }
    }

    /// The vendor whose SDK provides `module`, among those richpush emulates.
    public static func providing(module: String) -> (any VendorRules)? {
        all.first { $0.sdk?.modules.contains(module) == true }
    }

    /// Push vendors whose SDKs richpush does not emulate, by the modules their extensions import: a team's
    /// extension that imports one is told which vendor that is and which ones richpush has.
    public static let unemulated: [(vendor: String, modules: [String])] = [
        ("WebEngage", ["WebEngageBannerPush", "WebEngage", "WEGExtension"]),
        ("Appier", ["AiQUA", "AppierFramework"]), ("CometChat", ["CometChatSDK", "CometChatPro"]),
        ("E-goi", ["EgoiPushLibrary"]), ("Netmera", ["NetmeraNotificationServiceExtension", "Netmera"]),
        ("Emarsys", ["EmarsysNotificationService", "EmarsysSDK"]), ("Courier", ["Courier_iOS", "CourierCore"]),
        ("Stream Chat", ["StreamChat", "StreamChatUI"]), ("Leanplum", ["Leanplum", "LeanplumSDK"]),
        ("Swrve", ["SwrveSDK", "SwrveSDKCommon"]), ("Adobe Experience Platform", ["AEPMessaging", "AEPCore"]),
        ("Insider", ["InsiderMobileAdvancedNotification", "InsiderMobile"]), ("Sendbird", ["SendbirdChatSDK"]),
        ("Mixpanel", ["Mixpanel"]), ("Salesforce Marketing Cloud", ["MarketingCloudSDK", "SFMCSDK"]),
        ("Urban Airship (Objective-C SDK)", ["AirshipKit"]), ("Twilio", ["TwilioConversationsClient"]),
    ]

    /// richpush's own cap on a download whose SDK does not check the size, so a runaway body cannot fill the disk. An
    /// image between iOS's 10 MB and this cap is downloaded and then refused by iOS.
    public static let safetyCapBytes = 64 * 1024 * 1024
}

/// An image URL with a type beside it that must both be strings: without the type the SDK shows the text only
/// (Braze, CleverTap, Batch).
public struct TypedImageKey: Sendable, Equatable {
    public var url: PayloadKeyPath
    public var type: PayloadKeyPath

    public init(url: PayloadKeyPath, type: PayloadKeyPath) {
        self.url = url
        self.type = type
    }

    public func requests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard let url = url.value(in: payload)?.string, let type = type.value(in: payload)?.string else { return [] }
        return [ImageRequest(keyPath: self.url, url: url, type: type)]
    }

    public func missingTypeHint<Node: PayloadNode>(in payload: Node, title: String) -> String? {
        guard url.value(in: payload)?.string != nil, type.value(in: payload)?.string == nil else { return nil }
        return "\(title) needs \(type) beside \(url); without it the SDK shows the text only."
    }
}

extension PayloadKeyPath {
    /// The one string at this path, as the only image request.
    func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        value(in: payload)?.string.map { [ImageRequest(keyPath: self, url: $0)] } ?? []
    }
}
