import UserNotifications

/// The same entry point under its 6.2 – 6.4 name (the 6.2.0 swiftinterface at 20c0837f): MoEngage's module then
/// declared `MORichNotification` with these members, renamed in 7.0.0 ("All the classes and modules are prefixed with
/// `MoEngage`").
public class MORichNotification: NSObject, @unchecked Sendable {
    // @unchecked: no state of its own.

    public override init() {
        super.init()
    }

    public static func setAppGroupID(_ appGroupID: String) {
        MoEngageSDKRichNotification.setAppGroupID(appGroupID)
    }

    public static func handle(
        richNotificationRequest request: UNNotificationRequest,
        withContentHandler contentHandler: @escaping MoEngageRichNotification.contentHandler
    ) {
        MoEngageSDKRichNotification.handle(richNotificationRequest: request, withContentHandler: contentHandler)
    }
}
