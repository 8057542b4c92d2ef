import Foundation

/// A message for ``Logger`` (iOS 14), built from a string literal with interpolations that take a privacy, a format
/// and an alignment: `"saved \(count, format: .hex) bytes to \(path, privacy: .private(mask: .hash))"`.
///
/// As on iOS, only a literal builds one (a `String` variable does not), and the values interpolated are strings,
/// `CustomStringConvertible` values, integers, floating-point numbers, `Bool`, `NSObject`s and metatypes: an
/// `Error` or an `Optional` needs `String(describing:)` or `localizedDescription`, as it does on iOS.
///
/// Privacy does not hide anything: `.private`, `.sensitive` and `.private(mask: .hash)` values are written as they
/// are, since richpush is a testing tool and shows what the extension logged (iOS shows `<private>` or a hash
/// unless a debugger is attached).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public let interpolation: OSLogInterpolation

    public init(stringInterpolation: OSLogInterpolation) {
        interpolation = stringInterpolation
    }

    public init(stringLiteral value: String) {
        var interpolation = OSLogInterpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.interpolation = interpolation
    }

    /// The message as written.
    var text: String { interpolation.text }
}

/// The parts of an ``OSLogMessage``.
public struct OSLogInterpolation: StringInterpolationProtocol {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) {
        text.reserveCapacity(literalCapacity + interpolationCount * 8)
    }

    public mutating func appendLiteral(_ literal: String) {
        text += literal
    }

    /// A string.
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(argumentString())
    }

    /// A value's `description`.
    public mutating func appendInterpolation<T: CustomStringConvertible>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(value().description)
    }

    /// An integer, in decimal unless `format` says otherwise.
    public mutating func appendInterpolation<T: FixedWidthInteger>(
        _ number: @autoclosure @escaping () -> T, format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(format.apply(number()))
    }

    /// A `Double`, with six decimals unless `format` says otherwise.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(format.apply(number()))
    }

    /// A `Float`, with six decimals unless `format` says otherwise.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Float, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(format.apply(Double(number())))
    }

    /// A `Bool`: `true`/`false`, or `YES`/`NO` with `format: .answer`.
    public mutating func appendInterpolation(
        _ boolean: @autoclosure @escaping () -> Bool, format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
    ) {
        text += format.apply(boolean())
    }

    /// An object's `description`.
    public mutating func appendInterpolation(
        _ argumentObject: @autoclosure @escaping () -> NSObject, privacy: OSLogPrivacy = .auto
    ) {
        text += argumentObject().description
    }

    /// A type's name.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> Any.Type, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        text += align.apply(String(describing: value()))
    }
}

/// Who may read an interpolated value in the log. richpush writes every value as it is (see ``OSLogMessage``).
public struct OSLogPrivacy: Equatable, Sendable {
    /// How a private value is masked on iOS.
    public struct Mask: Equatable, Sendable {
        let name: String
        /// A hash of the value, the same for equal values.
        public static let hash = Mask(name: "hash")
        /// No mask: `<private>`.
        public static let none = Mask(name: "none")
    }

    enum Kind: Equatable, Sendable { case auto, `public`, `private`, sensitive }

    let kind: Kind
    let mask: Mask

    /// Dynamic strings and objects private, numbers public: iOS's default.
    public static let auto = OSLogPrivacy(kind: .auto, mask: .none)
    /// Shown.
    public static let `public` = OSLogPrivacy(kind: .public, mask: .none)
    /// Hidden on iOS unless a debugger is attached.
    public static let `private` = OSLogPrivacy(kind: .private, mask: .none)
    /// Hidden on iOS, always.
    public static let sensitive = OSLogPrivacy(kind: .sensitive, mask: .none)

    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .auto, mask: mask) }
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .private, mask: mask) }
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .sensitive, mask: mask) }
}

/// Padding an interpolated value to a number of columns.
public struct OSLogStringAlignment: Sendable {
    /// Positive: right-aligned, negative: left-aligned, zero: as it is.
    let columns: Int

