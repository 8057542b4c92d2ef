/// The phone's side of whether a notification is seen: the settings a person has and the state the phone is in.
/// Every front end takes them the same way: flags on `replay`, `serve` and `tui` (`--locked`, `--focus`, …), the
/// notification center's header keys, and `given.device` in an expectation (the same names in camelCase).
///
/// The defaults are a new iPhone's: unlocked, no Focus, no Scheduled Summary, Show Previews "When Unlocked" (the
/// default on Face ID iPhones since the iPhone X; https://www.cultofmac.com/511647/iphone-x-keeps-notifications-secret/),
/// ring on, grouping automatic, the lock screen's display "Stack" (iOS 16), notifications authorised in full, the app's
/// `willPresent` returning no options (so nothing shows while it is in the foreground), and no special capability.
public struct DeviceState: Sendable, Equatable {
    public var locked: Bool
    public var focus: Focus
    /// The `filter-criteria` values the app's Focus filter lets through (`FocusFilterAppContext`'s predicate, as a
    /// list); nil: the app provides no Focus filter.
    public var focusFilter: [String]?
    /// Scheduled Summary, with the app in it.
    public var summary: Bool
    public var previews: Previews
    /// The ring/silent switch on silent.
    public var silent: Bool
    public var grouping: Grouping
    public var lockScreen: LockScreenDisplay
    /// Provisional authorisation ("deliver quietly").
    public var provisional: Bool
    /// What the app's `userNotificationCenter(_:willPresent:withCompletionHandler:)` returns.
    public var foregroundOptions: Set<ForegroundOption>
    /// What the app is entitled to.
    public var capabilities: Set<Capability>

    public enum Focus: String, Sendable, CaseIterable {
        case off
        /// A Focus is on and the app is not among its allowed apps.
        case on
        /// A Focus is on and allows the app.
        case onAllowingApp = "on-allowing-app"
    }

    /// `UNShowPreviewsSetting` (https://developer.apple.com/documentation/usernotifications/unshowpreviewssetting).
    public enum Previews: String, Sendable, CaseIterable {
        case always
        case whenUnlocked = "when-unlocked"
        case never
    }

    /// Settings › Notifications › the app › Notification Grouping.
    public enum Grouping: String, Sendable, CaseIterable {
        case automatic
        case byApp = "by-app"
        case off
    }

    /// Settings › Notifications › Display As (iOS 16).
    public enum LockScreenDisplay: String, Sendable, CaseIterable {
        case count, stack, list
    }

    /// `UNNotificationPresentationOptions`
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationpresentationoptions).
    public enum ForegroundOption: String, Sendable, CaseIterable {
        case banner, list, sound, badge
    }

    public enum Capability: String, Sendable, CaseIterable {
        /// The Time Sensitive Notifications capability
        /// (https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.usernotifications.time-sensitive).
        case timeSensitive = "time-sensitive"
        /// Apple's critical alerts entitlement
        /// (https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.usernotifications.critical-alerts).
        case critical
        /// The Communication Notifications capability
        /// (https://developer.apple.com/documentation/usernotifications/implementing-communication-notifications).
        case communication
    }

    public init(
        locked: Bool = false, focus: Focus = .off, focusFilter: [String]? = nil, summary: Bool = false,
        previews: Previews = .whenUnlocked, silent: Bool = false, grouping: Grouping = .automatic,
        lockScreen: LockScreenDisplay = .stack, provisional: Bool = false,
        foregroundOptions: Set<ForegroundOption> = [], capabilities: Set<Capability> = []
    ) {
        self.locked = locked
        self.focus = focus
        self.focusFilter = focusFilter
        self.summary = summary
        self.previews = previews
        self.silent = silent
        self.grouping = grouping
        self.lockScreen = lockScreen
        self.provisional = provisional
        self.foregroundOptions = foregroundOptions
        self.capabilities = capabilities
    }

    /// A new iPhone.
    public static let newPhone = DeviceState()

    /// The keys `given.device` takes.
    public static let keys = [
        "locked", "focus", "focusFilter", "summary", "previews", "silent", "grouping", "lockScreen", "provisional",
        "foregroundOptions", "capabilities",
    ]

    /// Reads `given.device` over `base`: the keys not given keep `base`'s values.
    public static func parse(_ value: JSONValue, over base: DeviceState = .newPhone) throws(DeliveryOverridesError)
        -> DeviceState
    {
        try Patch.parse(value).applied(to: base)
    }

    /// What `given.device` changes, read once when the expectation is read and applied to the run's phone for each
    /// delivery: the keys it gives, each nil when not given.
    public struct Patch: Sendable, Equatable {
        public var locked: Bool?
        public var focus: Focus?
        public var focusFilter: [String]?
        public var summary: Bool?
        public var previews: Previews?
        public var silent: Bool?
        public var grouping: Grouping?
        public var lockScreen: LockScreenDisplay?
        public var provisional: Bool?
        public var foregroundOptions: Set<ForegroundOption>?
        public var capabilities: Set<Capability>?

        public init(locked: Bool? = nil, focus: Focus? = nil) {
            self.locked = locked
            self.focus = focus
        }

        /// `base` with the keys given changed.
        public func applied(to base: DeviceState) -> DeviceState {
            var state = base
            if let locked { state.locked = locked }
            if let focus { state.focus = focus }
            if let focusFilter { state.focusFilter = focusFilter }
            if let summary { state.summary = summary }
            if let previews { state.previews = previews }
            if let silent { state.silent = silent }
            if let grouping { state.grouping = grouping }
            if let lockScreen { state.lockScreen = lockScreen }
            if let provisional { state.provisional = provisional }
            if let foregroundOptions { state.foregroundOptions = foregroundOptions }
            if let capabilities { state.capabilities = capabilities }
            return state
        }
    }
}

