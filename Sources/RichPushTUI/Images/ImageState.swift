import RichPushCore
import RichPushGraphics

/// Which drawing of an attachment: the list's thumbnail or the detail view's large image, at a size in cells.
struct ImageKey: Hashable, Sendable {
    enum Purpose: Hashable, Sendable {
        /// The first frame, small, at the right of the notification's row.
        case thumbnail
        /// Every frame, large, at the top of the detail view.
        case detail
    }

    var file: String
    var purpose: Purpose
    var columns: Int
    var rows: Int
    /// The delivery's decode verdict on the attachment (nil before one): a thumbnail of an image known to
    /// decode needs its first frame only; any other is decoded whole, so a broken one stays blank as the
    /// result says it is, and a new verdict draws it again.
    var decoded: Bool? = nil
}

/// An attachment drawn as cells, or why it could not be.
enum RenderedImage: Equatable, Sendable {
    /// One cell image per frame, and how long each stays on screen, in seconds.
    case frames([CellImage], delays: [Double])
    case failed(String)

    /// The frame on screen `elapsed` seconds after the animation started (the first for a still image).
    func frame(at elapsed: Double) -> CellImage? {
        guard case .frames(let frames, let delays) = self, !frames.isEmpty else { return nil }
        return frames[Self.frameIndex(delays: delays, at: elapsed)]
    }

    var isAnimated: Bool {
        if case .frames(let frames, _) = self { return frames.count > 1 }
        return false
    }

    /// Seconds from `elapsed` until the next frame shows; nil for a still image.
    func timeToNextFrame(at elapsed: Double) -> Double? {
        guard case .frames(let frames, let delays) = self, frames.count > 1 else { return nil }
        let total = delays.reduce(0, +)
        guard total > 0 else { return nil }
        var position = elapsed.truncatingRemainder(dividingBy: total)
        for delay in delays {
            if position < delay { return delay - position }
            position -= delay
        }
        return delays.first
    }

    static func frameIndex(delays: [Double], at elapsed: Double) -> Int {
        let total = delays.reduce(0, +)
        guard delays.count > 1, total > 0 else { return 0 }
        var position = max(0, elapsed).truncatingRemainder(dividingBy: total)
        for (index, delay) in delays.enumerated() {
            if position < delay { return index }
            position -= delay
        }
        return delays.count - 1
    }

    /// A GIF frame's delay as browsers (and iOS) play it: delays under 20 ms count as 100 ms.
    static func playedDelay(_ delay: Duration) -> Double {
        let seconds = delay.seconds
        return seconds < 0.02 ? 0.1 : seconds
    }
}

/// The detail view's animation clock: time runs while playing, and Space pauses it.
struct AnimationClock: Equatable, Sendable {
    /// Seconds played before the last pause.
    var playedBeforePause: Double = 0
    /// When playing resumed (seconds since the UI started); nil while paused.
    var playingSince: Double? = 0

    var isPaused: Bool { playingSince == nil }

    func elapsed(at now: Double) -> Double {
        playedBeforePause + (playingSince.map { max(0, now - $0) } ?? 0)
    }

    mutating func restart(at now: Double) {
        self = AnimationClock(playedBeforePause: 0, playingSince: now)
    }

    mutating func togglePause(at now: Double) {
        if let since = playingSince {
            playedBeforePause += max(0, now - since)
            playingSince = nil
        } else {
            playingSince = now
        }
    }
}

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
