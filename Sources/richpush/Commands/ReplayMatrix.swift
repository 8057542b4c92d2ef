import ArgumentParser
import RichPushCore
import RichPushLibrary
import RichPushReplay

/// `replay --sdk all`, `replay --extension-process all` and `replay --device-matrix`: every payload once per SDK
/// profile, per mode or per phone state, printed as a matrix (the device matrix also as an HTML page).
extension ReplayCommand {
    /// The report formats the matrix has.
    var matrixFormat: ReplayMatrixReporter.Format? {
        switch format {
        case .text: .text
        case .json: .json
        case .junit: .junit
        case .jsonl, .html: nil
        }
    }

    /// Refuses what the matrix cannot do, before anything runs.
    func validateMatrix() throws {
        let options = [
            delivery.allSDKs ? "--sdk all" : nil, delivery.allProcessModes ? "--extension-process all" : nil,
            deviceMatrix ? "--device-matrix" : nil,
        ].compactMap { $0 }
        guard let option = options.first else { return }
        if options.count > 1 {
            throw ValidationError(
                "\(options.joined(separator: " and ")) are matrices of their own; run them one at a time")
        }
        // The device matrix is also a page: the report's cards, each with its row of the matrix.
        guard matrixFormat != nil || (deviceMatrix && format == .html) else {
            let formats = deviceMatrix ? "text, json, junit or html" : "text, json or junit"
            throw ValidationError("\(option) prints a matrix as \(formats), not \(format.rawValue)")
        }
        guard shard == nil else { throw ValidationError("\(option) does not take --shard") }
    }

    /// Writes the matrix to `--output` or standard output, then the summary line as a replay does; throws exit
    /// status 1 when a cell does not match its expectation.
    func writeMatrix(_ matrix: ReplayMatrix, to reportFile: OutputFile?) throws(CommandFailure) {
        let text =
            format == .html
            ? HTMLReporter(
                context: reportContext, attachmentBytes: AttachmentFile.read, fileBytes: SafeFileReader.read
            ).render(matrix)
            : ReplayMatrixReporter(format: matrixFormat ?? .text).render(matrix)
        let summary = matrix.summary.summaryLine
        if let reportFile, let output {
            do {
                try reportFile.write(text)
            } catch {
                throw .io("richpush replay: cannot write the report to \(output): \(error.reason)")
            }
            try StandardStreams.output(
                format == .text ? summary + "\n" : "Report written to \(output)\n\(summary)\n")
        } else {
            try StandardStreams.output(text)
            // Standard output stays a valid document; the summary goes to standard error.
            if format != .text { StandardStreams.error(summary + "\n") }
        }
        if matrix.summary.failed > 0 { throw .checkFailed }
    }
}
