import RichPushCore
import RichPushGraphics

/// A run of text at a column of a row of the detail view.
struct Span: Equatable, Sendable {
    var column: Int
    var text: String
    var style: TextStyle

    init(_ text: String, _ style: TextStyle = .plain, at column: Int = 0) {
        self.column = column
        self.text = text
        self.style = style
    }
}

/// A picture in the detail view: where it goes (in rows and columns of the document) and how large it is drawn.
struct PlacedPicture: Equatable, Sendable {
    var key: ImageKey
    var row: Int
    var column: Int
    /// Where a line saying why it is not drawn (yet) goes: the text of the card it is in.
    var labelColumn: Int
    var labelWidth: Int
}

/// Rows of spans and the pictures among them: what the detail view scrolls through.
struct DetailDocument: Equatable, Sendable {
    var rows: [[Span]] = []
    var pictures: [PlacedPicture] = []

    mutating func append(_ line: StyledLine) { rows.append([Span(line.text, line.style)]) }
}

/// One of the phone's views of a notification drawn as a card ``PresentationRules/lineColumns`` columns wide, from
/// the presentation alone: the text lines exactly as the model cut them, the app's name and the timestamp on top,
/// the thumbnail right of the text (lock screen, banner) or the media across the top (expanded), then the numbered
/// buttons. Nothing here wraps or cuts the notification's text.
struct PhoneCard {
    var view: PresentedView
    /// The rules the presentation was made with: the card's width and the thumbnail's allowance.
    var rules: PresentationRules
    /// Whether pictures are drawn as cells; without, each is a one-line label.
    var drawsImages: Bool
    /// The delivery's decode verdict on the attachment (a thumbnail of an image known to decode needs its first
    /// frame only).
    var decoded: Bool?

    /// Columns between the text and the thumbnail, out of the thumbnail's allowance.
    static let thumbnailGap = 2
    /// The expanded view's media is at most this many rows high.
    static let mediaMaxRows = 10

    /// The text's width inside the card.
    var textColumns: Int { max(1, rules.lineColumns) }
    /// The whole card: a border and a column of padding on each side of the text.
    var width: Int { textColumns + 4 }
    /// The columns the thumbnail is drawn in: its allowance less the gap before it.
    var thumbnailColumns: Int { max(1, rules.thumbnailColumns - Self.thumbnailGap) }

    /// The card's rows, with its pictures placed from row `top` of the document.
    func layout(top: Int = 0) -> DetailDocument {
        var content: [[Span]] = []
        var pictures: [PlacedPicture] = []
        content.append(header)

        if view.view == .expanded, let media = view.media {
            let (rows, picture) = mediaRows(media, wide: true)
            if let picture {
                pictures.append(
                    PlacedPicture(
                        key: picture.key, row: content.count, column: picture.column, labelColumn: 0,
                        labelWidth: textColumns))
            }
            content += rows
        }
        var text: [[Span]] = []
        text += view.title.lines.map { [Span($0, .bold)] }
        let besideFrom = text.count
        text += view.subtitle.lines.map { [Span($0, .bold)] }
        text += view.body.lines.map { [Span($0)] }
        if view.view != .expanded, let thumbnail = view.thumbnail {
            let (rows, picture) = mediaRows(thumbnail, wide: false)
            let width = rows.flatMap { $0 }.map { $0.column + TextWidth.of($0.text) }.max() ?? 0
            let column = max(0, textColumns - max(width, picture?.key.columns ?? 0))
            while text.count < besideFrom + rows.count { text.append([]) }
            for (offset, row) in rows.enumerated() {
                text[besideFrom + offset] += row.map { Span($0.text, $0.style, at: column + $0.column) }
            }
            if let picture {
                pictures.append(
                    PlacedPicture(
                        key: picture.key, row: content.count + besideFrom, column: column, labelColumn: column,
                        labelWidth: textColumns - column))
            }
        }
        content += text

        if !view.actions.isEmpty {
            if view.view == .expanded { content.append([Span(String(repeating: "─", count: textColumns), .muted)]) }
            content += view.actions.map(actionRow)
        }
        if view.actionsLeftOut > 0 {
            let count = view.actionsLeftOut
            content.append([Span("+\(count) more action\(count == 1 ? "" : "s")", .muted)])
        }

        // The border, and the text two columns in.
        var document = DetailDocument()
        document.rows.append(topBorder)
        for row in content {
            var spans = [Span("│", .muted)]
            spans += row.map { Span($0.text, $0.style, at: $0.column + 2) }
            spans.append(Span("│", .muted, at: width - 1))
            document.rows.append(spans)
        }
        document.rows.append([Span("╰" + String(repeating: "─", count: width - 2) + "╯", .muted)])
        // Pictures: below the top border, two columns in.
        document.pictures = pictures.map {
            PlacedPicture(
                key: $0.key, row: top + 1 + $0.row, column: $0.column + 2, labelColumn: $0.labelColumn + 2,
                labelWidth: $0.labelWidth)
        }
        return document
    }

