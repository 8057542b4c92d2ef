import Foundation

/// How a person is reached: an email address, a phone number or an account.
/// https://developer.apple.com/documentation/intents/inpersonhandle
open class INPersonHandle: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    /// https://developer.apple.com/documentation/intents/inpersonhandle/value
    public let value: String?
    /// https://developer.apple.com/documentation/intents/inpersonhandle/type
    public let type: INPersonHandleType
    /// https://developer.apple.com/documentation/intents/inpersonhandle/label
    public let label: INPersonHandleLabel?

    /// https://developer.apple.com/documentation/intents/inpersonhandle/init(value:type:)
    public convenience init(value: String?, type: INPersonHandleType) {
        self.init(value: value, type: type, label: nil)
    }

    /// https://developer.apple.com/documentation/intents/inpersonhandle/init(value:type:label:)
    public init(value: String?, type: INPersonHandleType, label: INPersonHandleLabel?) {
        self.value = value
        self.type = type
        self.label = label
        super.init()
    }
}

/// https://developer.apple.com/documentation/intents/inpersonhandletype
public enum INPersonHandleType: Int, Sendable {
    case unknown = 0
    case emailAddress = 1
    case phoneNumber = 2
}

/// https://developer.apple.com/documentation/intents/inpersonhandlelabel
public struct INPersonHandleLabel: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let home = INPersonHandleLabel("_$!<Home>!$_")
    public static let work = INPersonHandleLabel("_$!<Work>!$_")
    public static let iPhone = INPersonHandleLabel("iPhone")
    public static let mobile = INPersonHandleLabel("_$!<Mobile>!$_")
    public static let main = INPersonHandleLabel("_$!<Main>!$_")
    public static let other = INPersonHandleLabel("_$!<Other>!$_")
}
