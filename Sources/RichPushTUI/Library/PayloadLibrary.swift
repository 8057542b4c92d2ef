import Foundation
import RichPushCore

/// The payload files the notification center offers to send: `*.json` and `*.apns` under a folder,
/// recursively, sorted by relative path; expectation files (`*.expect.json`) are left out.
public struct PayloadLibrary: Sendable {
    /// The folder, as the user named it (e.g. "payloads").
    public var root: String

    public init(root: String) {
        self.root = root
    }

    /// Paths relative to `root`, sorted.
    public func files() throws -> [String] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LibraryError(message: "\(root) is not a folder")
        }
        guard let enumerator = manager.enumerator(atPath: root) else {
            throw LibraryError(message: "cannot read the folder \(root)")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard PayloadDecoder.isPayloadFile(named: name) else { continue }
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: path(of: relative), isDirectory: &isFolder), !isFolder.boolValue {
                files.append(relative)
            }
        }
        return files.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The bytes of a payload file named by its relative path.
    public func contents(of relativePath: String) throws -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path(of: relativePath))
        if let size = attributes?[.size] as? Int, size > PayloadDecoder.maxFileBytes {
            throw LibraryError(
                message: "\(path(of: relativePath)): \(PayloadRejection.oversizedFile(bytes: size).detail)")
        }
        guard let data = FileManager.default.contents(atPath: path(of: relativePath)) else {
            throw LibraryError(message: "cannot read \(path(of: relativePath))")
        }
        return [UInt8](data)
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
