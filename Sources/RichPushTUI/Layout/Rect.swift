/// A rectangle of cells, used to lay widgets out.
struct Rect: Equatable, Sendable {
    var column: Int
    var row: Int
    var width: Int
    var height: Int

    var isEmpty: Bool { width <= 0 || height <= 0 }
    var maxColumn: Int { column + width }
    var maxRow: Int { row + height }

    /// The rectangle shrunk by `amount` cells on every side (the inside of a box).
    func inset(by amount: Int) -> Rect {
        Rect(
            column: column + amount, row: row + amount, width: max(0, width - 2 * amount),
            height: max(0, height - 2 * amount))
    }

    /// A rectangle of at most `width`x`height`, centred in this one.
    func centered(width: Int, height: Int) -> Rect {
        let w = min(width, self.width)
        let h = min(height, self.height)
        return Rect(column: column + (self.width - w) / 2, row: row + (self.height - h) / 2, width: w, height: h)
    }
}
