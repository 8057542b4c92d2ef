import Foundation
import RichPushCore
import RichPushFiles
import RichPushLibrary
import RichPushReplay

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `richpush replay`'s report while the replay runs, keeping counts rather than results.
///
/// - On standard output, text and JSON are written as results reach their turn in path order, JSON lines as
///   each payload finishes.
/// - JUnit opens with the counts, and `--output FILE` is written in place only once the report is ready
///   (a failed replay never leaves half a report over the previous one), so their text waits in a spool: an
///   unlinked temporary file, not memory.
/// - HTML embeds the images, so it keeps its items and is drawn whole before the attachments go.
struct ReplayReportOutput {
    let stream: ReportStream
    /// Standard output when nil.
    let outputFile: OutputFile?
    let progress: ProgressLine?
    /// `--preview`: what goes under each result's line (its image), when there is a preview.
    var preview: (@Sendable (ReplayItem) -> String)? = nil
    /// `--screenshots`: the items are kept, with their attachments, until each view's page is drawn.
    var screenshots = false
    /// Whether standard output is the terminal the progress line is drawn on, so the line is cleared first.
    private let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    /// The text report is on the terminal standard error writes to: its ERR line already names the file and the
    /// problem, so the problem is not written a second time.
    private var problemsAreInTheReport: Bool {
        stream.format == .text && outputFile == nil && StandardStreams.outputAndErrorShareATerminal
    }

    /// What is left to write once the replay (and the emulator) is done.
    enum Pending {
        /// Everything is on standard output already.
        case written
        /// The report, whole (HTML).
        case text(String)
        /// The report's middle in a spool, between the header and the footer.
        case spooled(ReportSpool, header: String, footer: String)
        /// The spool could not be written.
        case failed(String)
    }

    /// Replays the discovered `entries` through `runner`, each read when its turn comes, writing or spooling each
    /// result as it is ready.
    func replay(_ entries: [DiscoveredEntry], runner: ReplayRunner) async throws(CommandFailure) -> (
        ReplaySummary, Pending, [ScreenshotPage]
    ) {
        var spool: ReportSpool?
        var spoolFailure: String?
        if outputFile != nil || stream.needsCountsFirst, stream.format != .html {
            do {
                spool = try ReportSpool()
            } catch {
                spoolFailure = error.reason
            }
        }
        var items: [ReplayItem] = []
        var position = 0
        let stream = self.stream
        let progress = self.progress
        let preview = self.preview
        let problemsInReport = problemsAreInTheReport
        let keepItems = stream.format == .html || screenshots
        let summary = try await runner.run(
            count: entries.count, loading: { LoadedPayload.load(entries[$0]) }, order: stream.format.order,
            progress: { done, total in progress?.update(done: done, total: total) },
            // HTML embeds the images when the replay is done; every other report is done with them in `prepare`.
            discardAttachments: !keepItems,
            // Drawing a preview decodes and scales the image: that is CPU work for the pool.
            prepareInComputePool: preview != nil,
            prepare: { item in
                var piece = stream.prepare(item)
                if let preview { piece.text += preview(item) }
                if keepItems { piece.item = item }
                return piece
            }
        ) { (piece) throws(CommandFailure) in
            if let error = piece.error, !problemsInReport {
                progress?.clear()
                StandardStreams.error("richpush replay: \(error)\n")
            }
            if let item = piece.item { items.append(item) }
            let text = stream.text(of: piece, position: position)
            position += 1
            guard !text.isEmpty else { return }
            if let spool, spoolFailure == nil {
                do throws(OutputFile.Failure) {
                    try spool.append(text)
                } catch {
                    spoolFailure = error.reason
                }
            } else if spool == nil, spoolFailure == nil {
                if outputIsTerminal { progress?.clear() }
                try StandardStreams.output(text)
            }
        }
        progress?.clear()
        // Drawn now, like the HTML report: the pages embed the downloaded images, which go with the emulator.
        let kept = items
        let pages =
            screenshots
            ? await runner.computePool.run {
                stream.reporter.screenshotPages(ReplayReport(items: kept, elapsed: summary.elapsed))
            } : []
        if let spoolFailure { return (summary, .failed(spoolFailure), pages) }
        if stream.format == .html {
            let html = await runner.computePool.run { stream.html(kept, summary: summary) }
            return (summary, .text(html), pages)
        }
        if let spool {
            return (
                summary, .spooled(spool, header: stream.header(summary), footer: stream.footer(summary)), pages
            )
        }
        try StandardStreams.output(stream.footer(summary))
        return (summary, .written, pages)
    }

