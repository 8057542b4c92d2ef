import Foundation
public import RichPushRules

/// A notification's `userInfo`, as the vendors' rules read a payload: the same questions richpush asks of its parsed
/// JSON, so a vendor module finds the image exactly where `--sdk VENDOR` finds it.
public struct UserInfoNode: PayloadNode {
    public let value: Any

    public init(_ value: Any) {
        self.value = value
    }

    private var dictionary: [AnyHashable: Any]? {
        if let dictionary = value as? [AnyHashable: Any] { return dictionary }
        if let dictionary = value as? NSDictionary {
            var bridged: [AnyHashable: Any] = [:]
            for (key, value) in dictionary { if let key = key as? AnyHashable { bridged[key] = value } }
            return bridged
        }
        return nil
    }

    public func member(_ key: String) -> UserInfoNode? {
        dictionary?[AnyHashable(key)].map(UserInfoNode.init)
    }

    /// A dictionary's members, in key order (a dictionary has no order of its own; a payload's writer's order is
    /// lost when JSON becomes `userInfo`, on iOS as here).
    public var members: [(key: String, value: UserInfoNode)]? {
        guard let dictionary else { return nil }
        return dictionary.compactMap { key, value in
            (key.base as? String).map { ($0, UserInfoNode(value)) }
        }.sorted { $0.key < $1.key }
    }

    public var elements: [UserInfoNode]? {
        if let array = value as? [Any] { return array.map(UserInfoNode.init) }
        if let array = value as? NSArray { return array.map(UserInfoNode.init) }
        return nil
    }

    public var string: String? {
        if let string = value as? String { return string }
        if let string = value as? NSString { return string as String }
        return nil
    }

    public var isObject: Bool { dictionary != nil }
}
