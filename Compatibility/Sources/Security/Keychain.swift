import Foundation
import Synchronization
import UserNotifications

/// The extension process's keychain: empty when the process starts (one process per notification, so per
/// notification), holding what the extension adds. On a phone the extension shares the app's keychain access group;
/// richpush cannot know what the app stored, so a lookup that finds nothing is reported to richpush once per distinct
/// query (``note``).
final class Keychain: Sendable {
    static let shared = Keychain()

    /// One stored item.
    struct Item: Sendable {
        var itemClass: String
        var attributes: [String: KeychainValue]
        var accessGroup: String?
        var synchronizable: Bool
        var data: Data?
        var key: SecKey?
        let persistentReference: Data
    }

    private struct State {
        var items: [Item] = []
        var noted: Set<String> = []
        var added = 0
    }

    private let state = Mutex(State())
    /// Where notes go: richpush's events channel (nothing outside richpush). Tests listen here.
    let noteSink: Mutex<@Sendable (String) -> Void> = Mutex({ detail in
        RichPushHostChannel.send(.frameworkNote(framework: "Security", detail: detail))
    })

    /// The attributes that make two items of a class the same item (errSecDuplicateItem), as iOS keys them.
    /// https://developer.apple.com/documentation/security/secitemadd(_:_:)
    private static let primaryKeys: [String: [String]] = [
        "genp": ["acct", "svce"],
        "inet": ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path"],
        "keys": ["kcls", "klbl", "atag", "type", "bsiz", "esiz"],
        "cert": ["ctyp", "issr", "slnr"],
        "idnt": ["ctyp", "issr", "slnr"],
    ]

    static let classNames: [String: String] = [
        "genp": "kSecClassGenericPassword", "inet": "kSecClassInternetPassword", "keys": "kSecClassKey",
        "cert": "kSecClassCertificate", "idnt": "kSecClassIdentity",
    ]

    func add(_ query: KeychainQuery) -> (OSStatus, AnyObject?) {
        guard let itemClass = query.itemClass, Self.primaryKeys[itemClass] != nil else { return (errSecParam, nil) }
        var attributes = query.attributes
        var data = query.valueData
        if let key = query.valueRef {
            for (name, value) in key.keychainAttributes where attributes[name] == nil { attributes[name] = value }
            data = data ?? key.externalRepresentation
        }
        let now = KeychainValue.date(Date())
        attributes["cdat"] = now
        attributes["mdat"] = now
        if attributes["pdmn"] == nil { attributes["pdmn"] = .string(kSecAttrAccessibleWhenUnlocked as String) }
        return state.withLock { state in
            state.added += 1
            let item = Item(
                itemClass: itemClass, attributes: attributes, accessGroup: query.accessGroup,
                synchronizable: query.synchronizable == .yes, data: data, key: query.valueRef,
                persistentReference: Data("richpush-keychain-item-\(state.added)".utf8))
            if state.items.contains(where: { Self.sameItem($0, item) }) { return (errSecDuplicateItem, nil) }
            state.items.append(item)
            return (errSecSuccess, query.returnsSomething ? Self.result(for: item, query) : nil)
        }
    }

    func copyMatching(_ query: KeychainQuery) -> (OSStatus, AnyObject?) {
        guard query.itemClass.flatMap({ Self.primaryKeys[$0] }) != nil else { return (errSecParam, nil) }
        let (found, empty) = state.withLock { state in
            (state.items.filter { Self.matches($0, query) }, state.items.isEmpty)
        }
        guard !found.isEmpty else {
            note(notFound: query, keychainEmpty: empty)
            return (errSecItemNotFound, nil)
        }
        guard query.returnsSomething else { return (errSecSuccess, nil) }
        switch query.limit {
        case .one:
            return (errSecSuccess, Self.result(for: found[0], query))
        case .all:
            return (errSecSuccess, found.compactMap { Self.result(for: $0, query) } as NSArray)
        case .count(let count):
            return (errSecSuccess, found.prefix(count).compactMap { Self.result(for: $0, query) } as NSArray)
        }
    }

