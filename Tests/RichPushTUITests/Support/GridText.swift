import RichPushCore
import SnapshotTesting

@testable import RichPushTUI

extension Snapshotting where Value == CellGrid, Format == String {
    /// The frame as a person reads it, one line per row.
    static var frame: Snapshotting<CellGrid, String> {
        Snapshotting<String, String>.lines.pullback { (grid: CellGrid) in grid.text + "\n" }
    }
}

extension CellGrid {
    /// Each row's display width, to check that nothing spills past the edge.
    var rowWidths: [Int] {
        (0..<height).map { row in
            (0..<width).reduce(0) { total, column in
                if case .character(let character) = self[row, column].content {
                    return total + TextWidth.of(character)
                }
                return total
            }
        }
    }

    /// Every character on screen, for asserting that nothing dangerous reached the frame.
    var allScalars: [Unicode.Scalar] {
        (0..<height).flatMap { row in
            (0..<width).flatMap { column -> [Unicode.Scalar] in
                if case .character(let character) = self[row, column].content {
                    return Array(character.unicodeScalars)
                }
                return []
            }
        }
    }
}
