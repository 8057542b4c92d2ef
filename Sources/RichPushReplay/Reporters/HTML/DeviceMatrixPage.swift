import RichPushCore
import RichPushLibrary

extension HTMLReporter {
    /// `replay --device-matrix --format html`: the report's page with a card per payload (its delivery on the
    /// `unlocked` phone, or the first column's), each with a table of how the person gets it in every phone state
    /// (``DeviceMatrix/outcome(of:)``), the delivery's reason as each cell's tooltip. Same CSP, still no script.
    public func render(_ matrix: ReplayMatrix) -> String {
        let shown = matrix.columns.firstIndex { $0.name == "unlocked" } ?? 0
        var items: [ReplayItem] = []
        var tables: [Int: String] = [:]
        for (index, row) in matrix.rows.enumerated() {
            let cell = row.cells.indices.contains(shown) ? row.cells[shown] : row.cells.first
            items.append(
                ReplayItem(
                    file: row.file, result: cell?.result, verdict: cell?.verdict ?? .unchecked, error: cell?.error))
            tables[index] = Self.deviceTable(row, columns: matrix.columns)
        }
        return render(
            ReplayReport(items: items, elapsed: matrix.elapsed), title: "richpush device matrix", extras: tables)
    }

    /// One payload's row of the matrix: a column per phone state.
    static func deviceTable(_ row: ReplayMatrix.Row, columns: [ReplayMatrix.Column]) -> String {
        var html = "<table class=\"dm-table\">\n<caption class=\"dm-caption\">How the person gets it, per phone state"
        html += " (the unlocked phone is drawn)</caption>\n<thead><tr>"
        for column in columns { html += "<th scope=\"col\">\(escape(column.name))</th>" }
        html += "</tr></thead>\n<tbody><tr>"
        for cell in row.cells {
            let delivery = cell.result?.presentation?.delivery
            let why =
                delivery?.reason ?? cell.result?.rejection?.detail ?? cell.result?.fallback?.detail ?? cell.error
            let kind: String
            switch delivery?.kind {
            case .heldByFocus?: kind = "dm-held"
            case .scheduledSummary?: kind = "dm-summary"
            case .quiet?: kind = "dm-quiet"
            case .foregroundOptions? where delivery?.shownIn.isEmpty == true, nil: kind = "dm-nothing"
            default: kind = "dm-shown"
            }
            html += "<td class=\"\(kind)\" data-state=\"\(escape(cell.column.name))\""
            if let why { html += " title=\"\(escape(why))\"" }
            html += ">\(escape(ReplayMatrixReporter.cellText(cell)))</td>"
        }
        return html + "</tr></tbody>\n</table>\n"
    }
}
