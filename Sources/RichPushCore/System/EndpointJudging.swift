public import Foundation

/// A push endpoint's validation, offline: what replay asks about a recorded refusal (`given.request`), so the
/// refusal is judged by the same rules serve answered it with. Serve's module provides it; nil means accepted.
public protocol EndpointJudging: Sendable {
    func rejection(of request: RecordedRequest, body: [UInt8], now: Date) -> EndpointRejection?
}
