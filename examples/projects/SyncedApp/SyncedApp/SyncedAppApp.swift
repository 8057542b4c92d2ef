import SwiftUI
import UserNotifications

@main
struct SyncedAppApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
                .task {
                    _ = try? await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound])
                }
        }
    }
}
