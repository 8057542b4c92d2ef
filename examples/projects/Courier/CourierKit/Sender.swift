import Foundation

/// Who sent a message, as the backend puts it in the push: `"sender": {"id": "u42", "name": "Alex"}`.
public struct Sender: Equatable, Sendable {
    public var id: String
    public var name: String

    public init?(userInfo: [AnyHashable: Any]) {
        guard let sender = userInfo["sender"] as? [String: Any], let id = sender["id"] as? String,
            let name = sender["name"] as? String, !name.isEmpty
        else { return nil }
        self.id = id
        self.name = name
    }
}
