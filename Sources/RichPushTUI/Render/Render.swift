/// Draws the whole screen for a state and a terminal size. Pure: the same state and size always give
/// the same frame, which is what the snapshot tests compare.
func render(_ state: TUIState, size: TerminalSize) -> CellGrid {
    var grid = CellGrid(size: size)
    if size.columns < TUIState.minimumSize.columns || size.rows < TUIState.minimumSize.rows {
        TooSmallView(size: size).draw(on: &grid)
        return grid
    }
    let layout = ScreenLayout(size: size)
    HeaderView(state: state).draw(in: layout.header, on: &grid)
    if let entry = state.detailEntry {
        DetailView(entry: entry, state: state).draw(in: layout.body, layout: layout, on: &grid)
    } else {
        LibraryPane(state: state).draw(in: layout.library, on: &grid)
        NotificationListPane(state: state).draw(in: layout.notifications, on: &grid)
    }
    FooterView(state: state).draw(in: layout.footer, on: &grid)
    if let banner = state.banner {
        BannerView(banner: banner, now: state.now).draw(in: layout.body, on: &grid)
    }
    if let summary = state.openSummary {
        SummaryView(summary: summary, state: state).draw(in: layout.body, on: &grid)
    }
    if state.isHelpVisible {
        HelpOverlay(endpoint: state.endpointHelp).draw(in: layout.body, on: &grid)
    }
    return grid
}
