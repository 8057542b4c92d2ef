import Foundation
import RichPushCore
import RichPushTestSupport
import Testing

/// Apple's HIG matrix ("Managing notifications",
/// https://developer.apple.com/design/human-interface-guidelines/managing-notifications) through `richpush replay`:
/// each of the four levels on a locked phone, under a Focus that does not allow the app, under Scheduled Summary, and
/// on silent. The app has the time-sensitive and critical capabilities, and the critical payload's sound is the
/// critical form, so no level is lowered.
@Suite struct InterruptionLevelMatrixTests {
    struct Case: Sendable, CustomStringConvertible {
        var level: String
        var state: String
        /// What the person gets, as `presentation.delivery`.
        var delivery: String
        /// The barrier it breaks through, if the state puts one up.
        var breaks: Bool
        var sound: Bool
        /// The HIG row this case checks.
        var row: String
        var description: String { "\(level) \(state): \(row)" }
    }

    static let device: [String: String] = [
        "plain": #"{"locked": true}"#,
        "focus": #"{"locked": true, "focus": "on"}"#,
        "summary": #"{"locked": true, "summary": "on"}"#,
        "silent": #"{"locked": true, "silent": true}"#,
    ]

    static let cases: [Case] = [
        // Passive: "no" in every column (a Focus holds it, the summary keeps it), and it neither lights the screen
        // nor plays a sound.
        Case(level: "passive", state: "plain", delivery: "quiet", breaks: false, sound: false, row: "passive"),
        Case(level: "passive", state: "focus", delivery: "heldByFocus", breaks: false, sound: false, row: "passive"),
        Case(
            level: "passive", state: "summary", delivery: "scheduledSummary", breaks: false, sound: false,
            row: "passive: does not override scheduled delivery"),
        Case(level: "passive", state: "silent", delivery: "quiet", breaks: false, sound: false, row: "passive"),
        // Active: overrides nothing.
        Case(level: "active", state: "plain", delivery: "immediate", breaks: false, sound: true, row: "active"),
        Case(level: "active", state: "focus", delivery: "heldByFocus", breaks: false, sound: false, row: "active"),
        Case(
            level: "active", state: "summary", delivery: "scheduledSummary", breaks: false, sound: false,
            row: "active"),
        Case(level: "active", state: "silent", delivery: "immediate", breaks: false, sound: false, row: "active"),
        // Time Sensitive: overrides scheduled delivery and Focus, not ring/silent.
        Case(
            level: "time-sensitive", state: "plain", delivery: "immediate", breaks: false, sound: true,
            row: "time sensitive"),
        Case(
            level: "time-sensitive", state: "focus", delivery: "immediate", breaks: true, sound: true,
            row: "time sensitive: breaks through Focus"),
        Case(
            level: "time-sensitive", state: "summary", delivery: "immediate", breaks: true, sound: true,
            row: "time sensitive: overrides scheduled delivery"),
        Case(
            level: "time-sensitive", state: "silent", delivery: "immediate", breaks: false, sound: false,
            row: "time sensitive: does not override ring/silent"),
        // Critical: overrides all three.
        Case(level: "critical", state: "plain", delivery: "immediate", breaks: false, sound: true, row: "critical"),
        Case(
            level: "critical", state: "focus", delivery: "immediate", breaks: true, sound: true,
            row: "critical: breaks through Focus"),
        Case(
            level: "critical", state: "summary", delivery: "immediate", breaks: true, sound: true,
            row: "critical: overrides scheduled delivery"),
        Case(
            level: "critical", state: "silent", delivery: "immediate", breaks: true, sound: true,
            row: "critical: overrides ring/silent"),
    ]

    @Test func theMatrixHoldsInReplay() async throws {
        #expect(Self.cases.count == 16)
        let folder = try TemporaryFolder()
        for item in Self.cases {
            let sound = item.level == "critical" ? #"{"critical": 1, "name": "alarm.caf", "volume": 1}"# : #""default""#
            let name = "\(item.level)-\(item.state)"
            try folder.write(
                "\(name).json",
                #"{"aps": {"alert": {"title": "T", "body": "B"}, "interruption-level": "\#(item.level)", "sound": \#(sound)}}"#
            )
            let barrier = item.state == "plain" ? nil : item.state
            // A broken-through barrier names the HIG rule; an unbroken one is null.
            let breaksJSON: String
            if let barrier, item.breaks {
                breaksJSON =
                    #", "breaksThrough": {"\#(barrier)": "\#(Self.rule(level: item.level, barrier: barrier))"}"#
            } else if let barrier {
                breaksJSON = #", "breaksThrough": {"\#(barrier)": null}"#
            } else {
                breaksJSON = ""
            }
            try folder.write(
                "\(name).expect.json",
                #"""
                {"given": {"device": \#(Self.device[item.state]!.dropLast()), "capabilities": ["time-sensitive", "critical"]}},
                 "expect": {"presentation": {"delivery": "\#(item.delivery)", "sound": {"played": \#(item.sound)}\#(breaksJSON)}}}
                """#)
        }
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("16 passed, 0 failed"), "\(run.stdout)")
        for item in Self.cases {
            let line = run.stdoutLines.first { $0.contains("/\(item.level)-\(item.state).json") }
            #expect(line?.hasPrefix("PASS") == true, "\(item): \(line ?? "no line")")
        }
    }

    static func rule(level: String, barrier: String) -> String {
        let source = "(HIG, Managing notifications)"
        switch barrier {
        case "focus": return "\(level) breaks through Focus \(source)"
        case "summary": return "\(level) is delivered immediately, not in the summary \(source)"
        default: return "critical overrides ring/silent \(source)"
        }
    }
}

/// The app icon's badge across a replay: each payload's `aps.badge` sets it, none leaves it, 0 clears it.
@Suite struct RunningBadgeTests {
    @Test func theBadgeRunsAcrossTheReplay() async throws {
        let folder = try TemporaryFolder()
        try folder.write("1.json", #"{"aps": {"alert": "one", "badge": 5}}"#)
        try folder.write("2.json", #"{"aps": {"alert": "two"}}"#)
        try folder.write("3.json", #"{"aps": {"alert": "three", "badge": 0}}"#)
        try folder.write("4.json", #"{"aps": {"alert": "four"}}"#)
        let run = try await runRichpush(["replay", folder.path, "--jobs", "1", "--format", "json"])
        guard case .array(let results)? = try? JSONParser.parse(Array(run.stdout.utf8)) else {
            Issue.record("not JSON: \(run.stdout)\(run.stderr)")
            return
        }
        #expect(results.map { $0["presentation"]?["appBadge"] } == [5, 5, 0, 0].map { .number($0) })
    }
}
