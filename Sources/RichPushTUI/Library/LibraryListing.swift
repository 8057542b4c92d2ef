import RichPushLibrary

/// What the library pane lists: the payload files, and which of them were written for a team's extension.
struct LibraryListing: Equatable, Sendable {
    /// Paths relative to the library's root, sorted.
    var files: [String]
    /// The payloads whose expectation names a team's extension (`given.extension`), by relative path.
    var extensionMarks: [String: ExtensionMark] = [:]
}

/// A payload written for a team's extension, as the library marks it: sent through that extension when the
/// notification center runs with it, and otherwise not sent, with the note replay prints.
struct ExtensionMark: Equatable, Sendable {
    var requirement: ExtensionRequirement
    /// The notification center runs with that extension (`--extension` naming the same folder).
    var isMet: Bool
}
