import Foundation
import RichPushCore

/// Hands accepted pushes to the notification system, each on a task of its own so a slow image never holds up
/// the next push, and records every result. The sender already has its 200: APNs answers when it accepts a
/// push, not when the phone shows it.
final class DeliveryQueue: Sendable {
    typealias Job = @Sendable () async -> Void

    private let system: NotificationSystem
    private let store: ResultStore
    private let onResult: @Sendable (ServedNotification) -> Void
    private let onProgress: (@Sendable (APNsAttributes, DeliveryProgress) -> Void)?
    private let jobs: AsyncStream<Job>
    private let submit: AsyncStream<Job>.Continuation

    init(
        system: NotificationSystem, store: ResultStore, onResult: @escaping @Sendable (ServedNotification) -> Void,
        onProgress: (@Sendable (APNsAttributes, DeliveryProgress) -> Void)? = nil
    ) {
        self.system = system
        self.store = store
        self.onResult = onResult
        self.onProgress = onProgress
        (jobs, submit) = AsyncStream.makeStream(of: Job.self)
    }

    /// Runs the deliveries until ``finish()`` and every delivery begun before it has ended.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await job() }
            }
        }
    }

    /// No more pushes: ``run()`` returns once the deliveries in flight end.
    func finish() { submit.finish() }

    /// Delivers a push accepted with `attributes`; its app state is the one of the moment it arrived. Its result
    /// is reported once the delivery has ended and the answer is `written`.
    func deliver(_ input: DeliveryInput, attributes: APNsAttributes, written: ResponseWritten) {
        store.beginDelivery()
        let job: Job = { [system, store, onResult, onProgress] in
            let observer = onProgress.map { report in
                { @Sendable (progress: DeliveryProgress) in report(attributes, progress) }
            }
            let result = await system.deliver(input, observer: observer)
            let entry = store.record(ServedNotification(status: 200, result: result), endingDelivery: true)
            await written.wait()
            onResult(entry)
        }
        if case .terminated = submit.yield(job) {
            // The server is stopping and its deliveries are over: this push will not be shown.
            store.abandonDelivery()
        }
    }

    /// A result recorded without a delivery (a refused request), reported once its answer is `written`.
    func report(_ entry: ServedNotification, once written: ResponseWritten) {
        let job: Job = { [onResult] in
            await written.wait()
            onResult(entry)
        }
        if case .terminated = submit.yield(job) { onResult(entry) }
    }
}
