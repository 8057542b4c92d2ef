import Foundation
import RichPushCore

/// A payload file found for replay, with its expectation file when one sits beside it.
public struct PayloadFile: Sendable, Equatable {
    /// The path as the user wrote it, joined with the file's place below it.
    public var path: String
    /// `NAME.expect.json` beside `NAME.json` / `NAME.apns`, when it exists.
    public var expectationPath: String?

    public init(path: String, expectationPath: String? = nil) {
        self.path = path
        self.expectationPath = expectationPath
    }
}

/// A path given on the command line that cannot be replayed.
public struct DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

/// Finds payloads in files and folders: `*.json` and `*.apns`, recursively, but not `*.expect.json`.
public struct PayloadDiscovery: Sendable {
    public init() {}

    /// The expectation file for a payload path: `NAME.expect.json` beside `NAME.json` or `NAME.apns`.
    public static func expectationPath(for payloadPath: String) -> String {
        let url = URL(fileURLWithPath: payloadPath)
        let base = url.deletingPathExtension().lastPathComponent
        let directory = (payloadPath as NSString).deletingLastPathComponent
        return directory.isEmpty ? "\(base).expect.json" : "\(directory)/\(base).expect.json"
    }

    /// Payload files under `paths`, sorted by path and without duplicates.
    public func discover(_ paths: [String]) throws(DiscoveryError) -> [PayloadFile] {
        let manager = FileManager.default
        var found: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw DiscoveryError(path: path, problem: "no such file or folder")
            }
            if isDirectory.boolValue {
                guard let enumerator = manager.enumerator(atPath: path) else {
                    throw DiscoveryError(path: path, problem: "cannot list the folder")
                }
                let prefix = path.hasSuffix("/") ? path : path + "/"
                for case let relative as String in enumerator {
                    let full = prefix + relative
                    // Anything payload-named but a folder is replayed; an unreadable file or a broken link then
                    // reports its problem instead of vanishing from the run.
                    var childIsDirectory: ObjCBool = false
                    let isFolder =
                        manager.fileExists(atPath: full, isDirectory: &childIsDirectory)
                        && childIsDirectory.boolValue
                    if PayloadDecoder.isPayloadFile(named: relative), !isFolder {
                        found.insert(full)
                    }
                }
            } else {
                // A file named explicitly is replayed whatever its name, unless it is an expectation.
                if path.lowercased().hasSuffix(".expect.json") {
                    throw DiscoveryError(path: path, problem: "is an expectation file; pass the payload beside it")
                }
                found.insert(path)
            }
        }
        return found.sorted().map { path in
            let expectation = Self.expectationPath(for: path)
            return PayloadFile(path: path, expectationPath: manager.fileExists(atPath: expectation) ? expectation : nil)
        }
    }
}
