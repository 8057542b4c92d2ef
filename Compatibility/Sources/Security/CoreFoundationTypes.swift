import Foundation

// Core Foundation's types, as Security's API spells them. Linux's Foundation has no CF types in Swift: each is the
// Foundation class it bridges to on iOS, so `query as CFDictionary`, `[kSecClass: kSecClassGenericPassword] as
// [CFString: Any]`, `result as? Data` and `Unmanaged<CFError>` read as on iOS. MobileCoreServices declares the same
// `CFString` (two typealiases of one type in two modules do not clash).

/// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cfdata
public typealias CFData = NSData
/// https://developer.apple.com/documentation/corefoundation/cferror
public typealias CFError = NSError
/// https://developer.apple.com/documentation/corefoundation/cfboolean
public typealias CFBoolean = NSNumber
/// https://developer.apple.com/documentation/corefoundation/cfnumber
public typealias CFNumber = NSNumber
/// https://developer.apple.com/documentation/corefoundation/cfdate
public typealias CFDate = NSDate
/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfindex
public typealias CFIndex = Int
/// A status code of Apple's C APIs. https://developer.apple.com/documentation/kernel/osstatus
public typealias OSStatus = Int32

/// "No error", from MacTypes.h, which Security's headers bring along.
/// https://developer.apple.com/documentation/security/errsecsuccess
public let noErr: OSStatus = 0

/// https://developer.apple.com/documentation/corefoundation/kcfbooleantrue
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// https://developer.apple.com/documentation/corefoundation/kcfbooleanfalse
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
