import Foundation
import RichPushCore
import RichPushFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A payload file found in the library, with its expectation file when one sits beside it.
public struct PayloadFile: Sendable, Equatable {
    /// The path as the user wrote it, joined with the file's place below it.
    public var path: String
    /// `NAME.expect.json` beside `NAME.json` / `NAME.apns`, when something by that name exists.
    public var expectationPath: String?

    public init(path: String, expectationPath: String? = nil) {
        self.path = path
        self.expectationPath = expectationPath
    }

    /// The payload at `path` with the expectation beside it, when something by that name exists: as discovery
    /// finds each file, for front ends handed one file at a time.
    public static func at(_ path: String) -> PayloadFile {
        let expectation = PayloadDiscovery.expectationPath(for: path)
        let exists = if case .success = FileNode.itself(expectation) { true } else { false }
        return PayloadFile(path: path, expectationPath: exists ? expectation : nil)
    }
}

/// Something found that should be a payload but cannot be one: an unreadable folder, a FIFO named
/// `x.json`, a broken link. It is reported as a failed entry of its own; the rest of the run goes on. Thrown
/// instead when a path given on the command line cannot be replayed at all (a usage error).
public struct DiscoveryProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

/// One thing discovery found, a payload file or a problem, for front ends that list both in path order.
public enum DiscoveredEntry: Sendable, Equatable {
    case payload(PayloadFile)
    case problem(DiscoveryProblem)

    public var path: String {
        switch self {
        case .payload(let file): file.path
        case .problem(let problem): problem.path
        }
    }
}

/// What a walk of the library found.
public struct Discovery: Sendable, Equatable {
    /// Payload files, sorted by path, each file once however many paths lead to it.
    public var files: [PayloadFile] = []
    /// Payload-named entries and folders that cannot be read, sorted by path.
    public var problems: [DiscoveryProblem] = []
    /// Things worth saying that are not failures (an expectation file with no payload beside it).
    public var notices: [String] = []

    /// Payloads and problems together, sorted by path.
    public var entries: [DiscoveredEntry] {
        (files.map(DiscoveredEntry.payload) + problems.map(DiscoveredEntry.problem)).sorted {
            $0.path.utf8.lexicographicallyPrecedes($1.path.utf8)
        }
    }

    public init(files: [PayloadFile] = [], problems: [DiscoveryProblem] = [], notices: [String] = []) {
        self.files = files
        self.problems = problems
        self.notices = notices
    }
}

/// The one payload source of every front end: finds `*.json` and `*.apns` payloads (not `*.expect.json`)
/// in files and folders.
///
/// - Only regular files are payloads; a FIFO, socket or device with a payload's name is a problem, never opened.
/// - Folders are walked recursively in name order; entries whose names start with a dot are skipped.
/// - A symbolic link is resolved once: a link to a file is that file, a link to a folder is walked unless it
///   leads back into a folder being walked.
/// - A file reached by two paths (`dir` and `dir/../dir`, a link) is found once, under the first path that
///   reached it.
/// - A folder that cannot be read is a problem naming it.
public struct PayloadDiscovery: Sendable {
    public init() {}

    /// The expectation file for a payload path: `NAME.expect.json` beside `NAME.json` or `NAME.apns`.
    /// Worked out from the text alone (no file-system call: a file URL would ask for the working directory and
    /// stat the path, twice per payload).
    public static func expectationPath(for payloadPath: String) -> String {
        let slash = payloadPath.lastIndex(of: "/")
        let name = slash.map { payloadPath[payloadPath.index(after: $0)...] } ?? payloadPath[...]
        // `NAME.json` → `NAME`; a name that is all extension (`.json`) or has none is kept whole.
        let base = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name
        guard let slash else { return "\(base).expect.json" }
        return "\(payloadPath[..<slash])/\(base).expect.json"
    }

    static func isExpectationFile(named name: String) -> Bool {
        name.lowercased().hasSuffix(".expect.json")
    }

    /// The first of `paths` that does not exist, not even as a broken link. Every command that takes payload paths
    /// (replay, push) refuses it before anything runs, with exit status 2; a path that exists but cannot be a
    /// payload (a FIFO, a broken link, an unreadable file) is a result line of its own instead, and the others go on.
    public static func firstMissing(_ paths: [String]) -> DiscoveryProblem? {
        paths.first { if case .failure = FileNode.itself($0) { true } else { false } }.map(missing)
    }

    private static func missing(_ path: String) -> DiscoveryProblem {
        DiscoveryProblem(path: path, problem: "no such file or folder")
    }

