@_exported import Foundation
@_exported import UserNotifications

/// Firebase Cloud Messaging's entry point (`FIRMessaging`), as far as a Notification Service Extension uses it:
/// ``serviceExtension()`` for the image and the delivery metrics, ``appDidReceiveMessage(_:)`` for analytics. The
/// app-side API (token, topics, registration) is here so a file that mentions it compiles; there is no Firebase app
/// here, so none of it contacts Firebase: completions get an error saying so.
///
/// The API is FirebaseMessaging/Sources/Public/FirebaseMessaging/FIRMessaging.h @ f62ab711 (12.18.0+), with
/// Firebase's deprecations.
open class Messaging: NSObject, @unchecked Sendable {
    // @unchecked: as Firebase's class, its properties are set from the app's own code; `seenMessageIDs` is behind
    // `lock`.

    private static let shared = Messaging()
    private static let extensionHelper = MessagingExtensionHelper()

    /// The shared instance (`[FIRMessaging messaging]`). Firebase's is nil at run time before
    /// `FirebaseApp.configure()` (FIRMessaging.m @ 9e31064b); this one always exists.
    open class func messaging() -> Messaging { shared }

    /// The helper that puts the image of `fcm_options.image` into a notification (`[FIRMessaging extensionHelper]`,
    /// one for the process, as Firebase's; FIRMessaging+ExtensionHelper.m @ 64aedfc8).
    open class func serviceExtension() -> MessagingExtensionHelper { extensionHelper }

    private let lock = NSLock()
    private var seenMessageIDs: Set<String> = []

    /// The APNs device token the app hands to Firebase; kept, never sent.
    open var apnsToken: Data?
    /// Whether Firebase registers the app by itself.
    open var isAutoInitEnabled = true
    /// Whether the app registers with its Firebase installation ID (12.16.0+): not here.
    open var isInstallationIdEnabled: Bool { false }
    /// The delegate told of registration changes (never, here).
    open weak var delegate: (any MessagingDelegate)?

    /// The FCM registration token: nil, as before Firebase has registered the app.
    @available(*, deprecated, message: "Use register(completion:) instead.")
    open var fcmToken: String? { nil }

    /// Keeps the APNs token; `type` is not used.
    open func setAPNSToken(_ apnsToken: Data, type: MessagingAPNSTokenType) {
        self.apnsToken = apnsToken
    }

    @available(*, deprecated, message: "Use register(completion:) instead.")
    open func token(completion: @escaping (String?, (any Error)?) -> Void) {
        completion(nil, MessagingError.notContacted("token"))
    }

    @available(*, deprecated, message: "Use register(completion:) instead.")
    open func token() async throws -> String {
        throw MessagingError.notContacted("token")
    }

    @available(*, deprecated, message: "Use unregister(completion:) instead.")
    open func deleteToken(completion: @escaping ((any Error)?) -> Void) {
        completion(MessagingError.notContacted("deleteToken"))
    }

    @available(*, deprecated, message: "Use register(completion:) instead.")
    open func retrieveFCMToken(forSenderID senderID: String, completion: @escaping (String?, (any Error)?) -> Void) {
        completion(nil, MessagingError.notContacted("retrieveFCMToken"))
    }

    @available(*, deprecated, message: "Use unregister(completion:) instead.")
    open func deleteFCMToken(forSenderID senderID: String, completion: @escaping ((any Error)?) -> Void) {
        completion(MessagingError.notContacted("deleteFCMToken"))
    }

    open func register(completion: @escaping ((any Error)?) -> Void) {
        completion(MessagingError.notContacted("register"))
    }

    open func unregister(completion: @escaping ((any Error)?) -> Void) {
        completion(MessagingError.notContacted("unregister"))
    }

    open func subscribe(toTopic topic: String) {}

    open func subscribe(toTopic topic: String, completion: (((any Error)?) -> Void)?) {
        completion?(MessagingError.notContacted("subscribe"))
    }

    open func unsubscribe(fromTopic topic: String) {}

    open func unsubscribe(fromTopic topic: String, completion: (((any Error)?) -> Void)?) {
        completion?(MessagingError.notContacted("unsubscribe"))
    }

    open func deleteData(completion: @escaping ((any Error)?) -> Void) {
        completion(MessagingError.notContacted("deleteData"))
    }

    /// Tells Firebase a message arrived, for its analytics, which an extension never logs (FIRMessagingAnalytics.m @
    /// 9e31064b returns early without a shared application). Nothing is sent; the result is `.unknown` for an empty
    /// message and `.new` otherwise, a repeated message too, as Firebase's (FIRMessaging.m @ 9e31064b).
    @discardableResult
    open func appDidReceiveMessage(_ message: [AnyHashable: Any]) -> MessagingMessageInfo {
        guard !message.isEmpty else { return MessagingMessageInfo(status: .unknown) }
        if let identifier = message["gcm.message_id"] as? String {
            lock.lock()
            seenMessageIDs.insert(identifier)
            lock.unlock()
        }
        return MessagingMessageInfo(status: .new)
    }
}

/// The kind of APNs token handed to ``Messaging/setAPNSToken(_:type:)`` (`FIRMessagingAPNSTokenType`).
public enum MessagingAPNSTokenType: Int, Sendable {
    case unknown = 0
    case sandbox = 1
    case prod = 2
}

/// The notification names, with Firebase's values (FIRMessaging.m @ 9e31064b).
extension Notification.Name {
    /// Posted when the FCM token changes (`FIRMessagingRegistrationTokenRefreshedNotification`): never, here.
    @available(*, deprecated, message: "Use messaging(_:didReceiveRegistration:) instead.")
    public static let MessagingRegistrationTokenRefreshed = Notification.Name(
        "com.firebase.messaging.notif.fcm-token-refreshed")
    /// Posted when the installation is unregistered (`FIRMessagingInstallationIdUnregisteredNotification`): never.
    public static let messagingInstallationIdUnregistered = Notification.Name(
        "com.firebase.messaging.notif.installation-id-unregistered")
}
