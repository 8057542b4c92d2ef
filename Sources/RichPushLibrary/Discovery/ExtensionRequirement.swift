import Foundation
import RichPushCore

/// The team's extension a payload's expectation was written for (`given.extension`, a folder relative to the
/// payload's). Such a payload is delivered only through that extension (`--extension` naming the same folder): its
/// expectation says what that code does, not what the emulated extension does. Without it the payload is skipped,
/// with ``skippedNote(_:)``. Replay and the notification center both decide it here.
public struct ExtensionRequirement: Sendable, Equatable {
    /// The folder as a path from where richpush runs (the payload's folder joined with `given.extension`, its `..`
    /// worked out), as the `--extension` to give.
    public var folder: String
    /// The folder absolute, with symbolic links followed, so that two spellings of one folder compare equal.
    private var resolved: String

    /// The requirement of the payload at `payloadPath` whose expectation names `given` as `given.extension`.
    public init(payloadPath: String, given: String) {
        let base = (payloadPath as NSString).deletingLastPathComponent
        folder = Self.joined(base, given)
        resolved =
            URL(fileURLWithPath: given, relativeTo: URL(fileURLWithPath: base.isEmpty ? "." : base))
            .standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The requirement of a payload read with its expectation; nil when it names no extension (or its expectation
    /// could not be read).
    public init?(_ payload: LoadedPayload) {
        guard let given = payload.settings.extensionFolder else { return nil }
        self.init(payloadPath: payload.file.path, given: given)
    }

    /// Whether a run with `extensionFolder` as its `--extension` (nil: none) delivers the payload.
    public func isMet(by extensionFolder: String?) -> Bool {
        guard let extensionFolder else { return false }
        return URL(fileURLWithPath: extensionFolder).standardizedFileURL.resolvingSymlinksInPath().path == resolved
    }

    /// The note for payloads skipped because the run does not have the extension they were written for: how many,
    /// and the `--extension` that delivers them. Short, so that the notification center's status line shows it whole.
    public static func skippedNote(_ skipped: [ExtensionRequirement]) -> String {
        var folders: [String] = []
        for requirement in skipped where !folders.contains(requirement.folder) { folders.append(requirement.folder) }
        folders.sort()
        let payloads = skipped.count == 1 ? "1 payload" : "\(skipped.count) payloads"
        let named =
            folders.count <= 1
            ? folders.first ?? "DIR"
            : folders.dropLast().joined(separator: ", ") + " or " + folders[folders.count - 1]
        return "\(payloads) written for --extension \(named) (given.extension) skipped"
    }

    /// `given` below `base`, its `.` and `..` worked out on the text (a note's path, not a lookup).
    static func joined(_ base: String, _ given: String) -> String {
        let whole = given.hasPrefix("/") || base.isEmpty ? given : base + "/" + given
        let absolute = whole.hasPrefix("/")
        var parts: [Substring] = []
        for part in whole.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let path = parts.joined(separator: "/")
        return absolute ? "/" + path : path.isEmpty ? "." : path
    }
}
