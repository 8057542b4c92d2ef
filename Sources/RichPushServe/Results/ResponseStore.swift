public import RichPushCore
import Synchronization

/// The person's side of the notifications `serve` delivered: `POST /richpush/v1/responses` answers one (taps a
/// button, types a reply, dismisses it) as the phone would, and `GET` lists what the app was handed, so a backend
/// test can check a category's whole round trip. The newest `capacity` notifications stay answerable, and the
/// newest `capacity` responses are kept; older ones are dropped and counted.
public final class ResponseStore: Sendable {
    /// Why a response could not be given: the HTTP status and the sentence.
    public struct Problem: Error, Sendable, Equatable {
        public var status: Int
        public var reason: String
    }

    /// A delivered notification that can be answered: what it showed, and its request.
    struct Answerable: Sendable {
        var presentation: NotificationPresentation
        var content: NotificationContent
        var categories: AppCategories?
    }

    private struct State {
        var answerable: [String: Answerable] = [:]
        /// Answerable ids, oldest first, to forget the oldest.
        var order: [String] = []
        var responses: [JSONValue] = []
        var total = 0
    }

    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = ReceiptStore.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Keeps a delivered notification answerable under its id (`apns-id`, or the FCM message's); one that shows
    /// nothing cannot be answered.
    public func remember(_ result: DeliveryResult, categories: AppCategories?) {
        guard let presentation = result.presentation, let id = result.apns?.id, !id.isEmpty else { return }
        state.withLock { state in
            if state.answerable[id] == nil {
                state.order.append(id)
                if state.order.count > capacity { state.answerable[state.order.removeFirst()] = nil }
            }
            state.answerable[id] = Answerable(
                presentation: presentation, content: result.content, categories: categories)
        }
    }

    /// Answers the notification `id` as the person does in `request`; the response is kept for ``snapshot()``.
    public func answer(notification id: String, _ request: ResponseRequest) -> Result<NotificationResponse, Problem> {
        state.withLock { state in
            guard let notification = state.answerable[id] else {
                return .failure(
                    Problem(
                        status: 404,
                        reason:
                            "no notification \"\(TextSanitizer.singleLine(id, limit: 80))\" was shown (or it is older than the newest \(capacity))"
                    ))
            }
            let answered = NotificationResponse.answer(
                request, to: notification.presentation, categories: notification.categories,
                requestIdentifier: id, content: notification.content)
            switch answered {
            case .success(let response):
                state.total += 1
                state.responses.append(response.jsonValue)
                if state.responses.count > capacity { state.responses.removeFirst() }
                return .success(response)
            case .failure(let refusal):
                return .failure(Problem(status: 422, reason: refusal.reason))
            }
        }
    }

    /// What `GET /richpush/v1/responses` answers.
    public func snapshot() -> JSONValue {
        state.withLock { state in
            [
                "capacity": .number(Double(capacity)), "total": .number(Double(state.total)),
                "dropped": .number(Double(state.total - state.responses.count)),
                "responses": .array(state.responses),
            ]
        }
    }

    /// Forgets every response (the notifications stay answerable).
    public func removeAll() {
        state.withLock { state in
            state.responses = []
            state.total = 0
        }
    }

    /// Reads a `POST` body: `{"notification": "<apns-id>", "action": "reply", "text": "On my way"}`.
    public static func request(from body: [UInt8]) -> Result<(id: String, request: ResponseRequest), Problem> {
        let usage =
            "the body must be JSON like {\"notification\": \"<apns-id>\", \"action\": \"reply\", \"text\": \"On my way\"}"
        guard case .object(var object)? = try? JSONParser.parse(body), let id = object["notification"]?.stringValue
        else {
            return .failure(Problem(status: 400, reason: usage))
        }
        object["notification"] = nil
        do {
            return .success((id, try ResponseRequest.parse(.object(object), field: "the body")))
        } catch {
            return .failure(Problem(status: 400, reason: error.message))
        }
    }
}
