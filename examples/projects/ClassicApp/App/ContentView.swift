import SwiftUI

/// Shows the title of the last notification the service extension handled, read from the App Group.
struct ContentView: View {
    @State private var lastNotification = "No notification yet"

    var body: some View {
        VStack(spacing: 12) {
            Text("Last notification")
                .font(.headline)
            Text(lastNotification)
        }
        .padding()
        .task {
            if let file = AppGroup.lastNotificationFile, let title = try? String(contentsOf: file, encoding: .utf8) {
                lastNotification = title
            }
        }
    }
}
