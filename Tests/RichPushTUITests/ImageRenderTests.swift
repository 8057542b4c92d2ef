import RichPushCore
import SnapshotTesting
import Testing

@testable import RichPushGraphics
@testable import RichPushTUI

/// Attachment images in the notification center: the list's thumbnail at the right of a rich notification
/// and the detail view's large image, drawn through the real libchafa with a fixed symbol set and colour
/// mode, so the cells are the same on every run.
@Suite struct ImageRenderTests {
    static let settings = ImageSettings(renderer: CellRenderer(colorMode: .indexed256, symbols: .quadrants))
    static let gifAttachment = Attachment(
        url: "https://fixtures.richpush.test/spinner.gif", format: .gif, width: 40, height: 40, frames: 2,
        bytes: 1_234, sha256: "ab12", file: "/tmp/richpush-TEMP/attachments/2/spinner.gif")

    /// The state with images on, every image the screen needs drawn as the run loop would draw it.
    private func drawn(_ state: TUIState, pictures: [String: DecodedImage]) -> TUIState {
        var state = state
        state.images = Self.settings
        let drawing = ImageDrawing(loader: PictureLoader(pictures: pictures), renderer: Self.settings.renderer)
        for key in ImageLayout.needed(state) {
            _ = reduce(&state, .imageRendered(key, drawing.render(key)))
        }
        return state
    }

    private var listState: TUIState {
        var state = Fixtures.state([
            Fixtures.entry(1, Fixtures.richResult(), sentAt: 2),
            Fixtures.entry(2, Fixtures.insecureResult(), sentAt: 9),
        ])
        state.focus = .notifications
        return drawn(state, pictures: [Fixtures.catAttachment.file: Pictures.quarters])
    }

    /// The list with the rich notification (the older one, second row) selected.
    private var richSelected: TUIState {
        var state = listState
        _ = reduce(&state, .moveSelection(1))
        return state
    }

    @Test func thumbnailAtTheRightOfARichNotification() {
        let grid = render(listState, size: Fixtures.size)
        #expect(grid.rowWidths.allSatisfy { $0 == Fixtures.size.columns })
        // 640x480 on 3 rows of cells twice as tall as wide: 8 columns.
        #expect(grid.imageCellCount == 8 * 3)
        #expect(grid.imageColors.isSuperset(of: [.indexed(196), .indexed(46), .indexed(21), .indexed(231)]))
        assertSnapshot(of: grid, as: .frameAndImageColors)
    }

    @Test func thumbnailAtTheMinimumSize() {
        var state = listState
        state.size = TUIState.minimumSize
        let grid = render(state, size: TUIState.minimumSize)
        #expect(grid.rowWidths.allSatisfy { $0 == TUIState.minimumSize.columns })
        assertSnapshot(of: grid, as: .frameAndImageColors)
    }

    @Test func detailShowsTheImageLargeOnTop() {
        var state = richSelected
        _ = reduce(&state, .activate)
        state = drawn(state, pictures: [Fixtures.catAttachment.file: Pictures.quarters])
        let grid = render(state, size: Fixtures.size)
        // A third of the detail view's 36 rows, 4:3 on cells twice as tall as wide: 32 columns by 12 rows.
        let key = ImageLayout.detailKey(of: state.notifications[1], text: ScreenLayout(size: Fixtures.size).detailText)
        #expect(key?.rows == 12 && key?.columns == 32)
        #expect(grid.imageCellCount == 32 * 12)
        #expect(grid.text.contains("New arrivals"), "the text follows the image")
        assertSnapshot(of: grid, as: .frameAndImageColors)
    }

    @Test func detailScrollsTheImageAwayWithTheText() {
        var state = richSelected
        _ = reduce(&state, .activate)
        state = drawn(state, pictures: [Fixtures.catAttachment.file: Pictures.quarters])
        _ = reduce(&state, .moveSelection(5))
        let grid = render(state, size: Fixtures.size)
        #expect(grid.imageCellCount == 32 * 7, "5 of the 12 image rows scrolled away")
        _ = reduce(&state, .moveToLast)
        #expect(state.detailScroll > 5, "the image's rows count in how far the detail scrolls")
        #expect(render(state, size: Fixtures.size).imageCellCount == 32 * max(0, 12 - state.detailScroll))
    }

    @Test func anImageThatCannotBeDecodedSaysWhyInTheDetail() {
        var state = richSelected
        _ = reduce(&state, .activate)
        state = drawn(state, pictures: [:])
        let grid = render(state, size: Fixtures.size)
        #expect(grid.imageCellCount == 0)
        #expect(grid.text.contains("Image not drawn: the PNG data ends early"))
    }

    /// The list with one rich notification whose attachment is the GIF, its decode verdict `decoded`; images on.
    private func gifList(decoded: Bool? = nil) -> TUIState {
        var result = Fixtures.richResult(file: "payloads/gif-closed.json")
        result.attachment = Self.gifAttachment
        result.attachment?.decoded = decoded
        var state = Fixtures.state([Fixtures.entry(1, result, sentAt: 2)])
        state.focus = .notifications
        state.images = Self.settings
        return state
    }

    private var gifDetail: TUIState {
        var state = gifList()
        _ = reduce(&state, .activate)
        return drawn(state, pictures: [Self.gifAttachment.file: Pictures.redThenBlue])
    }

