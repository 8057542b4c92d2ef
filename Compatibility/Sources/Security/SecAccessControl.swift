import Foundation

/// Who may use a keychain item or key (a passcode, biometry). Accepted and kept; richpush asks no one, as an
/// extension running in the background with the device unlocked is not asked either.
/// https://developer.apple.com/documentation/security/secaccesscontrol
public final class SecAccessControl: Sendable {
    let protection: String?
    let flags: SecAccessControlCreateFlags

    init(protection: String?, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }
}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// Core Foundation's allocator, which Security's creation functions take; only the default (nil) exists here.
/// https://developer.apple.com/documentation/corefoundation/cfallocator
public final class CFAllocator: Sendable {
    private init() {}
}

/// https://developer.apple.com/documentation/corefoundation/kcfallocatordefault
public let kCFAllocatorDefault: CFAllocator! = nil

/// https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    SecAccessControl(protection: protection as? String, flags: flags)
}
