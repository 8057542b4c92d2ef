/// What a piece of presented text is, which the renderer turns into colours and attributes.
enum TextStyle: Equatable, Sendable {
    case plain
    case bold
    case muted
    case accent
    case success
    case warning
    case danger
    /// A heading in the detail view.
    case section
}

/// A line of text with one style, as presentation functions hand it to widgets.
struct StyledLine: Equatable, Sendable {
    var text: String
    var style: TextStyle

    init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}
