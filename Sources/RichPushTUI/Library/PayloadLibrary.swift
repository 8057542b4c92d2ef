import Foundation
import RichPushCore
import RichPushFiles
import RichPushLibrary

/// The payload files the notification center offers to send, found by the same payload source replay uses:
/// regular `*.json` and `*.apns` files under a folder, recursively, without dot-folders and expectations,
/// sorted by relative path.
public struct PayloadLibrary: Sendable {
    /// The folder, as the user named it (e.g. "payloads").
    public var root: String

    public init(root: String) {
        self.root = root
    }

    /// Paths relative to `root`, sorted.
    public func files() throws -> [String] {
        guard (try? FileNode.following(root).get())?.isDirectory == true else {
            throw LibraryError(message: "\(root) is not a folder")
        }
        let discovery: Discovery
        do {
            discovery = try PayloadDiscovery().discover([root])
        } catch {
            throw LibraryError(message: "\(error)")
        }
        if let unreadable = discovery.problems.first(where: { $0.path == root }) {
            throw LibraryError(message: unreadable.description)
        }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return discovery.files.map { $0.path.hasPrefix(prefix) ? String($0.path.dropFirst(prefix.count)) : $0.path }
    }

    /// The path the result reports as its `file`, like replay does: the root joined with the relative path.
    public func path(of relativePath: String) -> String {
        if root.isEmpty || root == "." { return relativePath }
        return root.hasSuffix("/") ? root + relativePath : root + "/" + relativePath
    }
}

extension PayloadLibrary {
    /// The files, or why they could not be listed, as the library pane shows it.
    func listing() -> Result<[String], LibraryError> {
        do {
            return .success(try files())
        } catch let error as LibraryError {
            return .failure(error)
        } catch {
            return .failure(LibraryError(message: "\(error)"))
        }
    }
}