    /// Everything under `paths`. Throws only when a path given does not exist (``firstMissing(_:)``) or is an
    /// expectation file.
    public func discover(_ paths: [String]) throws(DiscoveryProblem) -> Discovery {
        var walk = Walk()
        for path in paths {
            guard case .success(let own) = FileNode.itself(path) else { throw Self.missing(path) }
            let node: FileNode
            switch FileNode.following(path) {
            case .success(let target): node = target
            case .failure(let problem):
                walk.problem(path, own.kind == .symlink ? "a broken link (\(problem))" : "\(problem)")
                continue
            }
            switch node.kind {
            case .directory:
                walk.folder(path, node: node)
            case .regular:
                // A file named explicitly is replayed whatever its name, unless it is an expectation.
                if Self.isExpectationFile(named: (path as NSString).lastPathComponent) {
                    throw DiscoveryProblem(path: path, problem: "is an expectation file; pass the payload beside it")
                }
                walk.payload(path, node: node)
            default:
                walk.problem(path, "is \(node.kind.phrase), not a regular file")
            }
        }
        return walk.finish()
    }

    /// The state of one discovery: what was found so far and which folders are open.
    private struct Walk {
        var found: [FileNode.Identity: String] = [:]
        var problems: [String: String] = [:]
        var expectations: [FileNode.Identity: String] = [:]
        var ancestors: Set<FileNode.Identity> = []

        mutating func problem(_ path: String, _ text: String) {
            if problems[path] == nil { problems[path] = text }
        }

        mutating func payload(_ path: String, node: FileNode) {
            // The first path that led to the file names it: the order the user gave the paths in.
            if found[node.identity] == nil { found[node.identity] = path }
        }

        mutating func folder(_ path: String, node: FileNode) {
            guard !ancestors.contains(node.identity) else { return }
            ancestors.insert(node.identity)
            defer { ancestors.remove(node.identity) }
            let names: [String]
            switch Self.list(path) {
            case .success(let listed): names = listed
            case .failure(let problem):
                self.problem(path, "cannot read the folder: \(problem)")
                return
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            for name in names where !name.hasPrefix(".") {
                let full = prefix + name
                let isPayloadName = PayloadDecoder.isPayloadFile(named: name)
                let isExpectationName = PayloadDiscovery.isExpectationFile(named: name)
                guard case .success(let own) = FileNode.itself(full) else { continue }
                let child: FileNode
                switch FileNode.following(full) {
                case .success(let target): child = target
                case .failure(let problem):
                    // A broken link with a payload's name is reported instead of vanishing from the run.
                    if isPayloadName { self.problem(full, own.kind == .symlink ? "a broken link" : "\(problem)") }
                    continue
                }
                switch child.kind {
                case .directory:
                    folder(full, node: child)
                case .regular:
                    if isPayloadName { payload(full, node: child) }
                    if isExpectationName, expectations[child.identity] == nil { expectations[child.identity] = full }
                default:
                    if isPayloadName || isExpectationName {
                        self.problem(full, "is \(child.kind.phrase), not a regular file; only regular files are read")
                    }
                }
            }
        }

        /// The names in a folder, sorted, or why it cannot be read.
        static func list(_ path: String) -> Result<[String], FileProblem> {
            guard let directory = opendir(path) else { return .failure(FileProblem(errno: errno)) }
            defer { closedir(directory) }
            var names: [String] = []
            errno = 0
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if name != "." && name != ".." { names.append(name) }
            }
            if errno != 0 { return .failure(FileProblem(errno: errno)) }
            return .success(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }

        func finish() -> Discovery {
            func byPath(_ a: String, _ b: String) -> Bool {
                // UTF-8 order is Unicode scalar order, and cheaper to compare.
                a.utf8.lexicographicallyPrecedes(b.utf8)
            }
            let paths = found.values.sorted(by: byPath)
            let files = paths.map(PayloadFile.at)
            let used = Set(
                files.compactMap { file in file.expectationPath.flatMap { try? FileNode.following($0).get().identity } }
            )
            let notices = expectations.filter { !used.contains($0.key) }.values.sorted(by: byPath).map {
                "\($0): no payload beside it (NAME.json or NAME.apns), so this expectation is not used"
            }
            let reported = problems.keys.sorted(by: byPath).map {
                DiscoveryProblem(path: $0, problem: problems[$0] ?? "")
            }
            return Discovery(files: files, problems: reported, notices: notices)
        }
    }
}
