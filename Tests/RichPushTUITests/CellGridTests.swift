import Testing

@testable import RichPushTUI

@Suite struct CellGridTests {
    @Test func writesOutsideTheGridAreDropped() {
        var grid = CellGrid(width: 5, height: 2)
        grid.write("hello", row: -1, column: 0)
        grid.write("hello", row: 2, column: 0)
        grid.write("hello", row: 0, column: -3)
        grid.write("hello world", row: 1, column: 2)
        #expect(grid.text == "lo\n  hel")
    }

    @Test func clipsByColumnsAndNeverSplitsAWideCharacter() {
        var grid = CellGrid(width: 5, height: 1)
        let end = grid.write("中文字", row: 0, column: 0)
        #expect(end == 4)
        #expect(grid.text == "中文")
        #expect(grid.rowWidths == [5])
        var budget = CellGrid(width: 10, height: 1)
        #expect(budget.write("中文字", row: 0, column: 0, maxWidth: 3) == 2)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(width: 6, height: 2)
        grid.write("中文字", row: 0, column: 0)
        grid.write("x", row: 0, column: 1)
        #expect(grid.text.split(separator: "\n").first == " x文字")
        grid.write("中文字", row: 1, column: 0)
        grid.write("y", row: 1, column: 2)
        #expect(grid.text.split(separator: "\n").last == "中y 字")
        #expect(grid.rowWidths == [6, 6])
    }

    @Test func controlCharactersNeverReachTheGrid() {
        var grid = CellGrid(width: 20, height: 1)
        grid.write("a\u{1B}[2Jb\u{7}\r\n", row: 0, column: 0)
        #expect(!grid.allScalars.contains { $0.value < 0x20 })
        #expect(grid.text.hasPrefix("a�[2Jb�"))
    }

    @Test func boxDrawsInsideItsRectangle() {
        var grid = CellGrid(width: 12, height: 4)
        grid.box(Rect(column: 1, row: 0, width: 10, height: 3), title: "A very long title")
        #expect(grid.text == " ┌─ A ve…─┐\n │        │\n └────────┘\n")
    }
}
