import UIKit
import UserNotifications

/// The app's own notification service (not the extension): asks for permission and registers for remote
/// notifications. It has the extension's class name, in another target.
final class NotificationService {
    func requestAuthorization() async {
        let center = UNUserNotificationCenter.current()
        guard (try? await center.requestAuthorization(options: [.alert, .sound, .badge])) == true else { return }
        await MainActor.run { UIApplication.shared.registerForRemoteNotifications() }
    }
}
