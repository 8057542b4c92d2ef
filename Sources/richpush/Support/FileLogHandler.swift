import Foundation
import Logging
import RichPushFiles
import Synchronization

/// Appends log lines to a file, for front ends that own the terminal.
struct FileLogHandler: LogHandler {
    private final class Sink: Sendable {
        let handle: Mutex<FileHandle>
        init(_ handle: FileHandle) { self.handle = Mutex(handle) }
    }

    private let sink: Sink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    init(path: String) throws {
        if !FileNode.exists(path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        sink = Sink(handle)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let level = event.level
        let message = event.message
        let details =
            merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        let text = "\(Date().formatted(.iso8601)) \(level) \(message)\(details)\n"
        sink.handle.withLock { $0.write(Data(text.utf8)) }
    }
}
