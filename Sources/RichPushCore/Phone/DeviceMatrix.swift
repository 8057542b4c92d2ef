/// The phone states `replay --device-matrix` delivers every payload under: the question product owners ask ("who sees
/// this tonight?") as a fixed, named set. Each changes only what its name says from the run's own state (the
/// command line's flags: the app's capabilities and foreground options stay).
public enum DeviceMatrix {
    public static func columns(over base: DeviceState) -> [(name: String, state: DeviceState)] {
        func with(_ change: (inout DeviceState) -> Void) -> DeviceState {
            var state = base
            change(&state)
            return state
        }
        return [
            ("unlocked", with { $0.locked = false }),
            ("locked", with { $0.locked = true }),
            (
                "focus",
                with {
                    $0.locked = true; $0.focus = .on
                }
            ),
            (
                "summary",
                with {
                    $0.locked = true; $0.summary = true
                }
            ),
            (
                "silent",
                with {
                    $0.locked = true; $0.silent = true
                }
            ),
            (
                "night",
                with {
                    $0.locked = true; $0.focus = .on; $0.summary = true; $0.silent = true
                }
            ),
        ]
    }

    /// How a column's cell says what happened: `banner`, `lock screen`, each with `+ sound`; `quiet`,
    /// `summary`, `held by Focus`, `nothing (foreground)`.
    public static func outcome(of delivery: PresentedDelivery) -> String {
        let sound = delivery.sound ? " + sound" : ""
        switch delivery.kind {
        case .immediate: return (delivery.shownIn.contains(.banner) ? "banner" : "lock screen") + sound
        case .quiet: return "quiet"
        case .scheduledSummary: return "summary"
        case .heldByFocus: return "held by Focus"
        case .foregroundOptions:
            return delivery.shownIn.isEmpty ? "nothing (foreground)" : "foreground options" + sound
        }
    }
}
