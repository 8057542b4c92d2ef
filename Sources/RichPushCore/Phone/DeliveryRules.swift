/// How a shown notification reaches the person: at once, quietly, in the Scheduled Summary, held by a Focus, or as
/// the app's foreground options say (the result's `presentation.delivery`).
public struct PresentedDelivery: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case immediate, quiet, scheduledSummary, heldByFocus, foregroundOptions
    }

    /// What a notification can break through.
    public enum Barrier: String, Sendable, CaseIterable {
        case focus, summary, silent
    }

    public var kind: Kind
    public var reason: String
    /// The interruption level it was delivered at (a level the app is not entitled to is lowered to `active`).
    public var level: HostContent.InterruptionLevel
    public var screenLit: Bool
    public var screenReason: String
    public var sound: Bool
    public var soundReason: String
    /// What it broke through, each with the rule that allowed it.
    public var breaksThrough: [Barrier: String]
    /// The views the phone draws now (`lockScreen` also stands for the Notification Center row).
    public var shownIn: [NotificationView]
    /// Sentences about a level or a sound the app may not use.
    public var notes: [String]

    public init(
        kind: Kind, reason: String, level: HostContent.InterruptionLevel, screenLit: Bool, screenReason: String,
        sound: Bool, soundReason: String, breaksThrough: [Barrier: String] = [:], shownIn: [NotificationView],
        notes: [String] = []
    ) {
        self.kind = kind
        self.reason = reason
        self.level = level
        self.screenLit = screenLit
        self.screenReason = screenReason
        self.sound = sound
        self.soundReason = soundReason
        self.breaksThrough = breaksThrough
        self.shownIn = shownIn
        self.notes = notes
    }

    /// The contract's fields, which ``NotificationPresentation`` writes beside its `views`.
    public var jsonValue: JSONValue {
        var barriers = JSONObject()
        for barrier in Barrier.allCases {
            barriers[barrier.rawValue] = breaksThrough[barrier].map { .string($0) } ?? .null
        }
        return [
            "delivery": .string(kind.rawValue), "deliveryReason": .string(reason),
            "interruptionLevel": .string(level.rawValue),
            "screen": ["lit": .bool(screenLit), "reason": .string(screenReason)],
            "sound": ["played": .bool(sound), "reason": .string(soundReason)],
            "breaksThrough": .object(barriers), "shownIn": .array(shownIn.map { .string($0.rawValue) }),
        ]
    }
}

/// The rules that decide how a notification reaches the person, each written once with its source.
///
/// Apple's Human Interface Guidelines, "Managing notifications"
/// (https://developer.apple.com/design/human-interface-guidelines/managing-notifications), give the matrix:
///
/// | level | overrides scheduled delivery | breaks through Focus | overrides ring/silent |
/// | --- | --- | --- | --- |
/// | passive | no | no | no |
/// | active | no | no | no |
/// | time-sensitive | yes | yes | no |
/// | critical | yes | yes | yes |
///
/// and: a passive notification is added to the list without lighting the screen or playing a sound.
public enum DeliveryRules {
    /// The HIG matrix's rows, by level: what each overrides.
    public static func overrides(_ level: HostContent.InterruptionLevel) -> Set<PresentedDelivery.Barrier> {
        switch level {
        case .passive, .active: []
        case .timeSensitive: [.summary, .focus]
        case .critical: [.summary, .focus, .silent]
        }
    }

    static let matrixSource = "HIG, Managing notifications"

