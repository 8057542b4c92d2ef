/// A line of text with one style, as presentation functions hand it to widgets.
struct StyledLine: Equatable, Sendable {
    var text: String
    var style: CellStyle

    init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}
