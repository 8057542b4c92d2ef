import Foundation

/// Told of registration changes (`FIRMessagingDelegate`, every method optional): never, in an extension under
/// richpush. Objective-C's optional methods are default implementations here, so a delegate implements any of them.
/// FIRMessaging.h @ f62ab711.
public protocol MessagingDelegate: NSObjectProtocol {
    @available(*, deprecated, message: "Use messaging(_:didReceiveRegistration:) instead.")
    func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?)
    func messaging(_ messaging: Messaging, didReceiveRegistration installationId: String?)
    func messaging(_ messaging: Messaging, didUnregister installationId: String)
}

extension MessagingDelegate {
    public func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?) {}
    public func messaging(_ messaging: Messaging, didReceiveRegistration installationId: String?) {}
    public func messaging(_ messaging: Messaging, didUnregister installationId: String) {}
}