    /// How `content` (the content as shown: the extension's, else the payload's) reaches the person on `device`
    /// with the app in `appState`; `isCommunication`: the extension made a communication notification of it.
    public static func decide(
        content: HostContent, appState: AppState, device: DeviceState, isCommunication: Bool
    ) -> PresentedDelivery {
        var notes: [String] = []
        var level = content.interruptionLevel.flatMap(HostContent.InterruptionLevel.init(rawValue:)) ?? .active
        // https://developer.apple.com/documentation/usernotifications/unnotificationinterruptionlevel/timesensitive
        if level == .timeSensitive, !device.capabilities.contains(.timeSensitive) {
            level = .active
            notes.append(
                "aps.interruption-level time-sensitive needs the app's Time Sensitive Notifications capability (--capabilities time-sensitive): delivered as active"
            )
        }
        // https://developer.apple.com/documentation/usernotifications/unnotificationinterruptionlevel/critical
        if level == .critical, !device.capabilities.contains(.critical) {
            level = .active
            notes.append(
                "aps.interruption-level critical needs Apple's critical alerts entitlement (--capabilities critical): delivered as active"
            )
        }
        let communication = isCommunication && device.capabilities.contains(.communication)
        if isCommunication && !communication {
            notes.append(
                "A communication notification needs the app's Communication Notifications capability (--capabilities communication): delivered as an ordinary one"
            )
        }
        let overrides = overrides(level)
        let criticalSound = content.sound?.critical == true
        if content.sound?.critical == true, level != .critical {
            notes.append(
                "The sound is a critical alert's ({\"critical\": 1}), but the notification is not delivered at the critical level: it plays as an ordinary sound"
            )
        }

        func delivery(
            _ kind: PresentedDelivery.Kind, _ reason: String, screen: (Bool, String), sound: (Bool, String),
            shownIn: [NotificationView], breaksThrough: [PresentedDelivery.Barrier: String] = [:]
        ) -> PresentedDelivery {
            PresentedDelivery(
                kind: kind, reason: reason, level: level, screenLit: screen.0, screenReason: screen.1,
                sound: sound.0, soundReason: sound.1, breaksThrough: breaksThrough, shownIn: shownIn, notes: notes)
        }
        let noSound = (false, "no sound: it is not delivered audibly")

        // https://developer.apple.com/documentation/usernotifications/unnotificationpresentationoptions
        if appState == .foreground {
            let options = device.foregroundOptions
            var shown: [NotificationView] = []
            if options.contains(.banner) { shown.append(.banner) }
            if options.contains(.list) { shown.append(.lockScreen) }
            let named = DeviceState.ForegroundOption.allCases.filter(options.contains).map(\.rawValue)
            let sound: (Bool, String) =
                !options.contains(.sound)
                ? (false, "willPresent does not return .sound")
                : content.sound == nil
                    ? (false, "the payload asks for no sound")
                    : device.silent && !(level == .critical && criticalSound)
                        ? (false, "the ring/silent switch is on silent") : (true, "willPresent returns .sound")
            return delivery(
                .foregroundOptions,
                named.isEmpty
                    ? "the app is in the foreground and its willPresent returns no options: iOS shows nothing"
                    : "the app is in the foreground: its willPresent returns \(named.joined(separator: ", "))",
                screen: (false, "the app is on screen"), sound: sound, shownIn: shown)
        }
        // https://developer.apple.com/documentation/usernotifications/unauthorizationoptions/provisional
        if device.provisional {
            return delivery(
                .quiet,
                "provisional authorisation delivers quietly: Notification Center only, no banner, no sound, no lock screen alert",
                screen: (false, "delivered quietly"), sound: noSound, shownIn: [.lockScreen])
        }
        var broke: [PresentedDelivery.Barrier: String] = [:]
        if device.focus != .off {
            // FocusFilterAppContext's predicate on filterCriteria
            // (https://developer.apple.com/documentation/usernotifications/unnotificationcontent/filtercriteria).
            let filteredOut =
                device.focusFilter.map { allowed in
                    !allowed.contains(content.filterCriteria ?? "")
                } ?? false
            let allowed = device.focus == .onAllowingApp && !filteredOut
            if !allowed {
                if overrides.contains(.focus) {
                    broke[.focus] = "\(level.rawValue) breaks through Focus (\(matrixSource))"
                } else {
                    let why =
                        device.focus == .on
                        ? "the Focus does not allow the app"
                        : "the app's Focus filter does not let filter-criteria \(content.filterCriteria.map { "\"\($0)\"" } ?? "(none)") through"
                    var held = delivery(
                        .heldByFocus,
                        "held by Focus: \(why); \(level.rawValue) does not break through (\(matrixSource))",
                        screen: (false, "silenced by the Focus"), sound: (false, "silenced by the Focus"),
                        shownIn: [.lockScreen])
                    if communication {
                        held.notes.append(
                            "A Focus that allows this sender would let it through; the people a Focus allows are not emulated"
                        )
                    }
                    return held
                }
            }
        }
        if device.summary {
            if overrides.contains(.summary) {
                broke[.summary] = "\(level.rawValue) is delivered immediately, not in the summary (\(matrixSource))"
            } else if communication {
                broke[.summary] =
                    "communication notifications are delivered immediately, not in the summary (https://developer.apple.com/documentation/usernotifications/implementing-communication-notifications)"
            } else {
                return delivery(
                    .scheduledSummary,
                    "Scheduled Summary is on with the app in it: held for the next summary (\(level.rawValue) does not override scheduled delivery, \(matrixSource))",
                    screen: (false, "waits for the summary"), sound: (false, "waits for the summary"), shownIn: [])
            }
        }
        // Passive's row is "no" in every column: a Focus holds it and the summary keeps it like any other (above);
        // otherwise it is added quietly.
        if level == .passive {
            return delivery(
                .quiet,
                "passive: added to Notification Center without lighting the screen or playing a sound (\(matrixSource))",
                screen: (false, "passive never lights the screen"), sound: (false, "passive plays no sound"),
                shownIn: [.lockScreen])
        }
        let sound: (Bool, String)
        if let requested = content.sound {
            if device.silent {
                if level == .critical && criticalSound {
                    broke[.silent] = "critical overrides ring/silent (\(matrixSource))"
                    sound = (true, "critical sound \(requested.displayName) at volume \(requested.volume ?? 1)")
                } else {
                    sound = (false, "the ring/silent switch is on silent (only a critical sound plays through it)")
                }
            } else {
                sound = (true, "plays \(requested.displayName)")
            }
        } else {
            sound = (false, "the payload asks for no sound")
        }
        return delivery(
            .immediate,
            device.locked ? "shown on the lock screen at once" : "shown as a banner at once (the phone is unlocked)",
            screen: device.locked
                ? (true, "\(level.rawValue) lights the locked screen") : (true, "the phone is in use"),
            sound: sound, shownIn: device.locked ? [.lockScreen] : [.banner, .lockScreen], breaksThrough: broke)
    }
}
