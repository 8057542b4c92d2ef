public import RichPushCore
public import RichPushLibrary

/// The replay of one payload file: its result and how it compares with its expectation.
public struct ReplayItem: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// No expectation file: the payload was replayed, nothing was checked.
        case unchecked
        case passed
        /// Each problem in a sentence: a mismatch, a bad expectation file, an unreadable payload.
        case failed([String])
    }

    public var file: PayloadFile
    /// Nil when the payload file could not be read.
    public var result: DeliveryResult?
    public var verdict: Verdict
    /// A problem with the file itself (unreadable), reported whether or not it has an expectation.
    public var error: String?

    public init(file: PayloadFile, result: DeliveryResult?, verdict: Verdict, error: String? = nil) {
        self.file = file
        self.result = result
        self.verdict = verdict
        self.error = error
    }
}

/// Everything one replay produced, in path order.
public struct ReplayReport: Sendable {
    public var items: [ReplayItem]
    /// Wall-clock seconds the replay took.
    public var elapsed: Double

    public init(items: [ReplayItem], elapsed: Double) {
        self.items = items
        self.elapsed = elapsed
    }

    public var passed: Int { items.filter { $0.verdict == .passed }.count }
    public var failed: Int {
        items.filter {
            if case .failed = $0.verdict { return true }
            return false
        }.count
    }
    public var unchecked: Int { items.filter { $0.verdict == .unchecked }.count }

    /// The closing line of every format.
    public var summaryLine: String { summary.summaryLine }

    /// The counts, as a streamed replay keeps them.
    public var summary: ReplaySummary {
        ReplaySummary(total: items.count, passed: passed, failed: failed, unchecked: unchecked, elapsed: elapsed)
    }
}
