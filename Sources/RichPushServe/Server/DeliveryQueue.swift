import Foundation
import RichPushCore

/// Hands accepted pushes to the notification system, each on a task of its own so a slow image never holds up
/// the next push, and records every result. The sender already has its 200: APNs answers when it accepts a
/// push, not when the phone shows it.
///
/// The queue takes pushes from the moment the server accepts connections; they are delivered once ``run(system:)``
/// has the system, which a command makes after the server has started (its receipts to the server itself trust
/// the CA the server generated).
final class DeliveryQueue: Sendable {
    /// One push to deliver (or a refused request to report): what runs it, and what undoes its bookkeeping when
    /// the server stops before any delivery began.
    struct Job: Sendable {
        let run: @Sendable (NotificationSystem) async -> Void
        let abandon: @Sendable () -> Void
    }

    private let store: ResultStore
    private let responses: ResponseStore
    private let summaries: SummaryStore
    private let onResult: @Sendable (ServedNotification) -> Void
    private let onProgress: (@Sendable (APNsAttributes, DeliveryProgress) -> Void)?
    private let jobs: AsyncStream<Job>
    private let submit: AsyncStream<Job>.Continuation

    init(
        store: ResultStore, responses: ResponseStore, summaries: SummaryStore,
        onResult: @escaping @Sendable (ServedNotification) -> Void,
        onProgress: (@Sendable (APNsAttributes, DeliveryProgress) -> Void)? = nil
    ) {
        self.store = store
        self.responses = responses
        self.summaries = summaries
        self.onResult = onResult
        self.onProgress = onProgress
        (jobs, submit) = AsyncStream.makeStream(of: Job.self)
    }

    /// Runs the deliveries through `system` until ``finish()`` and every delivery begun before it has ended.
    func run(system: NotificationSystem) async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await job.run(system) }
            }
        }
    }

    /// Undoes the bookkeeping of the pushes still waiting, when the server stops before ``run(system:)`` began.
    func abandonWaiting() async {
        for await job in jobs { job.abandon() }
    }

    /// No more pushes: ``run(system:)`` returns once the deliveries in flight end.
    func finish() { submit.finish() }

    /// Delivers a push accepted with `attributes`; its app state is the one of the moment it arrived. Its result
    /// is reported once the delivery has ended and the answer is `written`.
    /// With a `recorder`, the push and its result are handed to it once delivered (it only queues them).
    func deliver(
        _ input: DeliveryInput, attributes: APNsAttributes, written: ResponseWritten,
        recorder: (any PushRecording)? = nil
    ) {
        store.beginDelivery()
        let receivedAt = Date()
        let job = Job(
            run: { [store, responses, summaries, onResult, onProgress] system in
                let observer = onProgress.map { report in
                    { @Sendable (progress: DeliveryProgress) in report(attributes, progress) }
                }
                let result = await system.deliver(input, observer: observer)
                if let recorder, case .bytes(let body) = input.payload {
                    recorder.record(
                        RecordedPush(
                            outcome: .delivered(result), transport: input.origin.transport, attributes: attributes,
                            body: body, appState: input.appState, receivedAt: receivedAt))
                }
                responses.remember(result, categories: system.configuration.categories)
                summaries.hold(result)
                let entry = store.record(ServedNotification(status: 200, result: result), endingDelivery: true)
                await written.wait()
                onResult(entry)
            },
            abandon: { [store] in store.abandonDelivery() })
        if case .terminated = submit.yield(job) {
            // The server is stopping and its deliveries are over: this push will not be shown.
            job.abandon()
        }
    }

    /// A result recorded without a delivery (a refused request), reported once its answer is `written`.
    func report(_ entry: ServedNotification, once written: ResponseWritten) {
        let job = Job(
            run: { [onResult] _ in
                await written.wait()
                onResult(entry)
            },
            abandon: { [onResult] in onResult(entry) })
        if case .terminated = submit.yield(job) { job.abandon() }
    }
}
