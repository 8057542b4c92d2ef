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
    /// The part of the image drawn (a thumbnail's clipping rect, or its centred square); nil: all of it.
    var crop: CropRect? = nil
}
