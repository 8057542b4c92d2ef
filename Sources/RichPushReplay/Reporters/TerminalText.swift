/// Text from a payload made safe for one line of a terminal: no control characters or escape
/// sequences can reach the terminal, and line breaks cannot split the line.
public enum TerminalText {
    public static func oneLine(_ text: String, limit: Int = 60) -> String {
        var out = ""
        var count = 0
        for character in text {
            let cleaned: String
            if character.unicodeScalars.contains(where: isUnsafe) {
                let whitespace = character.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\r" || $0 == "\t" }
                cleaned = whitespace ? " " : "\u{FFFD}"
            } else {
                cleaned = String(character)
            }
            if count == limit {
                out += "…"
                break
            }
            out += cleaned
            count += 1
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the bidirectional overrides that can disguise text.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// `48213` → `47.1 KB`.
    public static func byteCount(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let kilobytes = Double(bytes) / 1024
        if kilobytes < 1024 { return "\((kilobytes * 10).rounded() / 10) KB" }
        return "\((kilobytes / 1024 * 10).rounded() / 10) MB"
    }
}
