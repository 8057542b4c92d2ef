public import RichPushCore
public import RichPushLibrary

/// The report formats of `richpush replay`.
public enum ReplayFormat: String, Sendable, CaseIterable {
    case text
    case json
    /// JSON lines: one compact result object per line, as each payload finishes.
    case jsonl
    case junit
    case html

    /// Renders a report as the text of this format; `context` (when, which version, the settings) goes into the
    /// formats that show it.
    public func render(_ report: ReplayReport, context: ReportContext = ReportContext()) -> String {
        switch self {
        case .text: TextReporter().render(report)
        case .json: JSONReporter().render(report)
        case .jsonl: report.items.map(JSONReporter().line).joined()
        case .junit: JUnitReporter().render(report)
        case .html: HTMLReporter(context: context).render(report)
        }
    }

    /// The order results are written in while a replay runs: JSON lines as each finishes, everything else by path.
    public var order: ReplayRunner.Order { self == .jsonl ? .completion : .path }
}

/// A report written while the replay runs: each result becomes a ``Piece`` (in the compute pool) as it
/// finishes, and the pieces are written in the format's order, so only the counts are kept, not the results.
/// The HTML report is the exception: it embeds the images and is drawn whole at the end, so its pieces keep
/// their items.
public struct ReportStream: Sendable {
    public let format: ReplayFormat
    public let context: ReportContext
    /// How the HTML report gets an attachment's bytes (``AttachmentFile/read(_:)`` for files in the store).
    public let attachmentBytes: @Sendable (Attachment) -> [UInt8]?
    /// How the HTML report reads the other files its phone views draw (posters, audio, video).
    public let fileBytes: @Sendable (_ path: String, _ limit: Int) -> SafeFileReader.Outcome
    private let pathWidth: Int

    /// One result, ready to write.
    public struct Piece: Sendable {
        /// The result's text in the format (for JSON, without the `[` or `,` that goes before it).
        public var text: String
        /// A problem with the file itself, for standard error.
        public var error: String?
        /// The whole item, kept for the HTML report only.
        public var item: ReplayItem?
    }

    /// `paths` are every payload's path, for the text report's column width.
    public init(
        format: ReplayFormat, paths: some Sequence<String>, context: ReportContext = ReportContext(),
        attachmentBytes: @escaping @Sendable (Attachment) -> [UInt8]? = { _ in nil },
        fileBytes: @escaping @Sendable (_ path: String, _ limit: Int) -> SafeFileReader.Outcome = { _, _ in
            .failure("not read")
        }
    ) {
        self.fileBytes = fileBytes
        self.format = format
        self.context = context
        self.attachmentBytes = attachmentBytes
        pathWidth = format == .text ? TextReporter.pathWidth(paths) : 0
    }

    /// What the result becomes in the report (CPU work: run it in the compute pool).
    public func prepare(_ item: ReplayItem) -> Piece {
        let text: String
        switch format {
        case .text: text = TextReporter().lines(for: item, pathWidth: pathWidth)
        case .json: text = JSONReporter().element(item, position: 1).dropFirst().description
        case .jsonl: text = JSONReporter().line(item)
        case .junit: text = JUnitReporter().testCase(item)
        case .html: return Piece(text: "", error: item.error, item: item)
        }
        return Piece(text: text, error: item.error)
    }

    /// The piece's text as the `position`th (0-based) in the report.
    public func text(of piece: Piece, position: Int) -> String {
        format == .json ? (position == 0 ? "[" : ",") + piece.text : piece.text
    }

    /// What goes before the pieces, once the counts are known: the JUnit header; nothing for the other formats.
    public func header(_ summary: ReplaySummary) -> String {
        format == .junit ? JUnitReporter().header(summary) : ""
    }

    /// Whether the report starts with `header(_:)`, so the pieces must wait (in a spool) until the end.
    public var needsCountsFirst: Bool { format == .junit }

    /// What goes after the pieces.
    public func footer(_ summary: ReplaySummary) -> String {
        switch format {
        case .text: TextReporter().footer(summary)
        case .json: JSONReporter().closing(count: summary.total)
        case .junit: JUnitReporter().footer
        case .jsonl, .html: ""
        }
    }

    /// The HTML report's reporter, reading files as this stream does.
    public var reporter: HTMLReporter {
        HTMLReporter(context: context, attachmentBytes: attachmentBytes, fileBytes: fileBytes)
    }

    /// The HTML report of the kept items.
    public func html(_ items: [ReplayItem], summary: ReplaySummary) -> String {
        reporter.render(
            ReplayReport(items: items, elapsed: summary.elapsed))
    }
}
