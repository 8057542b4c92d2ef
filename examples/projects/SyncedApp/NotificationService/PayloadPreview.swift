import SwiftUI

/// A preview of how a room message arrives, shown in the app. It lives beside the extension's code but belongs to
/// the app target only: the extension has no SwiftUI views.
struct PayloadPreview: View {
    var room: String
    var title: String

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("#\(room)")
                .font(.caption)
                .foregroundStyle(.secondary)
            Text(title)
                .font(.body)
        }
        .padding()
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 12))
    }
}
