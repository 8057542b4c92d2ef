import Foundation
import RichPushFiles

/// A target's Info.plist: XML or binary (Foundation reads those without printing anything) or the OpenStep format
/// (read by ``OpenStepPropertyList``). Only what identifies an extension is taken from it.
struct InfoPlistFile: Sendable, Equatable {
    /// An Info.plist is a few KB; 1 MB is far beyond any real one.
    static let maxBytes = 1 << 20

    var extensionPointIdentifier: String?
    var principalClass: String?

    /// The `NSExtension` keys of the plist at `path`, or why it cannot be read, in words.
    static func read(_ path: String) -> Result<InfoPlistFile, FileProblem> {
        let bytes: [UInt8]
        switch BoundedFile.read(path, limit: maxBytes) {
        case .success(let read): bytes = read
        case .failure(let problem): return .failure(problem)
        }
        let root: PropertyListValue
        switch PropertyListValue.read(bytes) {
        case .success(let value): root = value
        case .failure(let problem): return .failure(FileProblem("not a property list (\(problem.message))"))
        }
        guard root.dictionary != nil else { return .failure(FileProblem("its root is not a dictionary")) }
        let info = root["NSExtension"]
        return .success(
            InfoPlistFile(
                extensionPointIdentifier: info?["NSExtensionPointIdentifier"]?.string,
                principalClass: info?["NSExtensionPrincipalClass"]?.string))
    }
}
