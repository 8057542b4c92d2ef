import RichPushCore
import RichPushGraphics

/// Draws attachments as cells for the notification center: decodes the file scaled down to the size it is
/// shown at, then lets libchafa pick symbols and colours. CPU-bound; the run loop calls it from a task,
/// one drawing at a time, never on the input path.
struct ImageDrawing: Sendable {
    let loader: any AttachmentImageLoading
    let renderer: CellRenderer
    let pool = ComputePool(width: 1)

    /// Pixels decoded per cell: chafa looks at 8x8 samples of a cell, which is about twice as tall as wide.
    static let pixelsPerColumn = 8
    static let pixelsPerRow = 16

    func draw(_ key: ImageKey) async -> RenderedImage {
        await pool.run { render(key) }
    }

    func render(_ key: ImageKey) -> RenderedImage {
        // The list shows the first frame (of an image known to decode, the only one decoded); the detail view
        // plays them all.
        // A cropped image is decoded larger, so the part drawn still has the pixels its cells need.
        let scaleX: Double = key.crop.map { 1 / max($0.width, 1.0 / 16) } ?? 1
        let scaleY: Double = key.crop.map { 1 / max($0.height, 1.0 / 16) } ?? 1
        let width = Double(key.columns * Self.pixelsPerColumn) * scaleX
        let height = Double(key.rows * Self.pixelsPerRow) * scaleY
        let loaded = loader.load(
            file: key.file, fittingWidth: Int(width), height: Int(height),
            firstFrameOnly: key.purpose == .thumbnail && key.decoded == true)
        switch loaded {
        case .failure(let error):
            return .failed(error.message)
        case .success(let whole):
            let image = key.crop.map { Self.crop(whole, to: $0) } ?? whole
            let indices =
                key.purpose == .thumbnail ? Array(image.frames.indices.prefix(1)) : Array(image.frames.indices)
            var frames: [CellImage] = []
            var delays: [Double] = []
            for index in indices {
                guard let cells = renderer.render(image, frame: index, columns: key.columns, rows: key.rows) else {
                    continue
                }
                frames.append(cells)
                delays.append(RenderedImage.playedDelay(image.frames[index].delay))
            }
            guard !frames.isEmpty else { return .failed("the image has no pixels to draw") }
            return .frames(frames, delays: delays)
        }
    }

    /// The part `rect` (unit coordinates) of every frame of `image`: at least one pixel, never past its edges.
    static func crop(_ image: DecodedImage, to rect: CropRect) -> DecodedImage {
        guard image.width > 0, image.height > 0 else { return image }
        func span(_ start: Double, _ length: Double, of size: Int) -> (start: Int, count: Int) {
            let first = min(size - 1, max(0, Int((start * Double(size)).rounded(.down))))
            let last = min(size, max(first + 1, Int(((start + length) * Double(size)).rounded(.up))))
            return (first, last - first)
        }
        let columns = span(rect.x, rect.width, of: image.width)
        let rows = span(rect.y, rect.height, of: image.height)
        if columns == (0, image.width) && rows == (0, image.height) { return image }
        let frames = image.frames.map { frame -> DecodedImage.Frame in
            guard frame.rgba.count >= image.width * image.height * 4 else { return frame }
            var rgba: [UInt8] = []
            rgba.reserveCapacity(columns.count * rows.count * 4)
            for y in rows.start..<(rows.start + rows.count) {
                let from = (y * image.width + columns.start) * 4
                rgba += frame.rgba[from..<(from + columns.count * 4)]
            }
            return DecodedImage.Frame(rgba: rgba, delay: frame.delay)
        }
        return DecodedImage(width: columns.count, height: rows.count, frames: frames)
    }
}
