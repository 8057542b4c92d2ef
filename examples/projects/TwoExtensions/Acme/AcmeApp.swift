import SwiftUI

/// One app source compiled into both apps: Acme, and Acme Dev (which talks to the staging server).
@main
struct AcmeApp: App {
    var body: some Scene {
        WindowGroup {
            OrdersView()
        }
    }
}
