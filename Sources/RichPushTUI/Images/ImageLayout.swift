import RichPushCore
import RichPushGraphics

/// Where images go on screen, from the attachment's size alone, so the layout is known before the image is
/// drawn (and does not move when it arrives).
enum ImageLayout {
    static let thumbnailMaxColumns = 12
    static let thumbnailMaxRows = 3
    /// The detail image takes at most this many rows, and at most a third of the detail view, so the text
    /// and the attachment's facts stay in sight under it.
    static let detailMaxRows = 16

    /// The attachment a notification shows as an image: a rich notification's, with a size.
    static func attachment(of entry: NotificationEntry) -> Attachment? {
        guard let result = entry.result, result.style == .rich, let attachment = result.attachment,
            attachment.width > 0, attachment.height > 0, !attachment.file.isEmpty
        else { return nil }
        return attachment
    }

    /// Whether a view of the notification's presentation draws the image `file` (a thumbnail, the media, a poster).
    static func presentsFile(_ file: String, _ entry: NotificationEntry) -> Bool {
        entry.result?.presentation?.views.contains { $0.thumbnail?.file == file || $0.media?.file == file } == true
    }

    static func thumbnailKey(of entry: NotificationEntry) -> ImageKey? {
        guard let attachment = attachment(of: entry) else { return nil }
        let size = CellRenderer.fit(
            width: attachment.width, height: attachment.height, columns: thumbnailMaxColumns, rows: thumbnailMaxRows)
        return ImageKey(
            file: attachment.file, purpose: .thumbnail, columns: size.columns, rows: size.rows,
            decoded: attachment.decoded)
    }

    /// The detail image within the detail view's text area `text`.
    static func detailKey(of entry: NotificationEntry, text: Rect) -> ImageKey? {
        guard let attachment = attachment(of: entry), text.width > 0, text.height >= 8 else { return nil }
        let rows = min(detailMaxRows, max(3, text.height / 3))
        let size = CellRenderer.fit(width: attachment.width, height: attachment.height, columns: text.width, rows: rows)
        return ImageKey(file: attachment.file, purpose: .detail, columns: size.columns, rows: size.rows)
    }

    /// The key of the image the open detail view plays: the phone card's wide media (expanded view), or the large
    /// image of a notification the phone shows nothing of.
    static func playedKey(of entry: NotificationEntry, state: TUIState) -> ImageKey? {
        let text = ScreenLayout(size: state.size).detailText
        if let document = DetailDocument.phone(of: entry, state: state, width: text.width) {
            return document.pictures.first { $0.key.purpose == .detail }?.key
        }
        return detailKey(of: entry, text: text)
    }

    /// Rows the detail image and the blank line under it take at the top of the detail content.
    static func detailRows(of entry: NotificationEntry, state: TUIState) -> Int {
        guard state.images != nil else { return 0 }
        let text = ScreenLayout(size: state.size).detailText
        guard let key = detailKey(of: entry, text: text) else { return 0 }
        if case .failed = state.renderedImages[key] { return 2 }
        return key.rows + 1
    }

    /// The drawings the screen needs now: the thumbnails of the rows on screen, and the open detail's image.
    static func needed(_ state: TUIState) -> [ImageKey] {
        guard state.images != nil, !state.isTooSmall else { return [] }
        let layout = ScreenLayout(size: state.size)
        if let entry = state.detailEntry {
            if let document = DetailDocument.phone(of: entry, state: state, width: layout.detailText.width) {
                return document.pictures.map(\.key)
            }
            return detailKey(of: entry, text: layout.detailText).map { [$0] } ?? []
        }
        let inside = layout.notifications.inset(by: 1)
        let rows = state.rows
        guard !inside.isEmpty, !rows.isEmpty else { return [] }
        let visible = max(1, (inside.height + 1) / NotificationListPane.rowsPerNotification)
        let viewport = ListViewport(itemCount: rows.count, selection: state.notificationSelection, visible: visible)
        return viewport.range.compactMap { thumbnailKey(of: rows[$0].entry) }
    }
}
