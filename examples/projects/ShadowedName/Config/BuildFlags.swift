import Foundation

/// Settings compiled into the app and its extension alike.
enum BuildFlags {
    static let apiHost = "relay.example.com"
    /// Whether the extension shows which server relayed a message.
    static let showsRelayHost = true
}
