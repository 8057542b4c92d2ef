import RichPushCore
/// Where each part of the screen goes for a terminal size: header on top, key hints at the bottom,
/// the payload library on the left and the notification center on the right.
struct ScreenLayout: Equatable, Sendable {
    let size: TerminalSize

    var header: Rect { Rect(column: 0, row: 0, width: size.columns, height: 1) }
    var footer: Rect { Rect(column: 0, row: size.rows - 1, width: size.columns, height: 1) }
    var body: Rect { Rect(column: 0, row: 1, width: size.columns, height: max(0, size.rows - 2)) }

    var libraryWidth: Int { min(36, max(22, size.columns * 3 / 10)) }
    var library: Rect { Rect(column: 0, row: body.row, width: libraryWidth, height: body.height) }
    var notifications: Rect {
        Rect(column: libraryWidth, row: body.row, width: size.columns - libraryWidth, height: body.height)
    }

    /// The detail view's text area: inside its box, one column of padding on each side.
    var detailText: Rect {
        let inside = body.inset(by: 1)
        return Rect(column: inside.column + 1, row: inside.row, width: max(0, inside.width - 2), height: inside.height)
    }
    var detailTextWidth: Int { detailText.width }
    var detailTextHeight: Int { detailText.height }
}
