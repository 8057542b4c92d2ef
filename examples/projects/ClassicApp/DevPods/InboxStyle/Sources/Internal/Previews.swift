// SwiftUI previews for the app only; excluded from the pod (exclude_files), so never compiled into the extension.
import SwiftUI

#Preview { Text(InboxStyle.subtitle(channel: "Design") ?? "") }
