import SwiftUI

@main
struct RelayApp: App {
    private let notifications = NotificationService()

    var body: some Scene {
        WindowGroup {
            InboxView()
                .task { await notifications.requestAuthorization() }
        }
    }
}
