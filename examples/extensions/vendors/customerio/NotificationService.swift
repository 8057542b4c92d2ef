// Customer.io's extension for an app where Customer.io is not the only push provider, as Customer.io's rich push guide
// shapes it: the module is initialised for the extension with a CDP API key, `MessagingPush.shared.didReceive` handles
// the pushes that carry `CIO-Delivery-ID` and `CIO-Delivery-Token` (downloading `CIO.push.image` and reporting
// "delivered"), and its `false` for any other push means the extension must deliver that push itself. Under richpush
// the image follows the `customerio` SDK profile's rules, so this ends as `richpush --sdk customerio` does; the
// delivered metric is recorded in the timeline as "would send" and never sent.
import CioMessagingPushAPN
import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        MessagingPushAPN.initializeForExtension(
            withConfig: MessagingPushConfigBuilder(cdpApiKey: "richpush-example-cdp-key")
                .logLevel(.debug)
                .build()
        )
        let handled = MessagingPush.shared.didReceive(request, withContentHandler: contentHandler)
        if !handled {
            // Not a Customer.io push: another provider's code would go here; this app shows it as it came.
            contentHandler(request.content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        MessagingPush.shared.serviceExtensionTimeWillExpire()
    }
}
