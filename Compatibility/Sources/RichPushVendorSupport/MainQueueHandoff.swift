import Dispatch

/// A value and the caller's handler for it, carried to the main queue: iOS's content handler (or a vendor API's
/// completion), which is not `Sendable`, called there with the finished content, as vendor SDKs do with
/// `DispatchQueue.main.async` or `dispatchGroup.notify(queue: .main)`.
///
/// ```swift
/// loader.populate(content) { finished in MainQueueHandoff(finished, to: contentHandler).call() }
/// ```
public struct MainQueueHandoff<Value>: @unchecked Sendable {
    // @unchecked: the caller hands both over and touches neither again; they are read only inside the block that
    // `call()` puts on the main queue, which is serial, so no two threads ever use them at once.
    private let value: Value
    private let handler: (Value) -> Void

    public init(_ value: Value, to handler: @escaping (Value) -> Void) {
        self.value = value
        self.handler = handler
    }

    /// Calls the handler with the value on the main queue, asynchronously (always a new block, even from the main
    /// queue). Each call is one more call of the handler: the caller calls this once.
    public func call() {
        DispatchQueue.main.async { handler(value) }
    }
}

extension MainQueueHandoff where Value == Void {
    /// A completion without arguments.
    public init(_ completion: @escaping () -> Void) {
        self.init((), to: { _ in completion() })
    }
}
