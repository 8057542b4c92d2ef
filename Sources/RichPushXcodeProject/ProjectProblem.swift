/// Why an Xcode project gave no Notification Service Extension: a value naming the file and the problem in one
/// sentence (``description``), with the kind for callers that act on it and the targets it is about.
public struct ProjectProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No project at the path, or none in the folder.
        case noProject
        /// The project file cannot be read (not a regular file, too large, a link loop, no permission).
        case unreadable
        /// The project file is not a property list, or not one Xcode writes (no objects, no root object).
        case malformed
        /// No app extension target is a Notification Service Extension.
        case noServiceExtension
        /// More than one is, and no `--target` chose.
        case severalServiceExtensions
        /// `--target` names no target of the project.
        case noSuchTarget
        /// `--target` names a target that is another kind of extension, or no extension.
        case notAServiceExtension
    }

    public var kind: Kind
    /// The file or folder the problem is about.
    public var file: String
    /// The targets the problem is about: the extensions found, or the service extensions to choose from.
    public var targets: [String]
    /// One sentence, starting with the file.
    public var description: String

    init(_ kind: Kind, file: String, targets: [String] = [], _ message: String) {
        self.kind = kind
        self.file = file
        self.targets = targets
        self.description = "\(file): \(message)"
    }
}