    /// `╭─ Lock screen · 1/3 · v next ───╮`
    private var topBorder: [Span] {
        let views = NotificationView.allCases
        let position = (views.firstIndex(of: view.view) ?? 0) + 1
        let label = " \(view.view.label.capitalizedFirst) · \(position)/\(views.count) · v next "
        let after = 2 + TextWidth.of(label)
        return [
            Span("╭─", .muted), Span(label, .accent, at: 2),
            Span(String(repeating: "─", count: max(0, width - 1 - after)) + "╮", .muted, at: after),
        ]
    }

    /// The app's name (and the badge) on the left, the timestamp on the right.
    private var header: [Span] {
        let stamp = TextSanitizer.singleLine(view.timestamp, limit: 12)
        var name = TextSanitizer.singleLine(view.appName, limit: 60)
        if let badge = view.badge { name += " · badge \(badge)" }
        let room = max(1, textColumns - TextWidth.of(stamp) - 1)
        return [
            Span(TextLayout.truncate(name, toWidth: room), .accent),
            Span(stamp, .muted, at: textColumns - TextWidth.of(stamp)),
        ]
    }

    /// `1 Track`, destructive ones in red, with what the button does besides.
    private func actionRow(_ action: PresentedAction) -> [Span] {
        var marks: [String] = []
        if let input = action.textInput {
            marks.append("text input, \(TextSanitizer.singleLine(input.buttonTitle, limit: 12))")
        }
        if action.authenticationRequired { marks.append("unlock") }
        if action.foreground { marks.append("opens app") }
        let number = "\(action.number) "
        let mark = marks.isEmpty ? "" : "  " + marks.joined(separator: " · ")
        let room = max(1, textColumns - TextWidth.of(number) - TextWidth.of(mark))
        let title = TextLayout.truncate(TextSanitizer.singleLine(action.title), toWidth: room)
        var spans = [Span(number, .bold), Span(title, action.destructive ? .danger : .plain, at: TextWidth.of(number))]
        if !mark.isEmpty { spans.append(Span(mark, .muted, at: TextWidth.of(number) + TextWidth.of(title))) }
        return spans
    }

