public import RichPushCore
public import RichPushLibrary

/// `replay --sdk all`: every payload once per SDK profile, each cell checked against the expectation file's
/// `sdk.<profile>` partial result when it has one.
public struct SDKMatrix: Sendable {
    /// One payload's row.
    public struct Row: Sendable {
        public var file: PayloadFile
        /// One cell per profile, in ``SDKMatrix/profiles`` order.
        public var cells: [Cell]
    }

    /// One payload delivered through one profile.
    public struct Cell: Sendable {
        public var profile: SDKProfile
        /// Nil when the payload could not be read.
        public var result: DeliveryResult?
        public var verdict: ReplayItem.Verdict
        public var error: String?

        /// `rich`, `plain`, `silent` or `rejected`.
        public var outcome: String {
            guard let result else { return "error" }
            return result.delivered ? result.style.rawValue : "rejected"
        }

        /// The reason code when the notification is not rich: the fallback's or the rejection's.
        public var reason: String? {
            result?.fallback?.reason.rawValue ?? result?.rejection?.reason.rawValue
        }

        public var failed: Bool {
            if case .failed = verdict { return true }
            return false
        }
    }

    public var profiles: [SDKProfile]
    public var rows: [Row]
    /// Wall-clock seconds the whole matrix took.
    public var elapsed: Double

    /// Counts over every cell.
    public var summary: ReplaySummary {
        var summary = ReplaySummary(elapsed: elapsed)
        for cell in rows.flatMap(\.cells) {
            summary.total += 1
            switch cell.verdict {
            case .unchecked: summary.unchecked += 1
            case .passed: summary.passed += 1
            case .failed: summary.failed += 1
            }
        }
        return summary
    }
}

/// Runs the matrix through a ``ReplayRunner``: the payloads times the profiles go through its extensions in
/// flight like any replay, each with `given.sdk` set to its profile.
public struct SDKMatrixRunner: Sendable {
    public var runner: ReplayRunner
    public var profiles: [SDKProfile]
    /// The column of the team's own extension (`--extension`), after the SDKs'; nil without one.
    public var customColumn: SDKProfile?

    public init(runner: ReplayRunner, profiles: [SDKProfile] = SDKProfile.all, customColumn: SDKProfile? = nil) {
        self.runner = runner
        self.profiles = profiles + (customColumn.map { [$0] } ?? [])
        self.customColumn = customColumn
    }

    /// The column of a team's extension: named `extension` (the key of its partial result in an expectation's
    /// `sdk` object), delivered through the system's custom extension rather than an emulated one.
    public static func customColumn(source: String) -> SDKProfile {
        SDKProfile.requirement.relabelled(name: "extension", title: "Your extension (\(source))", source: source)
    }

    public func run(_ payloads: [LoadedPayload]) async -> SDKMatrix {
        var cells: [LoadedPayload] = []
        var checked: [Bool] = []
        for payload in payloads {
            for profile in profiles {
                let (cell, isChecked) = Self.cell(payload, profile: profile, custom: profile == customColumn)
                cells.append(cell)
                checked.append(isChecked)
            }
        }
        var items: [ReplayItem] = []
        items.reserveCapacity(cells.count)
        let summary = await runner.run(cells, order: .path, prepare: { $0 }) { items.append($0) }
        var rows: [SDKMatrix.Row] = []
        for (row, payload) in payloads.enumerated() {
            let row = SDKMatrix.Row(
                file: payload.file,
                cells: profiles.indices.map { column in
                    let index = row * profiles.count + column
                    let item = items[index]
                    // A cell with nothing to check reports what happened without a verdict.
                    let verdict: ReplayItem.Verdict =
                        if !checked[index], item.verdict == .passed { .unchecked } else { item.verdict }
                    return SDKMatrix.Cell(
                        profile: profiles[column], result: item.result, verdict: verdict, error: item.error)
                })
            rows.append(row)
        }
        return SDKMatrix(profiles: profiles, rows: rows, elapsed: summary.elapsed)
    }

    /// The payload as delivered through `profile`: its settings with `sdk` set, its expectation the `sdk.<name>`
    /// partial result, or `expect` when the file's own `given.sdk` (default: the requirement) is this profile.
    /// The team's extension's column (`custom`) is checked against `sdk.extension`, or `expect` when the payload
    /// was written for a team's extension, and delivered with the settings' own SDK (which it ignores).
    static func cell(_ payload: LoadedPayload, profile: SDKProfile, custom: Bool = false) -> (
        LoadedPayload, checked: Bool
    ) {
        var cell = payload
        var expectation = payload.expectation ?? Expectation(expect: [:])
        let own = expectation.given.sdk ?? .requirement
        // `expect` belongs to the team's extension when the payload was written for one (`given.extension`).
        let writtenForExtension = expectation.given.extensionFolder != nil
        let partial =
            custom
            ? expectation.bySDK[profile.name] ?? (writtenForExtension ? payload.expectation?.expect : nil)
            : expectation.bySDK[profile.name]
                ?? (own == profile && !writtenForExtension ? payload.expectation?.expect : nil)
        expectation.given.sdk = custom ? expectation.given.sdk : profile
        expectation.given.runsCustomExtension = custom
        expectation.expect = partial ?? [:]
        cell.expectation = expectation
        return (cell, partial != nil || payload.expectationError != nil)
    }
}
