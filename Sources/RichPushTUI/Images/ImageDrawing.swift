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
        let loaded = loader.load(
            file: key.file, fittingWidth: key.columns * Self.pixelsPerColumn, height: key.rows * Self.pixelsPerRow,
            firstFrameOnly: key.purpose == .thumbnail && key.decoded == true)
        switch loaded {
        case .failure(let error):
            return .failed(error.message)
        case .success(let image):
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
}
