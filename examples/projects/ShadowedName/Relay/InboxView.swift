import SwiftUI

struct InboxView: View {
    var body: some View {
        NavigationStack {
            Text("Messages relayed from \(BuildFlags.apiHost) appear here.")
                .padding()
                .navigationTitle("Relay")
        }
    }
}