    func update(_ query: KeychainQuery, with changes: KeychainQuery) -> OSStatus {
        guard query.itemClass.flatMap({ Self.primaryKeys[$0] }) != nil, changes.itemClass == nil else {
            return errSecParam
        }
        return state.withLock { state in
            let indices = state.items.indices.filter { Self.matches(state.items[$0], query) }
            guard !indices.isEmpty else { return errSecItemNotFound }
            var items = state.items
            for index in indices {
                items[index].attributes.merge(changes.attributes) { $1 }
                items[index].attributes["mdat"] = .date(Date())
                if let data = changes.valueData { items[index].data = data }
                if let group = changes.accessGroup { items[index].accessGroup = group }
                if changes.synchronizable != .any { items[index].synchronizable = changes.synchronizable == .yes }
            }
            for (position, index) in indices.enumerated() {
                let others = items.indices.filter { $0 != index && !indices[..<position].contains($0) }
                if others.contains(where: { Self.sameItem(items[$0], items[index]) }) { return errSecDuplicateItem }
            }
            state.items = items
            return errSecSuccess
        }
    }

    func delete(_ query: KeychainQuery) -> OSStatus {
        guard query.itemClass.flatMap({ Self.primaryKeys[$0] }) != nil else { return errSecParam }
        return state.withLock { state in
            let before = state.items.count
            state.items.removeAll { Self.matches($0, query) }
            return state.items.count == before ? errSecItemNotFound : errSecSuccess
        }
    }

    /// Empties the keychain and forgets what was noted, as a new notification's process starts (tests).
    func reset() {
        state.withLock { $0 = State() }
    }

    // MARK: Matching

    private static func matches(_ item: Item, _ query: KeychainQuery) -> Bool {
        guard item.itemClass == query.itemClass else { return false }
        for (name, value) in query.attributes where item.attributes[name] != value { return false }
        switch query.synchronizable {
        case .no: if item.synchronizable { return false }
        case .yes: if !item.synchronizable { return false }
        case .any: break
        }
        // An item added without a group is in the default group, which any group the extension names may be.
        if let group = query.accessGroup, let itemGroup = item.accessGroup, group != itemGroup { return false }
        if let reference = query.valuePersistentRef, reference != item.persistentReference { return false }
        if let key = query.valueRef, key !== item.key { return false }
        return true
    }

    private static func sameItem(_ a: Item, _ b: Item) -> Bool {
        guard a.itemClass == b.itemClass, a.synchronizable == b.synchronizable,
            (a.accessGroup ?? "") == (b.accessGroup ?? "")
        else { return false }
        return (primaryKeys[a.itemClass] ?? []).allSatisfy { a.attributes[$0] == b.attributes[$0] }
    }

    /// What `SecItemCopyMatching` hands back for one item: the single thing asked for, or a dictionary of the
    /// attributes with the values asked for.
    private static func result(for item: Item, _ query: KeychainQuery) -> AnyObject? {
        let asked = [query.returnData, query.returnAttributes, query.returnRef, query.returnPersistentRef]
        if asked.filter({ $0 }).count == 1, !query.returnAttributes {
            if query.returnData { return (item.data ?? Data()) as NSData }
            if query.returnRef { return item.key }
            return item.persistentReference as NSData
        }
        let dictionary = NSMutableDictionary()
        if query.returnAttributes {
            dictionary["class"] = item.itemClass as NSString
            for (name, value) in item.attributes { dictionary[name as NSString] = value.object }
            if let group = item.accessGroup { dictionary["agrp" as NSString] = group as NSString }
            dictionary["sync" as NSString] = NSNumber(value: item.synchronizable)
        }
        if query.returnData { dictionary["v_Data" as NSString] = (item.data ?? Data()) as NSData }
        if query.returnRef, let key = item.key { dictionary["v_Ref" as NSString] = key }
        if query.returnPersistentRef { dictionary["v_PersistentRef" as NSString] = item.persistentReference as NSData }
        return dictionary
    }

    // MARK: Notes

    /// Tells richpush, once per distinct query, that a lookup found nothing and why that is expected here.
    private func note(notFound query: KeychainQuery, keychainEmpty: Bool) {
        func described(_ name: String) -> String { query.attributes[name]?.described ?? "any" }
        let itemClass = query.itemClass.map { Self.classNames[$0] ?? $0 } ?? "any"
        let what =
            "class \(itemClass), service \(described("svce")), account \(described("acct")), access group "
            + (query.accessGroup.map { "\"\($0)\"" } ?? "any")
        let first = state.withLock { $0.noted.insert(what).inserted }
        guard first else { return }
        let state =
            keychainEmpty
            ? "the extension's keychain is empty under richpush"
            : "under richpush the extension's keychain holds only what it added itself"
        let detail =
            "SecItemCopyMatching found no item (\(what)): \(state); on a phone it shares the app's keychain group"
        let sink = noteSink.withLock { $0 }
        sink(detail)
    }
}
