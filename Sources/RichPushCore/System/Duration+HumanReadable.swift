extension Duration {
    /// Parses the durations of the command line and the fixture URL grammar: `250ms`, `6s`, `1.5s`.
    public init?(humanReadable text: String) {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double) =
            if lower.hasSuffix("ms") {
                (lower.dropLast(2), 0.001)
            } else if lower.hasSuffix("s") {
                (lower.dropLast(1), 1)
            } else {
                ("", 0)
            }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400
        else { return nil }
        self = .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// The duration for people: `250 ms`, `5 s`, `2.5 s`.
    public var shortDescription: String {
        let seconds = self.seconds
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds == seconds.rounded() { return "\(Int(seconds)) s" }
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// The duration as words for sentences: "5 seconds", "1 second", "2.5 seconds", "250 milliseconds".
    public var inWords: String {
        let seconds = self.seconds
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) milliseconds" }
        let tenths = Int((seconds * 10).rounded())
        let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(number) second\(number == "1" ? "" : "s")"
    }
}
