import Foundation

// The keychain's four functions, over the extension process's own keychain (``Keychain``), which starts empty for
// every notification.

/// Adds an item: `attributes` holds its class (`kSecClass`), attributes and value (`kSecValueData`, or a key as
/// `kSecValueRef`); `errSecDuplicateItem` when an item with the same identifying attributes exists.
/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    let (status, value) = Keychain.shared.add(KeychainQuery(attributes))
    if status == errSecSuccess { result?.pointee = value }
    return status
}

/// Finds items: the first (`kSecMatchLimitOne`, the default) or all (`kSecMatchLimitAll`), returned as asked
/// (`kSecReturnData` gives the value, `kSecReturnAttributes` a dictionary, both a dictionary with `kSecValueData`).
/// Nothing found is `errSecItemNotFound`, and richpush notes it once per distinct query: the keychain starts empty
/// here, where on a phone it holds what the app stored in the shared access group.
/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    let (status, value) = Keychain.shared.copyMatching(KeychainQuery(query))
    result?.pointee = status == errSecSuccess ? value : nil
    return status
}

/// Changes the attributes and value of every item `query` matches; `errSecItemNotFound` when none does.
/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    Keychain.shared.update(KeychainQuery(query), with: KeychainQuery(attributesToUpdate))
}

/// Deletes every item `query` matches; `errSecItemNotFound` when none does.
/// https://developer.apple.com/documentation/security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    Keychain.shared.delete(KeychainQuery(query))
}