    /// No padding.
    public static let none = OSLogStringAlignment(columns: 0)

    /// Right-aligned in `columns` columns (spaces before).
    public static func right(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(columns: columns())
    }

    /// Left-aligned in `columns` columns (spaces after).
    public static func left(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(columns: -columns())
    }

    func apply(_ text: String) -> String {
        let width = abs(columns)
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return columns > 0 ? padding + text : text + padding
    }
}

/// How an interpolated integer is written.
public struct OSLogIntegerFormatting: Sendable {
    let radix: Int
    let explicitPositiveSign: Bool
    let includePrefix: Bool
    let uppercase: Bool
    let minDigits: Int

    /// Base 10.
    public static let decimal = OSLogIntegerFormatting(
        radix: 10, explicitPositiveSign: false, includePrefix: false, uppercase: false, minDigits: 0)
    /// Base 16, lowercase, no prefix.
    public static let hex = OSLogIntegerFormatting(
        radix: 16, explicitPositiveSign: false, includePrefix: false, uppercase: false, minDigits: 0)
    /// Base 8, no prefix.
    public static let octal = OSLogIntegerFormatting(
        radix: 8, explicitPositiveSign: false, includePrefix: false, uppercase: false, minDigits: 0)

    public static func decimal(explicitPositiveSign: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false,
            minDigits: 0)
    }

    public static func decimal(
        explicitPositiveSign: Bool = false, minDigits: @autoclosure @escaping () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false,
            minDigits: minDigits())
    }

    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: 0)
    }

    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @autoclosure @escaping () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits())
    }

    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: 0)
    }

    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @autoclosure @escaping () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits())
    }

    func apply<T: FixedWidthInteger>(_ value: T) -> String {
        var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        if digits.count < minDigits { digits = String(repeating: "0", count: minDigits - digits.count) + digits }
        if includePrefix { digits = (radix == 16 ? (uppercase ? "0X" : "0x") : radix == 8 ? "0" : "") + digits }
        let sign = value < 0 ? "-" : explicitPositiveSign ? "+" : ""
        return sign + digits
    }
}

/// How an interpolated floating-point number is written (printf's `%f`, `%e`, `%g`, `%a`).
public struct OSLogFloatFormatting: Sendable {
    let conversion: String
    let precision: Int?
    let explicitPositiveSign: Bool

    /// `%f`: six decimals.
    public static let fixed = OSLogFloatFormatting(conversion: "f", precision: nil, explicitPositiveSign: false)
    /// `%a`.
    public static let hex = OSLogFloatFormatting(conversion: "a", precision: nil, explicitPositiveSign: false)
    /// `%e`.
    public static let exponential = OSLogFloatFormatting(
        conversion: "e", precision: nil, explicitPositiveSign: false)
    /// `%g`.
    public static let hybrid = OSLogFloatFormatting(conversion: "g", precision: nil, explicitPositiveSign: false)

    public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "F" : "f", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }

    public static func fixed(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "F" : "f", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }

    public static func hex(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "A" : "a", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }

    public static func exponential(explicitPositiveSign: Bool = false, uppercase: Bool = false)
        -> OSLogFloatFormatting
    {
        OSLogFloatFormatting(
            conversion: uppercase ? "E" : "e", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }

    public static func exponential(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "E" : "e", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }

    public static func hybrid(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "G" : "g", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }

    public static func hybrid(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(
            conversion: uppercase ? "G" : "g", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }

    func apply(_ value: Double) -> String {
        let format = "%" + (explicitPositiveSign ? "+" : "") + (precision.map { ".\($0)" } ?? "") + conversion
        return String(format: format, value)
    }
}

/// How an interpolated `Bool` is written.
public struct OSLogBoolFormat: Sendable {
    let yes: String
    let no: String

    /// `true` / `false`.
    public static let truth = OSLogBoolFormat(yes: "true", no: "false")
    /// `YES` / `NO`.
    public static let answer = OSLogBoolFormat(yes: "YES", no: "NO")

    func apply(_ value: Bool) -> String { value ? yes : no }
}
