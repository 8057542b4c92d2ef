import Foundation

/// A dictionary handed to a `SecItem` function, read: the item class, the attributes to match or store, what to return
/// and how many.
struct KeychainQuery {
    enum Synchronizable: Equatable { case no, yes, any }
    enum Limit: Equatable { case one, all, count(Int) }

    var itemClass: String?
    /// Attributes to match or store, without the access group and synchronizable flag (read apart).
    var attributes: [String: KeychainValue] = [:]
    var accessGroup: String?
    var synchronizable = Synchronizable.no
    var returnData = false
    var returnAttributes = false
    var returnRef = false
    var returnPersistentRef = false
    var limit = Limit.one
    var valueData: Data?
    var valueRef: SecKey?
    var valuePersistentRef: Data?

    /// Keys that are never attributes: they say what to do, not what an item is.
    private static let controlKeys: Set<String> = [
        "class", "agrp", "sync", "accc", "nleg", "private", "public", "m_Limit", "r_Data", "r_Attributes", "r_Ref",
        "r_PersistentRef", "v_Data", "v_Ref", "v_PersistentRef",
    ]

    init(_ dictionary: CFDictionary?) {
        guard let dictionary else { return }
        for (key, value) in dictionary {
            guard let key = key as? String else { continue }
            switch key {
            case "class": itemClass = value as? String
            case "agrp": accessGroup = value as? String
            case "sync":
                if let string = value as? String, string == (kSecAttrSynchronizableAny as String) {
                    synchronizable = .any
                } else {
                    synchronizable = KeychainValue.flag(value) ? .yes : .no
                }
            case "m_Limit":
                if let string = value as? String {
                    limit = string == (kSecMatchLimitAll as String) ? .all : .one
                } else if let number = value as? NSNumber {
                    limit = .count(max(1, number.intValue))
                }
            case "r_Data": returnData = KeychainValue.flag(value)
            case "r_Attributes": returnAttributes = KeychainValue.flag(value)
            case "r_Ref": returnRef = KeychainValue.flag(value)
            case "r_PersistentRef": returnPersistentRef = KeychainValue.flag(value)
            case "v_Data":
                if case .data(let data)? = KeychainValue(value) { valueData = data }
                if case .string(let string)? = KeychainValue(value) { valueData = Data(string.utf8) }
            case "v_Ref": valueRef = value as? SecKey
            case "v_PersistentRef": valuePersistentRef = value as? Data
            default:
                guard !Self.controlKeys.contains(key), !key.hasPrefix("u_"), !key.hasPrefix("m_"),
                    let attribute = KeychainValue(value)
                else { continue }
                attributes[key] = attribute
            }
        }
    }

    /// Anything to return at all.
    var returnsSomething: Bool { returnData || returnAttributes || returnRef || returnPersistentRef }
}
