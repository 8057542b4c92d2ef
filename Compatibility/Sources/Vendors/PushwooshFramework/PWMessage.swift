import Foundation
import RichPushRules
import RichPushVendorSupport

/// A Pushwoosh message (PushwooshCore/Public/PWMessage.h @ 86e3772a), as far as an extension uses it: telling
/// Pushwoosh's pushes from others.
open class PWMessage: NSObject {
    /// `userInfo["pw_msg"] != nil` (PWMessage.m @ 86e3772a): the rules' own test, which the SDK's processing uses.
    open class func isPushwooshMessage(_ userInfo: [AnyHashable: Any]) -> Bool {
        RichPushRules.Pushwoosh().isPushwooshMessage(UserInfoNode(userInfo))
    }
}