extension DeviceState.Patch {
    /// Reads `given.device`; the error names the key and the problem.
    public static func parse(_ value: JSONValue) throws(DeliveryOverridesError) -> DeviceState.Patch {
        typealias Focus = DeviceState.Focus
        typealias Previews = DeviceState.Previews
        typealias Grouping = DeviceState.Grouping
        typealias LockScreenDisplay = DeviceState.LockScreenDisplay
        typealias ForegroundOption = DeviceState.ForegroundOption
        typealias Capability = DeviceState.Capability
        let keys = DeviceState.keys
        guard case .object(let object) = value else {
            throw DeliveryOverridesError("given.device must be an object like {\"locked\": true, \"focus\": \"on\"}")
        }
        for key in object.keys where !keys.contains(key) {
            throw DeliveryOverridesError(
                "unknown key \"given.device.\(key)\"; \"given.device\" supports \(keys.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
        var state = DeviceState.Patch()
        func flag(_ key: String) throws(DeliveryOverridesError) -> Bool? {
            guard let value = object[key] else { return nil }
            guard case .bool(let flag) = value else {
                throw DeliveryOverridesError(
                    "given.device.\(key) must be true or false, not \(JSONWriter.string(value))")
            }
            return flag
        }
        func choice<Choice: RawRepresentable & CaseIterable>(_ key: String) throws(DeliveryOverridesError) -> Choice?
        where Choice.RawValue == String {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue, let choice = Choice(rawValue: text) else {
                throw DeliveryOverridesError(
                    "given.device.\(key) must be one of \(Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \(JSONWriter.string(value))"
                )
            }
            return choice
        }
        func list<Choice: RawRepresentable & CaseIterable & Hashable>(_ key: String) throws(DeliveryOverridesError)
            -> Set<Choice>? where Choice.RawValue == String
        {
            guard let value = object[key] else { return nil }
            let known = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            guard case .array(let entries) = value else {
                throw DeliveryOverridesError("given.device.\(key) must be an array of \(known)")
            }
            var set: Set<Choice> = []
            for entry in entries {
                guard let text = entry.stringValue, let choice = Choice(rawValue: text) else {
                    throw DeliveryOverridesError(
                        "given.device.\(key) holds \(JSONWriter.string(entry)), not one of \(known)")
                }
                set.insert(choice)
            }
            return set
        }
        if let locked = try flag("locked") { state.locked = locked }
        if let focus: Focus = try choice("focus") { state.focus = focus }
        if let filter = object["focusFilter"] {
            guard case .array(let entries) = filter, entries.allSatisfy({ $0.stringValue != nil }) else {
                throw DeliveryOverridesError("given.device.focusFilter must be an array of filter-criteria strings")
            }
            state.focusFilter = entries.compactMap(\.stringValue)
        }
        if let summary = object["summary"] {
            guard let text = summary.stringValue, text == "on" || text == "off" else {
                throw DeliveryOverridesError(
                    "given.device.summary must be \"on\" or \"off\", not \(JSONWriter.string(summary))")
            }
            state.summary = text == "on"
        }
        if let previews: Previews = try choice("previews") { state.previews = previews }
        if let silent = try flag("silent") { state.silent = silent }
        if let grouping: Grouping = try choice("grouping") { state.grouping = grouping }
        if let display: LockScreenDisplay = try choice("lockScreen") { state.lockScreen = display }
        if let provisional = try flag("provisional") { state.provisional = provisional }
        if let options: Set<ForegroundOption> = try list("foregroundOptions") { state.foregroundOptions = options }
        if let capabilities: Set<Capability> = try list("capabilities") { state.capabilities = capabilities }
        return state
    }
}

extension DeviceState {
    /// The state as `given.device` writes it, every key.
    public var jsonValue: JSONValue {
        [
            "locked": .bool(locked), "focus": .string(focus.rawValue),
            "focusFilter": focusFilter.map { .array($0.map { .string($0) }) } ?? .null,
            "summary": .string(summary ? "on" : "off"), "previews": .string(previews.rawValue),
            "silent": .bool(silent), "grouping": .string(grouping.rawValue),
            "lockScreen": .string(lockScreen.rawValue), "provisional": .bool(provisional),
            "foregroundOptions": .array(
                ForegroundOption.allCases.filter(foregroundOptions.contains).map { .string($0.rawValue) }),
            "capabilities": .array(Capability.allCases.filter(capabilities.contains).map { .string($0.rawValue) }),
        ]
    }
}
