/// Makes text from payloads and file names safe to draw in a terminal, for every front end: escape sequences and control characters
/// never reach the terminal.
///
/// Escape sequences (CSI, OSC, DCS and the other string sequences, in their 7-bit and 8-bit forms)
/// are removed whole; other C0 and C1 controls become U+FFFD so a tester sees that something was
/// there; bidirectional overrides and isolates are removed so text cannot reorder the screen.
public enum TextSanitizer {
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// One line for previews and lists: line breaks and tabs become spaces, runs of whitespace collapse.
    public static func singleLine(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in clean(text) {
            if scalar == "\n" || scalar == " " {
                pendingSpace = true
                continue
            }
            if pendingSpace && !output.isEmpty { output.append(" ") }
            pendingSpace = false
            output.append(scalar)
        }
        return String(output)
    }

    /// Lines for full text: line breaks are kept (CR, CRLF, NEL, U+2028/9 all count), tabs become spaces.
    public static func lines(_ text: String) -> [String] {
        String(clean(text)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Scalars with sequences removed, controls replaced, every line break as "\n" and tabs as " ".
    public static func clean(_ text: String) -> String.UnicodeScalarView {
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let value = scalar.value
            index += 1
            switch value {
            case 0x1B:  // ESC
                index = skipEscape(scalars, from: index)
            case 0x9B:  // 8-bit CSI
                index = skipControlSequence(scalars, from: index)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // 8-bit DCS, SOS, OSC, PM, APC
                index = skipString(scalars, from: index)
            case 0x0A, 0x85, 0x2028, 0x2029:
                output.append("\n")
            case 0x0D:
                output.append("\n")
                if index < scalars.count && scalars[index].value == 0x0A { index += 1 }
            case 0x09, 0x0B, 0x0C:
                output.append(" ")
            case 0x00..<0x20, 0x7F, 0x80..<0xA0:
                output.append(replacement)
            default:
                if isInvisibleDirectional(value) || value == 0xFEFF || (0xFFF9...0xFFFB).contains(value) {
                    continue
                }
                output.append(scalar)
            }
        }
        return output
    }

    /// Bidirectional embeddings, overrides, isolates and marks.
    public static func isInvisibleDirectional(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
            || value == 0x200F || value == 0x061C
    }

    /// After ESC: skips the rest of the sequence and returns the index after it.
    private static func skipEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start] {
        case "[": return skipControlSequence(scalars, from: start + 1)
        case "]", "P", "X", "^", "_": return skipString(scalars, from: start + 1)
        default:
            // nF sequences: intermediates 0x20-0x2F, then one final byte 0x30-0x7E.
            var index = start
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        }
    }

    /// CSI: parameters and intermediates 0x20-0x3F, then a final byte 0x40-0x7E.
    private static func skipControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            if (0x20...0x3F).contains(value) {
                index += 1
            } else if (0x40...0x7E).contains(value) {
                return index + 1
            } else {
                // Malformed: stop here and let the offending scalar be handled on its own.
                return index
            }
        }
        return index
    }

    /// OSC, DCS, SOS, PM, APC: everything up to BEL, ST (ESC \) or 8-bit ST.
    private static func skipString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            if value == 0x07 || value == 0x9C { return index + 1 }
            if value == 0x1B {
                if index + 1 < scalars.count && scalars[index + 1] == "\\" { return index + 2 }
                return index + 1
            }
            index += 1
        }
        return index
    }
}

extension TextSanitizer {
    /// `singleLine`, cut to at most `limit` characters with an ellipsis.
    public static func singleLine(_ text: String, limit: Int) -> String {
        let line = singleLine(text)
        return line.count <= limit ? line : String(line.prefix(max(0, limit - 1))) + "…"
    }
}
