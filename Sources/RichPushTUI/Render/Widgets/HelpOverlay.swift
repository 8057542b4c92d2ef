import RichPushCore

/// Every key, in a box over the screen, then where pushes are received (when the notification center listens).
struct HelpOverlay {
    /// Lines about the push endpoint, e.g. its URL and CA certificate; sanitised when drawn.
    var endpoint: [String] = []

    static let keys: [(keys: String, meaning: String)] = [
        ("f", "app in the foreground (no extension; a banner if --foreground-options banner)"),
        ("b", "app in the background"),
        ("c", "app closed"),
        ("s", "cycle the app state"),
        ("p", "cycle the SDK whose service extension payloads go through"),
        ("L", "phone locked / unlocked"),
        ("F", "Focus: off, on, on allowing the app"),
        ("M", "Scheduled Summary on / off (the header counts what waits in it)"),
        ("S", "ring / silent"),
        ("N", "Notification Grouping: automatic, by app, off (the list regroups)"),
        ("D", "deliver the Scheduled Summary (by relevance, the highest featured ★)"),
        ("Tab", "switch focus: payloads / notification center"),
        ("Up/Down, j/k", "move the selection; scroll the detail view"),
        ("PgUp/PgDn", "move by 10"),
        ("g/G, Home/End", "first / last"),
        ("Enter", "send the payload / open the notification, or spread out a stack"),
        ("Space", "expand or collapse a stack (a thread-id; N groups by app); in the detail view, pause/play a GIF"),
        ("v", "in the detail view: the phone's lock screen, banner or expanded view"),
        ("1-9, 0", "in the expanded view: tap that button (0 is the 10th); a text button asks for the text"),
        ("Esc, Backspace", "close the detail view or this help"),
        ("d", "delete the selected notification"),
        ("x", "clear all notifications"),
        ("r", "reload the payload folder"),
        ("e", "export the notifications to an HTML report (path in the status line)"),
        ("w", "write the selected notification as a payload file for replay (into --record DIR)"),
        ("?", "show or hide this help"),
        ("q, Ctrl-C", "quit and restore the terminal"),
    ]

    func draw(in body: Rect, on grid: inout CellGrid) {
        let keyWidth = Self.keys.map { TextWidth.of($0.keys) }.max() ?? 0
        var lines = Self.keys.map { entry in
            "  " + entry.keys + String(repeating: " ", count: keyWidth - TextWidth.of(entry.keys)) + "   "
                + entry.meaning
        }
        if !endpoint.isEmpty {
            lines.append("")
            lines += endpoint.map { "  " + TextSanitizer.singleLine($0) }
        }
        let width = min(body.width - 2, (lines.map { TextWidth.of($0) }.max() ?? 0) + 4)
        let rect = body.centered(width: width, height: lines.count + 4)
        grid.fill(rect)
        let frame = CellStyle(color: .accent, bold: true)
        grid.box(rect, title: "Keys · Esc or ? to close", style: frame)
        let inside = rect.inset(by: 1)
        for (offset, line) in lines.prefix(max(0, inside.height - 2)).enumerated() {
            grid.write(line, row: inside.row + 1 + offset, column: inside.column, maxWidth: inside.width)
        }
    }
}
