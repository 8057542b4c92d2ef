import RichPushCore
import RichPushTestSupport
import SnapshotTesting
import Synchronization

@testable import RichPushGraphics
@testable import RichPushTUI

/// Pictures with known colours for the image tests, and a loader that hands them out as attachment files.
enum Pictures {
    typealias RGBA = Pixels.RGBA

    static func frame(width: Int, height: Int, delay: Duration = .zero, _ color: (Int, Int) -> RGBA)
        -> DecodedImage.Frame
    {
        Pixels.frame(width: width, height: height, delay: delay, color)
    }

    /// 640x480 in four quarters: red, green / blue, white (the cat stands in for it).
    static let quarters = DecodedImage(
        width: 64, height: 48,
        frames: [
            frame(width: 64, height: 48) { x, y in
                switch (x < 32, y < 24) {
                case (true, true): (255, 0, 0, 255)
                case (false, true): (0, 255, 0, 255)
                case (true, false): (0, 0, 255, 255)
                case (false, false): (255, 255, 255, 255)
                }
            }
        ])

    /// An animated GIF's frames: all red for 0.5 s, then all blue for 0.25 s.
    static let redThenBlue = DecodedImage(
        width: 40, height: 40,
        frames: [
            frame(width: 40, height: 40, delay: .milliseconds(500)) { _, _ in (255, 0, 0, 255) },
            frame(width: 40, height: 40, delay: .milliseconds(250)) { _, _ in (0, 0, 255, 255) },
        ])
}

/// Hands out pictures by attachment file; a file it does not know cannot be read.
/// With `firstFrameOnly` it hands out the first frame alone, as the codecs do, and it notes every request.
struct PictureLoader: AttachmentImageLoading {
    var pictures: [String: DecodedImage]
    /// The files asked for, in order, each with whether only its first frame was wanted.
    let requests = Requests()

    final class Requests: Sendable {
        private let log = Mutex<[(file: String, firstFrameOnly: Bool)]>([])
        var all: [(file: String, firstFrameOnly: Bool)] { log.withLock { $0 } }
        func note(_ file: String, _ firstFrameOnly: Bool) { log.withLock { $0.append((file, firstFrameOnly)) } }
    }

    func load(file: String, fittingWidth width: Int, height: Int, firstFrameOnly: Bool)
        -> Result<DecodedImage, ImageLoadError>
    {
        requests.note(file, firstFrameOnly)
        guard var picture = pictures[file] else { return .failure(ImageLoadError("the PNG data ends early")) }
        if firstFrameOnly { picture.frames = Array(picture.frames.prefix(1)) }
        return .success(picture)
    }
}

extension Snapshotting where Value == CellGrid, Format == String {
    /// The frame as a person reads it, then the colours of every image cell, row by row
    /// (`row: column fg/bg …`), so a snapshot shows where the image is and what colours it has.
    static var frameAndImageColors: Snapshotting<CellGrid, String> {
        Snapshotting<String, String>.lines.pullback { (grid: CellGrid) in
            var lines = [grid.text, "", "image cells (row: column=foreground/background):"]
            for row in 0..<grid.height {
                var cells: [String] = []
                for column in 0..<grid.width {
                    if case .image(let foreground, let background) = grid[row, column].style.color {
                        cells.append("\(column)=\(foreground)/\(background)")
                    }
                }
                if !cells.isEmpty { lines.append("\(row): " + cells.joined(separator: " ")) }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

extension CellGrid {
    /// How many cells show an image.
    var imageCellCount: Int {
        var count = 0
        for row in 0..<height {
            for column in 0..<width {
                if case .image = self[row, column].style.color { count += 1 }
            }
        }
        return count
    }

    /// The palette colours the image cells show.
    var imageColors: Set<TerminalColor> {
        var colors: Set<TerminalColor> = []
        for row in 0..<height {
            for column in 0..<width {
                if case .image(let foreground, let background) = self[row, column].style.color {
                    colors.insert(foreground)
                    colors.insert(background)
                }
            }
        }
        return colors
    }
}
