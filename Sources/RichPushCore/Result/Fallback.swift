/// A fallback reason with the detail a person needs to act on it.
public struct Fallback: Sendable, Equatable {
    public var reason: FallbackReason
    public var detail: String

    public init(_ reason: FallbackReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}
