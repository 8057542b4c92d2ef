import RichPushCore
/// The banner a notification shows when it arrives and the phone draws one: plain text, no image.
struct BannerView {
    var banner: Banner
    var now: Double

    func draw(in body: Rect, on grid: inout CellGrid) {
        let width = min(body.width - 4, 72)
        guard width >= 20, body.height >= 4 else { return }
        let rect = Rect(column: body.column + (body.width - width) / 2, row: body.row, width: width, height: 4)
        let style = CellStyle(color: .banner, reverse: true)
        grid.fill(rect, style: style)
        grid.box(
            rect, title: banner.inForeground ? "Banner · app in foreground · now" : "Banner · now", style: style)
        let inner = rect.inset(by: 1)
        let title = TextSanitizer.singleLine(banner.title)
        let subtitle = TextSanitizer.singleLine(banner.subtitle)
        let headline = [title, subtitle].filter { !$0.isEmpty }.joined(separator: " — ")
        grid.write(
            TextLayout.truncate(headline, toWidth: inner.width - 2), row: inner.row, column: inner.column + 1,
            style: style.with(bold: true))
        grid.write(
            TextLayout.truncate(TextSanitizer.singleLine(banner.body), toWidth: inner.width - 2), row: inner.row + 1,
            column: inner.column + 1, style: style)
    }
}
