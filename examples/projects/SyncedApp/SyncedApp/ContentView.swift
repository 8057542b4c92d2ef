import SwiftUI

struct ContentView: View {
    var body: some View {
        NavigationStack {
            PayloadPreview(room: "general", title: "Standup in 5 minutes")
                .navigationTitle("SyncedApp")
        }
    }
}
