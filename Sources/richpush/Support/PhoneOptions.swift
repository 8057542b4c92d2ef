import ArgumentParser
import Foundation
import RichPushCore

/// The phone's state and the person's settings, as flags on every front end that delivers (replay, serve, tui);
/// `given.device` takes the same names in camelCase. Unset flags leave a new iPhone's defaults (``DeviceState``).
struct PhoneOptions: ParsableArguments {
    @Flag(name: .customLong("locked"), help: "The phone is locked (default: unlocked, in use).")
    var locked = false

    @Option(
        name: .customLong("focus"),
        help: ArgumentHelp(
            "A Focus: off, on (the app not allowed) or on-allowing-app (default: off).", valueName: "STATE"))
    var focus: DeviceState.Focus?

    @Option(
        name: .customLong("focus-filter"),
        help: ArgumentHelp(
            "The filter-criteria values the app's Focus filter lets through, comma-separated (default: no filter).",
            valueName: "VALUE,..."))
    var focusFilter: String?

    @Option(
        name: .customLong("summary"),
        help: ArgumentHelp("Scheduled Summary with the app in it: on or off (default: off).", valueName: "on|off"))
    var summary: OnOff?

    @Option(
        name: .customLong("previews"),
        help: ArgumentHelp(
            "Show Previews: always, when-unlocked or never (default: when-unlocked, as on a Face ID iPhone).",
            valueName: "SETTING"))
    var previews: DeviceState.Previews?

    @Flag(name: .customLong("silent"), help: "The ring/silent switch is on silent.")
    var silent = false

    @Option(
        name: .customLong("grouping"),
        help: ArgumentHelp("Notification Grouping: automatic, by-app or off (default: automatic).", valueName: "MODE"))
    var grouping: DeviceState.Grouping?

    @Option(
        name: .customLong("lock-screen"),
        help: ArgumentHelp("The lock screen's Display As: count, stack or list (default: stack).", valueName: "STYLE"))
    var lockScreen: DeviceState.LockScreenDisplay?

    @Flag(
        name: .customLong("provisional"),
        help: "The app has provisional authorisation: notifications are delivered quietly, to Notification Center.")
    var provisional = false

    @Option(
        name: .customLong("foreground-options"),
        help: ArgumentHelp(
            "What the app's willPresent returns while it is in the foreground: banner, list, sound, badge, comma-separated (default: none, as iOS).",
            valueName: "OPTION,..."))
    var foregroundOptions: ChoiceList<DeviceState.ForegroundOption>?

    @Option(
        name: .customLong("capabilities"),
        help: ArgumentHelp(
            "The app's capabilities: time-sensitive, critical, communication, comma-separated (default: none).",
            valueName: "CAPABILITY,..."))
    var capabilities: ChoiceList<DeviceState.Capability>?

    /// The phone these flags describe.
    var device: DeviceState {
        var state = DeviceState.newPhone
        state.locked = locked
        if let focus { state.focus = focus }
        if let focusFilter {
            state.focusFilter = focusFilter.split(separator: ",").map { String($0) }
        }
        if let summary { state.summary = summary == .on }
        if let previews { state.previews = previews }
        state.silent = silent
        if let grouping { state.grouping = grouping }
        if let lockScreen { state.lockScreen = lockScreen }
        state.provisional = provisional
        if let foregroundOptions { state.foregroundOptions = Set(foregroundOptions.values) }
        if let capabilities { state.capabilities = Set(capabilities.values) }
        return state
    }
}

enum OnOff: String, CaseIterable, Sendable {
    case on, off
}

// ArgumentParser reads a string-backed CaseIterable enumeration itself, its error listing the values, as it does
// for AppState (DeliveryOptions.swift).
extension OnOff: ExpressibleByArgument {}
extension DeviceState.Focus: ExpressibleByArgument {}
extension DeviceState.Previews: ExpressibleByArgument {}
extension DeviceState.Grouping: ExpressibleByArgument {}
extension DeviceState.LockScreenDisplay: ExpressibleByArgument {}

/// A comma-separated list of an enumeration's raw values.
struct ChoiceList<Choice: RawRepresentable & CaseIterable & Sendable>: ExpressibleByArgument, Sendable
where Choice.RawValue == String {
    var values: [Choice]

    init?(argument: String) {
        var values: [Choice] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Choice(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                return nil
            }
            values.append(value)
        }
        self.values = values
    }

    static var defaultCompletionKind: CompletionKind { .list(Choice.allCases.map(\.rawValue)) }
}
