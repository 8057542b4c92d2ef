import Foundation

// The result codes of Security's functions, with Apple's values.
// https://developer.apple.com/documentation/security/security-framework-result-codes

public let errSecSuccess: OSStatus = 0
public let errSecUnimplemented: OSStatus = -4
public let errSecIO: OSStatus = -36
public let errSecParam: OSStatus = -50
public let errSecAllocate: OSStatus = -108
public let errSecUserCanceled: OSStatus = -128
public let errSecBadReq: OSStatus = -909
public let errSecNotAvailable: OSStatus = -25291
public let errSecReadOnly: OSStatus = -25292
public let errSecAuthFailed: OSStatus = -25293
public let errSecDuplicateItem: OSStatus = -25299
public let errSecItemNotFound: OSStatus = -25300
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecDecode: OSStatus = -26275
public let errSecVerifyFailed: OSStatus = -67808
public let errSecMissingEntitlement: OSStatus = -34018
public let errSecInvalidKeyRef: OSStatus = -67712

/// What a status means, in Apple's words.
/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    let message: String =
        switch status {
        case errSecSuccess: "No error."
        case errSecUnimplemented: "Function or operation not implemented."
        case errSecIO: "I/O error."
        case errSecParam: "One or more parameters passed to a function were not valid."
        case errSecAllocate: "Failed to allocate memory."
        case errSecUserCanceled: "User canceled the operation."
        case errSecBadReq: "Bad parameter or invalid state for operation."
        case errSecNotAvailable: "No keychain is available. You may need to restart your computer."
        case errSecReadOnly: "This keychain cannot be modified."
        case errSecAuthFailed: "The user name or passphrase you entered is not correct."
        case errSecDuplicateItem: "The specified item already exists in the keychain."
        case errSecItemNotFound: "The specified item could not be found in the keychain."
        case errSecInteractionNotAllowed: "User interaction is not allowed."
        case errSecDecode: "Unable to decode the provided data."
        case errSecVerifyFailed: "A cryptographic verification failure has occurred."
        case errSecMissingEntitlement: "A required entitlement isn't present."
        case errSecInvalidKeyRef: "A invalid key reference was encountered."
        default: "OSStatus \(status)"
        }
    return message as CFString
}

/// A `CFError` as Security makes them: Apple's OSStatus domain, the status as code, a sentence.
func securityError(_ status: OSStatus, _ description: String) -> CFError {
    NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: description])
}

/// Hands `error` to a caller's `UnsafeMutablePointer<Unmanaged<CFError>?>` (retained, as the caller releases it).
func report(
    _ status: OSStatus, _ description: String, to pointer: UnsafeMutablePointer<Unmanaged<CFError>?>?
) {
    pointer?.pointee = Unmanaged.passRetained(securityError(status, description))
}

/// Foundation's domain for OSStatus errors (not in Linux's Foundation).
let NSOSStatusErrorDomain = "NSOSStatusErrorDomain"
