/// Cuts text to at most `limit` characters, at a word when there is one, with an ellipsis.
public func truncated(_ text: String, to limit: Int) -> String {
    guard text.count > limit else { return text }
    let cut = text.prefix(limit - 1)
    let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
    return word + "…"
}
