/// How notifications map to a team's extension's processes (`--extension-process`), as iOS may run them.
///
/// iOS does not always start a process per notification: it keeps an extension's process alive and hands it later
/// notifications, sometimes several at once, and apps have seen one instance receive a second `didReceive`
/// (element-ios #3326 and #3335; element-x-ios #2022: the extension "does *not* always spawn a new process to handle a
/// new notification and will also try and process notifications in parallel"). State shared between them (a static
/// content handler, a cache keyed by nothing) is the bug each mode shows. Part of the host protocol: richpush names the
/// mode to the process in ``HostProtocol/Environment/processMode``.
public enum ExtensionProcessMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One process per notification.
    case each
    /// One process takes later notifications while it lives, one at a time, a new instance for each; it ends after
    /// an idle time without one.
    case reuse
    /// One process has several notifications in flight at once, each with its own instance.
    case concurrent
    /// One instance receives the next `didReceive` after its handler was called.
    case sameInstance = "same-instance"

    public var description: String { rawValue }

    /// The mode when none is given.
    public static let defaultMode: ExtensionProcessMode = .each

    /// The mode named `text` (`each`, `reuse`, `concurrent`, `same-instance`); nil for any other.
    public init?(named text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The names, for help and errors.
    public static let names = allCases.map(\.rawValue)
}
