// Security as far as a Notification Service Extension uses it on iOS: the keychain (`SecItemAdd`,
// `SecItemCopyMatching`, `SecItemUpdate`, `SecItemDelete`), keys (`SecKey`: elliptic-curve signing, verification,
// key exchange and ECIES encryption, computed with swift-crypto) and `SecRandomCopyBytes`.
// https://developer.apple.com/documentation/security
//
// The keychain is the extension process's own and starts EMPTY for every notification: on a phone an extension
// shares the app's keychain access group and finds what the app stored there (tokens, decryption keys), which
// richpush cannot know. Items the extension adds are found afterwards. A lookup that finds nothing returns
// `errSecItemNotFound`, as on a phone without the item, and richpush tells the user once per distinct query (a
// `frameworkNote` in the notification's timeline), so a missing token reads as the emulation's limit and not as the
// extension's bug.
@_exported import Foundation
