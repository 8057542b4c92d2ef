import RichPushCore
import Testing

@testable import RichPushGraphics

/// Pixels to cells with libchafa: the colours a person sees are the pixels' colours, the symbols stay
/// in the set asked for, and the aspect is kept.
@Suite struct CellImageTests {
    /// The colour a person sees in a cell that is all one colour: the background of a space, the
    /// foreground of a full block.
    private func seen(_ cell: CellImage.Cell) -> TerminalColor? {
        switch cell.symbol {
        case " ": cell.background
        case "█": cell.foreground
        default: nil
        }
    }

    private func columnsSeen(_ image: CellImage) -> [[TerminalColor?]] {
        (0..<image.rows).map { row in (0..<image.columns).map { seen(image[row, $0]) } }
    }

    @Test func truecolorCellsShowThePixelsOwnColours() throws {
        let image = try #require(
            CellRenderer(colorMode: .truecolor).render(Pictures.redBlue(), columns: 8, rows: 2))
        #expect(image.columns == 8 && image.rows == 2)
        for row in columnsSeen(image) {
            #expect(row == Array(repeating: .rgb(0xFF0000), count: 4) + Array(repeating: .rgb(0x0000FF), count: 4))
        }
    }

    @Test(arguments: [
        (ColorMode.indexed256, Set<UInt8>([9, 196]), Set<UInt8>([12, 21])),
        (ColorMode.indexed16, Set<UInt8>([1, 9]), Set<UInt8>([4, 12])),
        (ColorMode.indexed8, Set<UInt8>([1]), Set<UInt8>([4])),
    ])
    func indexedModesPickThePaletteEntriesOfThoseColours(mode: ColorMode, reds: Set<UInt8>, blues: Set<UInt8>)
        throws
    {
        let image = try #require(CellRenderer(colorMode: mode).render(Pictures.redBlue(), columns: 8, rows: 2))
        for row in columnsSeen(image) {
            for (column, color) in row.enumerated() {
                guard case .indexed(let index) = color else {
                    Issue.record("cell \(column) is not one palette colour: \(String(describing: color))")
                    continue
                }
                #expect((column < 4 ? reds : blues).contains(index), "column \(column) index \(index)")
            }
        }
    }

    @Test func monochromeDrawsShapesInTheTerminalsOwnColours() throws {
        let image = try #require(
            CellRenderer(colorMode: .monochrome, symbols: .halves).render(
                Pictures.whiteOverBlack(), columns: 4, rows: 2))
        #expect(image.cells.allSatisfy { $0.foreground == .terminalDefault && $0.background == .terminalDefault })
        // Light on top, dark below: the top row is (mostly) ink, the bottom row blank.
        #expect(image.symbolText.split(separator: "\n").map(String.init) == ["████", "    "])
    }

    @Test func aHalfBlockSplitsACellIntoTopAndBottom() throws {
        let image = try #require(
            CellRenderer(colorMode: .truecolor, symbols: .halves).render(
                Pictures.whiteOverBlack(), columns: 1, rows: 1))
        let cell = image[0, 0]
        switch cell.symbol {
        case "▀": #expect(cell.foreground == .rgb(0xFFFFFF) && cell.background == .rgb(0x000000))
        case "▄": #expect(cell.foreground == .rgb(0x000000) && cell.background == .rgb(0xFFFFFF))
        default: Issue.record("white over black is a half block, got \(cell.symbol)")
        }
    }

    @Test(arguments: SymbolSet.allCases)
    func symbolsStayInTheSetAskedFor(symbols: SymbolSet) throws {
        let gradient = Pictures.image(width: 97, height: 61) { x, y in
            (UInt8(x * 255 / 96), UInt8(y * 255 / 60), UInt8((x * y) % 256), 255)
        }
        let image = try #require(
            CellRenderer(colorMode: .truecolor, symbols: symbols).render(gradient, columns: 30, rows: 10))
        let halves: Set<Unicode.Scalar> = [" ", "█", "▀", "▄", "▌", "▐"]
        let quadrants = halves.union(["▖", "▗", "▘", "▝", "▙", "▛", "▜", "▟", "▚", "▞"])
        let allowed: (Unicode.Scalar) -> Bool =
            switch symbols {
            case .halves: { halves.contains($0) }
            case .quadrants: { quadrants.contains($0) }
            case .blocks: { quadrants.contains($0) || (0x2580...0x259F).contains($0.value) }
            case .sextants:
                {
                    quadrants.contains($0) || (0x2580...0x259F).contains($0.value)
                        || (0x1FB00...0x1FB3B).contains($0.value)
                }
            }
        let outside = image.cells.map(\.symbol).filter { !allowed($0) }
        #expect(outside.isEmpty, "symbols outside \(symbols): \(outside)")
    }

    @Test func theSamePixelsAlwaysGiveTheSameCells() {
        let renderer = CellRenderer(colorMode: .indexed256, symbols: .quadrants)
        let picture = Pictures.image(width: 50, height: 40) { x, y in
            ((x * 5) % 256 == 0 ? 255 : 40, UInt8(y * 6), 90, 255)
        }
        #expect(renderer.render(picture, columns: 10, rows: 4) == renderer.render(picture, columns: 10, rows: 4))
    }

    @Test func emptyImagesAndSizesDrawNothing() {
        let renderer = CellRenderer(colorMode: .truecolor)
        #expect(renderer.render(DecodedImage(width: 0, height: 0, frames: []), columns: 4, rows: 2) == nil)
        #expect(renderer.render(Pictures.redBlue(), columns: 0, rows: 2) == nil)
        #expect(renderer.render(Pictures.redBlue(), frame: 3, columns: 4, rows: 2) == nil)
        let short = DecodedImage(width: 10, height: 10, frames: [DecodedImage.Frame(rgba: [0, 0, 0])])
        #expect(renderer.render(short, columns: 4, rows: 2) == nil, "fewer bytes than pixels is refused, not read past")
    }

    @Test func controlCharactersNeverComeOutAsSymbols() {
        #expect(CellRenderer.safeSymbol(0x1B) == " ")
        #expect(CellRenderer.safeSymbol(0x9B) == " ")
        #expect(CellRenderer.safeSymbol(0xD800) == " ")
        #expect(CellRenderer.safeSymbol(0x2580) == "▀")
    }

    /// Cells are about twice as tall as wide: 4:3 pixels on 3 rows take 8 columns.
    @Test(arguments: [(640, 480), (480, 640), (1200, 300), (300, 1200), (100, 100), (1, 1000)])
    func fittingKeepsTheAspect(width: Int, height: Int) {
        let size = CellRenderer.fit(width: width, height: height, columns: 40, rows: 12)
        #expect(size.columns <= 40 && size.rows <= 12 && size.columns >= 1 && size.rows >= 1)
        #expect(size.columns == 40 || size.rows == 12 || size.columns == 1 || size.rows == 1, "fills one side")
        let drawn = Double(size.columns) * 0.5 / Double(size.rows)
        let picture = Double(width) / Double(height)
        // Whole cells: within one cell of the exact shape on the shorter side.
        let tolerance = max(0.5 / Double(size.rows), 1.0 / Double(size.columns)) * max(drawn, picture) + 0.01
        if size.columns > 1 && size.rows > 1 { #expect(abs(drawn - picture) <= max(tolerance, picture * 0.2)) }
        #expect(CellRenderer.fit(width: 640, height: 480, columns: 12, rows: 3) == (8, 3))
    }
}
