import Foundation

// The keys and values of keychain queries, with the strings iOS gives them (`print(kSecClass)` prints `class`).
// https://developer.apple.com/documentation/security/keychain-items
//
// `nonisolated(unsafe)`: Linux's NSString is not marked Sendable, but these strings are immutable literals.

// Item classes. https://developer.apple.com/documentation/security/ksecclass
nonisolated(unsafe) public let kSecClass: CFString = "class"
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// Item attributes. https://developer.apple.com/documentation/security/item-attribute-keys-and-values
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn"
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl"
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp"
nonisolated(unsafe) public let kSecAttrPort: CFString = "port"
nonisolated(unsafe) public let kSecAttrPath: CFString = "path"
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl"
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz"
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr"
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr"
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve"
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign"
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy"
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap"
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp"
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp"
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr"
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr"

// Attribute values. https://developer.apple.com/documentation/security/item-attribute-keys-and-values
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2"
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73"
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"

// Search. https://developer.apple.com/documentation/security/search-attribute-keys-and-values
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"

// Results. https://developer.apple.com/documentation/security/item-return-result-keys
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"

// Values. https://developer.apple.com/documentation/security/item-value-type-keys
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"

// Other keys. https://developer.apple.com/documentation/security/keychain-items
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"

// Key generation. https://developer.apple.com/documentation/security/key-generation-attributes
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public"

// Key exchange parameters. https://developer.apple.com/documentation/security/seckeykeyexchangeparameter
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterRequestedSize: CFString = "requestedSize"
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterSharedInfo: CFString = "sharedInfo"
