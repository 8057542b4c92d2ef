/// Which items of a list fit in a pane, scrolled so the selection stays visible.
struct ListViewport: Equatable {
    var first: Int
    var count: Int

    /// `visible` items fit; the list scrolls only as far as needed to show `selection`.
    init(itemCount: Int, selection: Int, visible: Int) {
        let visible = max(0, visible)
        first = max(0, min(selection - visible + 1, itemCount - visible))
        first = max(0, first)
        count = min(visible, itemCount - first)
    }

    var range: Range<Int> { first..<(first + max(0, count)) }
}
