import RichPushCore
import Testing

@testable import RichPushGraphics

/// What richpush draws outside curses: colours from COLORTERM and terminfo, the protocol from chafa's
/// terminal database, and the escape sequences chafa makes of the pixels.
@Suite struct TerminalGraphicsTests {
    @Test(arguments: [
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], ColorMode.truecolor),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], .truecolor),
        (["TERM": "xterm-direct"], .truecolor),
        (["TERM": "xterm-256color"], .indexed256),
        (["TERM": "xterm"], .indexed8),
        (["TERM": "vt100"], .monochrome),
        (["TERM": "dumb", "COLORTERM": "truecolor"], .monochrome),
        ([:], .monochrome),
    ])
    func colours(environment: [String: String], expected: ColorMode) {
        #expect(TerminalGraphics.detect(environment: environment).colorMode == expected)
    }

    @Test("terminfo read from many threads at once: each answer right, no crash (terminfo keeps one global entry)")
    func coloursFromManyThreads() async {
        let terminals: [(String, ColorMode)] = [
            ("xterm-256color", .indexed256), ("xterm", .indexed8), ("vt100", .monochrome),
            ("screen-256color", .indexed256),
        ]
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<300 {
                        let (term, expected) = terminals[(worker + round) % terminals.count]
                        if TerminalGraphics.detect(environment: ["TERM": term]).colorMode != expected { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test(arguments: [
        (["TERM": "xterm-kitty"], PixelProtocol.kitty),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm2),
        (["TERM": "foot"], .sixels),
        (["TERM": "mlterm"], .sixels),
        (["TERM": "xterm-256color"], .symbols),
        (["TERM": "tmux-256color"], .symbols),
    ])
    func protocols(environment: [String: String], expected: PixelProtocol) {
        #expect(TerminalGraphics.detect(environment: environment).pixelProtocol == expected)
    }

    private func draw(_ graphics: TerminalGraphics, columns: Int = 8, rows: Int = 2) -> String {
        TerminalImagePrinter(graphics: graphics, environment: ["TERM": "xterm-256color"])
            .draw(Pictures.redBlue(), columns: columns, rows: rows)
    }

    @Test func truecolorSymbolsCarryThePixelsColours() {
        let text = draw(TerminalGraphics(colorMode: .truecolor))
        #expect(text.contains(";2;255;0;0m") && text.contains(";2;0;0;255m"), "\(text.debugDescription)")
        #expect(text.split(separator: "\n").count == 2, "one line per row")
        #expect(text.hasSuffix("\u{1B}[0m"), "attributes reset after the image")
    }

    @Test func twoHundredFiftySixColoursUseThePalette() {
        let text = draw(TerminalGraphics(colorMode: .indexed256))
        #expect(text.contains("5;196m") || text.contains("5;9m"), "\(text.debugDescription)")
        #expect(!text.contains(";2;255;0;0"))
    }

    @Test func pixelProtocolsSendTheirOwnSequences() {
        #expect(draw(TerminalGraphics(colorMode: .truecolor, pixelProtocol: .kitty)).hasPrefix("\u{1B}_G"))
        #expect(draw(TerminalGraphics(colorMode: .truecolor, pixelProtocol: .iterm2)).contains("\u{1B}]1337;File="))
        let sixels = draw(TerminalGraphics(colorMode: .indexed256, pixelProtocol: .sixels))
        #expect(sixels.hasPrefix("\u{1B}P") && sixels.contains("\u{1B}\\"), "a DCS sixel string")
    }

    @Test func theImageKeepsItsAspectWithinTheBox() {
        let printer = TerminalImagePrinter(graphics: TerminalGraphics(colorMode: .truecolor), environment: [:])
        let size = printer.size(of: Pictures.redBlue(width: 640, height: 480), columns: 80, rows: 15)
        #expect(size.columns == 40 && size.rows == 15)
    }
}
