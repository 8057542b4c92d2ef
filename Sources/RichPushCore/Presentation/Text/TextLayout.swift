/// Fitting sanitised text into a column budget: truncation with an ellipsis and word wrapping,
/// both by display width so CJK and emoji never spill past a pane's edge.
public enum TextLayout {
    public static let ellipsis: Character = "…"

    /// The longest prefix that fits `width` columns, ending in "…" when something was cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        var result = ""
        var used = 0
        let budget = width - 1  // room for the ellipsis
        for character in text {
            let columns = TextWidth.of(character)
            if used + columns > budget { break }
            result.append(character)
            used += columns
        }
        result.append(ellipsis)
        return result
    }

    /// Pads with spaces (or truncates) to exactly `width` columns.
    public static func pad(_ text: String, toWidth width: Int) -> String {
        let fitted = truncate(text, toWidth: width)
        let missing = width - TextWidth.of(fitted)
        return missing > 0 ? fitted + String(repeating: " ", count: missing) : fitted
    }

    /// Wraps one line at spaces; words longer than the width are broken, never left to overflow.
    public static func wrap(_ line: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        if TextWidth.of(line) <= width { return [line] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = TextWidth.of(word)
            let separator = current.isEmpty ? 0 : 1
            if currentWidth + separator + wordWidth <= width {
                if separator == 1 { current.append(" ") }
                current += word
                currentWidth += separator + wordWidth
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = ""
                currentWidth = 0
            }
            // The word does not fit on an empty line either: break it by columns.
            for character in word {
                let columns = TextWidth.of(character)
                if currentWidth + columns > width && !current.isEmpty {
                    lines.append(current)
                    current = ""
                    currentWidth = 0
                }
                current.append(character)
                currentWidth += columns
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// Wraps multi-line text: each line of `lines` is wrapped on its own, blank lines are kept.
    public static func wrap(lines: [String], width: Int) -> [String] {
        lines.flatMap { wrap($0, width: width) }
    }

    /// Text as a view with room for `maxLines` lines of `width` columns shows it: each paragraph wrapped at spaces,
    /// the lines past the last dropped, and the last line shown ending in "…" when anything was dropped.
    public static func fit(_ text: String, width: Int, maxLines: Int) -> (lines: [String], truncated: Bool) {
        guard !text.isEmpty, width > 0, maxLines > 0 else { return ([], !text.isEmpty) }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let wrapped = wrap(lines: paragraphs, width: width)
        guard wrapped.count > maxLines else { return (wrapped, false) }
        var lines = Array(wrapped.prefix(maxLines))
        let last = lines[maxLines - 1]
        lines[maxLines - 1] =
            TextWidth.of(last) < width ? last + String(ellipsis) : truncate(last + String(ellipsis), toWidth: width)
        return (lines, true)
    }
}