    /// The rows a picture takes (blank where it is drawn, a label without images) and the picture itself, with its
    /// column inside the rows (centred when wide); a video or audio attachment's duration on a row of its own.
    private func mediaRows(_ media: PresentedMedia, wide: Bool) -> (
        rows: [[Span]], picture: (key: ImageKey, column: Int)?
    ) {
        var rows: [[Span]] = []
        var picture: (key: ImageKey, column: Int)?
        if let file = media.file, !file.isEmpty, media.width > 0, media.height > 0 {
            let crop =
                wide
                ? media.crop.map(CropRect.init)
                : (media.crop.map(CropRect.init) ?? CropRect.centredSquare(width: media.width, height: media.height))
            let region =
                crop?.pixels(width: media.width, height: media.height) ?? (width: media.width, height: media.height)
            let box =
                wide
                ? (columns: textColumns, rows: Self.mediaMaxRows)
                : (columns: thumbnailColumns, rows: max(1, thumbnailColumns / 2))
            if drawsImages {
                let size = CellRenderer.fit(
                    width: region.width, height: region.height, columns: box.columns, rows: box.rows)
                let key = ImageKey(
                    file: file, purpose: wide ? .detail : .thumbnail, columns: size.columns, rows: size.rows,
                    decoded: wide ? nil : decoded, crop: crop)
                picture = (key, wide ? (textColumns - size.columns) / 2 : 0)
                rows += Array(repeating: [], count: size.rows)
            } else {
                let label = "[\(media.kind.rawValue)]"
                rows.append([Span(label, .muted, at: wide ? max(0, (textColumns - TextWidth.of(label)) / 2) : 0)])
            }
        }
        if media.kind != .image {
            let symbol = media.kind == .video ? "▶" : "♪"
            let line = media.duration.map { "\(symbol) \(Format.duration($0))" } ?? "\(symbol) \(media.kind.rawValue)"
            rows.append([Span(line, .accent, at: wide ? max(0, (textColumns - TextWidth.of(line)) / 2) : 0)])
        }
        return (rows, picture)
    }
}

/// The part of an image drawn, in unit coordinates (the presentation's `crop`), hashable for ``ImageKey``.
struct CropRect: Hashable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(_ rect: UnitRect) {
        self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The centred square a thumbnail without a clipping rect shows (nil for a square image: all of it).
    static func centredSquare(width: Int, height: Int) -> CropRect? {
        guard width > 0, height > 0, width != height else { return nil }
        let side = Double(min(width, height))
        let w = side / Double(width)
        let h = side / Double(height)
        return CropRect(x: (1 - w) / 2, y: (1 - h) / 2, width: w, height: h)
    }

    /// Its size in pixels of a `width`x`height` image (at least 1x1).
    func pixels(width: Int, height: Int) -> (width: Int, height: Int) {
        (max(1, Int((self.width * Double(width)).rounded())), max(1, Int((self.height * Double(height)).rounded())))
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension DetailDocument {
    /// The detail of a notification the phone shows: its card in the view chosen with `v`, what the app received
    /// when it was answered, the presentation's notes and how approximate its rules are, then the delivery's facts.
    /// Nil when the phone shows nothing of it (rejected, silent, in flight).
    static func phone(of entry: NotificationEntry, state: TUIState, width: Int) -> DetailDocument? {
        guard width > 0, let result = entry.result, let presentation = result.presentation,
            let view = presentation.view(state.detailView) ?? presentation.views.first
        else { return nil }
        let card = PhoneCard(
            view: view, rules: state.rules, drawsImages: state.images != nil, decoded: result.attachment?.decoded)
        var document = card.layout()
        func wrapped(_ text: String, _ style: TextStyle, indent: Int = 0) {
            let pad = String(repeating: " ", count: indent)
            for line in TextLayout.wrap(TextSanitizer.singleLine(text), width: max(1, width - indent)) {
                document.append(StyledLine(pad + line, style))
            }
        }
        if let crop = view.thumbnail?.crop {
            wrapped(
                "Thumbnail: the extension's clipping rect x \(Format.number(crop.x)), y \(Format.number(crop.y)), "
                    + "\(Format.number(crop.width)) by \(Format.number(crop.height)) of the image", .muted)
        }
        if let response = result.response { wrapped(ResponseText.received(response), .success) }
        for note in presentation.notes { wrapped("Note: " + note, .warning) }
        wrapped(presentation.approximation, .muted)
        let facts = DetailContent(
            entry: entry, configuredLimits: state.configuredLimits, timeOfDay: state.startTimeOfDay, now: state.now,
            showsText: false)
        for line in facts.lines(width: width) { document.append(line) }
        return document
    }
}
