import UIKit
import UserNotifications
import UserNotificationsUI

/// The expanded view of an "order shipped" notification: the order's title in large type.
class NotificationViewController: UIViewController, UNNotificationContentExtension {

    @IBOutlet var label: UILabel?

    func didReceive(_ notification: UNNotification) {
        label?.text = notification.request.content.body
    }
}
