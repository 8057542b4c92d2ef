import Foundation
import RichPushRules
import RichPushVendorSupport

/// An APNs payload as Mobile Messaging types it (Classes/MobileMessaging/Core/Message/MTMessage.swift @ 14.4.3).
public typealias MMAPNSPayload = [AnyHashable: Any]

/// The base of Mobile Messaging's messages; only its subclass's payload check is used in an extension.
open class MMBaseMessage: NSObject {}

/// A push message of Mobile Messaging (MTMessage.swift @ 14.4.3 46a218f0), as far as the extension sample uses it.
open class MM_MTMessage: MMBaseMessage {
    /// Whether `payload` is an Infobip message: a string `messageId` beside `aps` (the rules' own test).
    public class func isCorrectPayload(_ payload: MMAPNSPayload) -> Bool {
        RichPushRules.Infobip(generation: .upTo14).isCorrectPayload(UserInfoNode(payload))
    }
}
