import Foundation
import RichPushCore
import RichPushFiles
import RichPushLibrary

/// The payload files the notification center offers to send, found by the same payload source replay uses:
/// regular `*.json` and `*.apns` files under a folder, recursively, without dot-folders and expectations,
/// sorted by relative path. Payloads written for a team's extension (`given.extension`) are marked, with whether
/// this notification center runs that extension.
public struct PayloadLibrary: Sendable {
    /// The folder, as the user named it (e.g. "payloads").
    public var root: String
    /// The team's extension payloads go through (`--extension`); nil for the emulated one.
    public var extensionFolder: String?

    public init(root: String, extensionFolder: String? = nil) {
        self.root = root
        self.extensionFolder = extensionFolder
    }

    /// Paths relative to `root`, sorted.
    public func files() throws -> [String] {
        try discover().map(\.relativePath)
    }

    /// The payload files found under `root`, each with its path relative to it.
    private func discover() throws -> [(file: PayloadFile, relativePath: String)] {
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
        return discovery.files.map { file in
            (file, file.path.hasPrefix(prefix) ? String(file.path.dropFirst(prefix.count)) : file.path)
        }
    }

    /// The path the result reports as its `file`, like replay does: the root joined with the relative path.
    public func path(of relativePath: String) -> String {
        if root.isEmpty || root == "." { return relativePath }
        return root.hasSuffix("/") ? root + relativePath : root + "/" + relativePath
    }
}

extension PayloadLibrary {
    /// The files with their marks, or why they could not be listed, as the library pane shows it. Only the
    /// expectation files are read, for their `given.extension`; one that cannot be read marks nothing (sending the
    /// payload says what is wrong with it).
    func listing() -> Result<LibraryListing, LibraryError> {
        do {
            var listing = LibraryListing(files: [])
            for (file, relativePath) in try discover() {
                listing.files.append(relativePath)
                guard let expectationPath = file.expectationPath,
                    case .success(let expectation) = LoadedPayload.loadExpectation(expectationPath),
                    let given = expectation.given.extensionFolder
                else { continue }
                let requirement = ExtensionRequirement(payloadPath: file.path, given: given)
                listing.extensionMarks[relativePath] = ExtensionMark(
                    requirement: requirement, isMet: requirement.isMet(by: extensionFolder))
            }
            return .success(listing)
        } catch let error as LibraryError {
            return .failure(error)
        } catch {
            return .failure(LibraryError(message: "\(error)"))
        }
    }
}