    /// Writes what `replay` left; the report file's or the spool's problem in one line, exit status 2.
    func finish(_ pending: Pending, path: String?) throws(CommandFailure) {
        let text: String
        switch pending {
        case .written:
            return
        case .failed(let reason):
            throw .io("richpush replay: cannot write the report: \(reason)")
        case .text(let whole):
            text = whole
        case .spooled(let spool, let header, let footer):
            guard let outputFile else {
                try StandardStreams.output(header)
                var written: CommandFailure?
                do throws(OutputFile.Failure) {
                    try spool.forEachChunk { chunk in
                        guard written == nil else { return }
                        do throws(CommandFailure) { try StandardStreams.output(chunk) } catch { written = error }
                    }
                } catch {
                    throw .io("richpush replay: cannot write the report: \(error.reason)")
                }
                if let written { throw written }
                try StandardStreams.output(footer)
                return
            }
            do {
                try Self.write(header: header, spool: spool, footer: footer, to: outputFile)
            } catch {
                throw .io("richpush replay: cannot write the report to \(path ?? outputFile.path): \(error.reason)")
            }
            return
        }
        guard let outputFile else {
            try StandardStreams.output(text)
            return
        }
        do {
            try outputFile.write(text)
        } catch {
            throw .io("richpush replay: cannot write the report to \(path ?? outputFile.path): \(error.reason)")
        }
    }
}

extension ReplayReportOutput {
    /// Replaces the file's contents with the header, the spooled text and the footer, in place and a piece at a
    /// time, as ``OutputFile/write(_:)`` does with one text (through ``OutputFile/openForWriting()``).
    static func write(header: String, spool: ReportSpool, footer: String, to file: OutputFile) throws(OutputFile
        .Failure)
    {
        let (descriptor, owned) = try file.openForWriting()
        var failure: Int32?
        func put(_ text: String) {
            guard failure == nil else { return }
            failure = FileDescriptorWriter.writeAll(Array(text.utf8), to: descriptor)
        }
        put(header)
        var spoolFailure: OutputFile.Failure?
        do { try spool.forEachChunk(put) } catch { spoolFailure = error }
        put(footer)
        // Some file systems report a full disk only when the file is closed.
        if owned, close(descriptor) != 0, failure == nil { failure = errno }
        if let spoolFailure { throw spoolFailure }
        if let failure { throw OutputFile.Failure(path: file.path, reason: FileDescriptorWriter.describe(failure)) }
    }
}

/// Report text kept out of memory until the end: an anonymous temporary file (unlinked as soon as it is made, so
/// it goes away with the process however it ends), appended to and then read back in pieces.
final class ReportSpool {
    private let descriptor: Int32

    init() throws(OutputFile.Failure) {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("richpush-report-XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard made >= 0 else { throw OutputFile.Failure(path: path, reason: FileDescriptorWriter.describe(errno)) }
        unlink(path)
        descriptor = made
    }

    deinit { close(descriptor) }

    func append(_ text: String) throws(OutputFile.Failure) {
        if let failure = FileDescriptorWriter.writeAll(Array(text.utf8), to: descriptor) {
            throw OutputFile.Failure(path: "a temporary file", reason: FileDescriptorWriter.describe(failure))
        }
    }

    /// The spooled text in pieces of about 256 KB, each ending at a line break (so no character is split).
    func forEachChunk(_ body: (String) -> Void) throws(OutputFile.Failure) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw OutputFile.Failure(path: "a temporary file", reason: FileDescriptorWriter.describe(errno))
        }
        var carried: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw OutputFile.Failure(path: "a temporary file", reason: FileDescriptorWriter.describe(errno))
            }
            if count == 0 { break }
            carried += buffer[0..<count]
            guard let lastBreak = carried.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            body(String(decoding: carried[...lastBreak], as: UTF8.self))
            carried.removeSubrange(...lastBreak)
        }
        if !carried.isEmpty { body(String(decoding: carried, as: UTF8.self)) }
    }
}
