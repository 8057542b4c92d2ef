/// Byte sizes as people write them on the command line, in expectation files and in fixture URLs.
///
/// `512` (bytes), `512KB`, `11MB`; also `B`, `K`/`KiB` and `M`/`MiB`, in any letter case. Whole numbers only.
/// 1 KB = 1024 bytes and 1 MB = 1024 KB: the megabyte of iOS's 10 MB attachment limit, so `11MB` is over it.
///
/// ```swift
/// ByteSize.parse("512KB")      // 524288
/// ByteSize.parse("1.5MB")      // nil
/// ByteSize.describe(11 << 20)  // "11MB"
/// ```
public enum ByteSize {
    /// Why a text is not a size; ``description`` is a phrase for an error message.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No whole number of bytes where the text starts (`fast`, `-5`, `1.5MB`, an empty text).
        case notANumber
        /// A number followed by something that is not a unit (`12XB`, `5 MB`).
        case unknownUnit(String)
        /// More bytes than an `Int` holds.
        case tooLarge

        public var description: String {
            switch self {
            case .notANumber: "expected a size like \(ByteSize.examples)"
            case .unknownUnit(let unit): "unknown unit \"\(unit)\"; use a plain byte count, KB or MB"
            case .tooLarge: "the number is too large"
            }
        }
    }

    /// How sizes are written, for messages: `512, 512KB or 11MB`.
    public static let examples = "512, 512KB or 11MB"

    /// The number of bytes `text` stands for, or nil when it is not a size.
    public static func parse(_ text: String) -> Int? {
        try? bytes(in: text)
    }

    /// The number of bytes `text` stands for, or the reason it is not a size.
    public static func bytes(in text: String) throws(Problem) -> Int {
        let digitsEnd = text.firstIndex(where: { !($0.isASCII && $0.isNumber) }) ?? text.endIndex
        let number = text[..<digitsEnd]
        let unit = text[digitsEnd...]
        guard !number.isEmpty else { throw .notANumber }
        let multiplier: Int
        switch unit.lowercased() {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1024
        case "m", "mb", "mib": multiplier = 1024 * 1024
        default:
            // `1.5MB`: the number is not whole, which says more than "unknown unit .5MB".
            if unit.first == "." || unit.first == "," { throw .notANumber }
            throw .unknownUnit(String(unit))
        }
        guard let value = Int(number) else { throw .tooLarge }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw .tooLarge }
        return bytes
    }

    /// The shortest way to write `bytes` that ``parse(_:)`` reads back: `11MB`, `512KB`, `1000`.
    public static func describe(_ bytes: Int) -> String {
        guard bytes > 0 else { return "\(bytes)" }
        if bytes % (1024 * 1024) == 0 { return "\(bytes / 1024 / 1024)MB" }
        if bytes % 1024 == 0 { return "\(bytes / 1024)KB" }
        return "\(bytes)"
    }
}