    @Test func anAnimatedGIFPlaysAtItsOwnDelaysAndSpacePausesIt() {
        var state = gifDetail
        let opened = state.now
        #expect(state.isPlayingImage)
        #expect(render(state, size: Fixtures.size).imageColors.contains(.indexed(196)), "opens on the first frame")
        _ = reduce(&state, .tick(opened + 0.49))
        #expect(render(state, size: Fixtures.size).imageColors.contains(.indexed(196)), "the first frame stays 500 ms")
        _ = reduce(&state, .tick(opened + 0.55))
        let second = render(state, size: Fixtures.size)
        #expect(second.imageColors.contains(.indexed(21)) && !second.imageColors.contains(.indexed(196)))
        #expect(state.detailImage?.timeToNextFrame(at: state.animation.elapsed(at: state.now)) ?? 0 > 0.19)

        _ = reduce(&state, .toggleStack)
        #expect(!state.isPlayingImage && state.status == "Animation paused (Space plays)")
        _ = reduce(&state, .tick(opened + 5))
        #expect(
            render(state, size: Fixtures.size).imageColors == second.imageColors, "paused: the same frame however long")
        _ = reduce(&state, .toggleStack)
        _ = reduce(&state, .tick(opened + 5.3))
        #expect(render(state, size: Fixtures.size).imageColors.contains(.indexed(196)), "plays on from where it was")
    }

    @Test func aThumbnailDecodesTheFirstFrameOnlyAndTheDetailViewEveryFrame() {
        var state = gifList(decoded: true)
        let loader = PictureLoader(pictures: [Self.gifAttachment.file: Pictures.redThenBlue])
        let drawing = ImageDrawing(loader: loader, renderer: Self.settings.renderer)

        let thumbnail = ImageLayout.needed(state)
        #expect(thumbnail.map(\.purpose) == [.thumbnail])
        guard case .frames(let still, _)? = thumbnail.first.map(drawing.render) else {
            Issue.record("the thumbnail was not drawn")
            return
        }
        #expect(still.count == 1)

        _ = reduce(&state, .activate)
        let detail = ImageLayout.needed(state).filter { $0.purpose == .detail }
        guard case .frames(let played, _)? = detail.first.map(drawing.render) else {
            Issue.record("the detail image was not drawn")
            return
        }
        #expect(played.count == 2)
        #expect(loader.requests.all.map(\.firstFrameOnly) == [true, false], "the list asks for one frame only")
    }

    /// An image the delivery found broken (`decoded: false`) or not yet checked is decoded whole for its
    /// thumbnail too, so a GIF cut short after its first frame stays blank as its result says.
    @Test(arguments: [false, nil] as [Bool?])
    func aThumbnailOfAnImageNotKnownToDecodeIsDecodedWhole(decoded: Bool?) {
        let state = gifList(decoded: decoded)
        let loader = PictureLoader(pictures: [:])
        let drawing = ImageDrawing(loader: loader, renderer: Self.settings.renderer)
        let keys = ImageLayout.needed(state)
        #expect(keys.map(\.purpose) == [.thumbnail])
        #expect(keys.first.map(drawing.render) == .failed("the PNG data ends early"))
        #expect(loader.requests.all.map(\.firstFrameOnly) == [false])
    }

    @Test func spaceOnAStillImageDoesNothing() {
        var state = richSelected
        _ = reduce(&state, .activate)
        state = drawn(state, pictures: [Fixtures.catAttachment.file: Pictures.quarters])
        let before = state
        _ = reduce(&state, .toggleStack)
        #expect(state == before)
    }

    @Test func resizingDrawsTheDetailImageAgainAtTheNewSize() {
        var state = gifDetail
        let before = ImageLayout.needed(state)
        _ = reduce(&state, .resized(TerminalSize(columns: 80, rows: 24)))
        #expect(state.detailImage == nil, "the old size's drawing is dropped")
        let after = ImageLayout.needed(state)
        #expect(after.count == 1 && after != before && after[0].rows < before[0].rows)
    }

    @Test func deletingANotificationForgetsItsDrawings() {
        var state = richSelected
        #expect(!state.renderedImages.isEmpty)
        _ = reduce(&state, .deleteSelected)
        #expect(state.renderedImages.isEmpty)
        // A drawing finishing after its notification went is not kept.
        _ = reduce(
            &state,
            .imageRendered(
                ImageKey(file: Fixtures.catAttachment.file, purpose: .thumbnail, columns: 8, rows: 3), .failed("x")))
        #expect(state.renderedImages.isEmpty)
    }

    @Test(arguments: [
        (ImageMode.auto, 256, false, true, ColorMode?.some(.indexed256)),
        (.auto, 16_777_216, true, true, .truecolor),
        (.auto, 16, false, true, .indexed16),
        (.auto, 8, false, true, .indexed8),
        (.auto, 0, false, true, nil),
        (.auto, 256, false, false, nil),
        (.symbols, 0, false, false, .monochrome),
        (.none, 256, false, true, nil),
    ])
    func imagesModeAndTheTerminal(mode: ImageMode, colors: Int, direct: Bool, utf8: Bool, expected: ColorMode?) {
        #expect(
            ImageSettings.resolve(mode: mode, colors: colors, direct: direct, utf8: utf8)?.renderer.colorMode
                == expected)
    }
}
