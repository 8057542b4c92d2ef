/// Number and time formatting for the screen, without locale surprises.
enum Format {
    /// `value` with exactly `digits` decimals, e.g. fixed(3.14159, 1) == "3.1".
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / Int(scale)
        guard digits > 0 else { return "\(sign)\(whole)" }
        var fraction = String(scaled % Int(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(sign)\(whole).\(fraction)"
    }

    /// A number as a payload gave it, without a trailing ".0": "1", "0.75".
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return "\(Int(value))" }
        return "\(value)"
    }

    /// "48,213": exact byte counts for the detail view.
    static func grouped(_ count: Int) -> String {
        let digits = String(abs(count))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return count < 0 ? "-" + result : result
    }

    /// A local time of day, given in seconds after midnight: "14:03:22".
    static func timeOfDay(_ seconds: Double) -> String {
        let total = (Int(seconds.rounded(.down)) % 86_400 + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(total / 3600)):\(two(total / 60 % 60)):\(two(total % 60))"
    }

    /// A media duration as a player shows it: "0:12", "3:05", "1:02:03".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        let total = Int(seconds.rounded())
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if total >= 3600 { return "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" }
        return "\(total / 60):\(two(total % 60))"
    }
}
