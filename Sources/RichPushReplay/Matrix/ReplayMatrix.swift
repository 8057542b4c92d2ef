public import RichPushCore
public import RichPushLibrary

/// A replay once per column: `replay --sdk all` (a column per SDK profile, each cell checked against the expectation
/// file's `sdk.<profile>` partial result when it has one) and `replay --extension-process all` (a column per way the
/// team's extension's processes are run, each cell checked against the payload's own expectation).
public struct ReplayMatrix: Sendable {
    /// What the columns vary.
    public enum Axis: Sendable {
        case sdk, extensionProcess, device

        /// The matrix's name in its title.
        var title: String {
            switch self {
            case .sdk: "SDK matrix"
            case .extensionProcess: "Extension process matrix"
            case .device: "Device matrix"
            }
        }
        /// A column, in words.
        var noun: String {
            switch self {
            case .sdk: "profile"
            case .extensionProcess: "mode"
            case .device: "phone state"
            }
        }
        /// What a failed cell did not match.
        var checkedAgainst: String {
            self == .sdk ? "the expectation file's sdk.<profile>" : "its expectation"
        }
    }

    /// One column: an SDK profile (or the team's extension beside them), or an extension process mode.
    public struct Column: Sendable, Equatable {
        public enum Setting: Sendable, Equatable {
            /// Delivered through `profile`; `custom`: through the team's extension instead (its column of the SDK
            /// matrix).
            case sdk(SDKProfile, custom: Bool)
            case extensionProcess(ExtensionProcessMode)
            /// Delivered on a phone in this state (`replay --device-matrix`).
            case device(name: String, DeviceState)
        }

        public var setting: Setting

        public var name: String {
            switch setting {
            case .sdk(let profile, _): profile.name
            case .extensionProcess(let mode): mode.rawValue
            case .device(let name, _): name
            }
        }
    }

    /// One payload's row.
    public struct Row: Sendable {
        public var file: PayloadFile
        /// One cell per column, in ``ReplayMatrix/columns`` order.
        public var cells: [Cell]
    }

    /// One payload delivered as one column says.
    public struct Cell: Sendable {
        public var column: Column
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

    public var axis: Axis
    public var columns: [Column]
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

/// Runs the matrix through a ``ReplayRunner``: the payloads times the columns go through its extensions in flight
/// like any replay, each with its `given` set as its column says.
public struct ReplayMatrixRunner: Sendable {
    public var runner: ReplayRunner
    public var axis: ReplayMatrix.Axis
    public var columns: [ReplayMatrix.Column]

    /// The SDK matrix: a column per profile, then the team's own extension's (`--extension`) when it runs.
    public init(runner: ReplayRunner, profiles: [SDKProfile] = SDKProfile.all, customColumn: SDKProfile? = nil) {
        self.runner = runner
        self.axis = .sdk
        self.columns =
            profiles.map { .init(setting: .sdk($0, custom: false)) }
            + (customColumn.map { [.init(setting: .sdk($0, custom: true))] } ?? [])
    }

    /// The device matrix: a column per phone state of ``DeviceMatrix``, each over `base` (the run's own).
    public init(runner: ReplayRunner, devicesOver base: DeviceState) {
        self.runner = runner
        self.axis = .device
        self.columns = DeviceMatrix.columns(over: base).map { .init(setting: .device(name: $0.name, $0.state)) }
    }

    /// The extension process matrix: a column per mode.
    public init(runner: ReplayRunner, modes: [ExtensionProcessMode]) {
        self.runner = runner
        self.axis = .extensionProcess
        self.columns = modes.map { .init(setting: .extensionProcess($0)) }
    }

    /// The column of a team's extension: named `extension` (the key of its partial result in an expectation's
    /// `sdk` object), delivered through the system's custom extension rather than an emulated one.
    public static func customColumn(source: String) -> SDKProfile {
        SDKProfile.requirement.relabelled(name: "extension", title: "Your extension (\(source))", source: source)
    }

    public func run(_ payloads: [LoadedPayload]) async -> ReplayMatrix {
        var cells: [LoadedPayload] = []
        var checked: [Bool] = []
        for payload in payloads {
            for column in columns {
                let (cell, isChecked) = Self.cell(payload, column: column)
                cells.append(cell)
                checked.append(isChecked)
            }
        }
        var items: [ReplayItem?] = Array(repeating: nil, count: cells.count)
        var elapsed = 0.0
        // SDK columns run together; process modes one after another, so each mode's processes have the machine to
        // themselves, as the mode's own replay would (its timing is part of what it shows).
        let passes: [[Int]] =
            axis != .extensionProcess
            ? [Array(cells.indices)]
            : columns.indices.map { column in Array(stride(from: column, to: cells.count, by: columns.count)) }
        for pass in passes {
            var done: [ReplayItem] = []
            let summary = await runner.run(pass.map { cells[$0] }, order: .path, prepare: { $0 }) { done.append($0) }
            for (index, item) in zip(pass, done) { items[index] = item }
            elapsed += summary.elapsed
        }
        var rows: [ReplayMatrix.Row] = []
        for (row, payload) in payloads.enumerated() {
            let row = ReplayMatrix.Row(
                file: payload.file,
                cells: columns.indices.map { column in
                    let index = row * columns.count + column
                    let item = items[index]!
                    // A cell with nothing to check reports what happened without a verdict.
                    let verdict: ReplayItem.Verdict =
                        if !checked[index], item.verdict == .passed { .unchecked } else { item.verdict }
                    return ReplayMatrix.Cell(
                        column: columns[column], result: item.result, verdict: verdict, error: item.error)
                })
            rows.append(row)
        }
        return ReplayMatrix(axis: axis, columns: columns, rows: rows, elapsed: elapsed)
    }

    /// The payload as `column` delivers it.
    static func cell(_ payload: LoadedPayload, column: ReplayMatrix.Column) -> (LoadedPayload, checked: Bool) {
        switch column.setting {
        case .sdk(let profile, let custom):
            return cell(payload, profile: profile, custom: custom)
        case .extensionProcess(let mode):
            var cell = payload
            var expectation = payload.expectation ?? Expectation(expect: [:])
            expectation.given.extensionProcess = mode
            cell.expectation = expectation
            return (cell, payload.expectation != nil || payload.expectationError != nil)
        case .device(_, let state):
            // What each state shows is reported, not checked: an expectation describes one phone.
            var cell = payload
            var expectation = payload.expectation ?? Expectation(expect: [:])
            expectation.given.device = state
            expectation.given.devicePatch = nil
            expectation.given.respond = nil
            expectation.expect = [:]
            cell.expectation = expectation
            return (cell, payload.expectationError != nil)
        }
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
