import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RichPushCore
import RichPushNetwork

/// Answers every request of the push server: the APNs provider API (`/3/device/<token>`), FCM HTTP v1
/// (`/v1/projects/{project}/messages:send`), the inspection API (`/richpush/v1/notifications`) and the display
/// receipts endpoint (`/richpush/v1/receipts`), the person's answers (`/richpush/v1/responses`) and the Scheduled
/// Summary (`/richpush/v1/summary`), routed by Hummingbird's router. What no route takes is answered as
/// the service whose path it is answers it: Google's errors under `/v1/`, Apple's (`BadPath`, `MethodNotAllowed`)
/// everywhere else, 405 on richpush's own endpoints.
struct PushResponder: Sendable {
    typealias Context = BasicRequestContext

    let apns: APNsRequestValidator
    let fcm: FCMRequestValidator
    let deliveries: DeliveryQueue
    let store: ResultStore
    let receipts: ReceiptStore
    let responses: ResponseStore
    let summaries: SummaryStore
    let appState: @Sendable () -> AppState
    /// The phone a push arriving now is delivered on, when a front end changes it while running (the notification
    /// center's header keys); nil: the system's configured phone.
    let phone: @Sendable () -> DeviceState?
    let logger: Logger
    /// Writes each push answered, accepted or refused, as a replayable payload (`--record`); nil records nothing.
    var recorder: (any PushRecording)? = nil

    static let inspectionPath = "/richpush/v1/notifications"
    static let receiptsPath = "/richpush/v1/receipts"
    static let responsesPath = "/richpush/v1/responses"
    static let summaryPath = "/richpush/v1/summary"
    /// A response body (`{"notification", "action", "text"}`) is read up to this size.
    static let maxResponseBytes = 16 * 1024
    /// A receipt body (`push_id=<id>`) is read up to this size; a larger one is refused with 413.
    static let maxReceiptBytes = 4096
    /// FCM request bodies (the message and its wrapping) are read up to this size; anything larger is refused
    /// unread as too large.
    static let maxFCMBodyBytes = 64 * 1024

    var router: Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: Gate(responder: self))
        router.get(RouterPath(Self.inspectionPath)) { request, _ in inspect(request) }
        router.delete(RouterPath(Self.inspectionPath)) { request, _ in inspect(request) }
        for method in [HTTPRequest.Method.post, .get, .delete] {
            router.on(RouterPath(Self.receiptsPath), method: method) { request, _ in
                await receipt(request, target: request.head.path ?? "")
            }
        }
        for method in [HTTPRequest.Method.post, .get, .delete] {
            router.on(RouterPath(Self.responsesPath), method: method) { request, _ in await respond(request) }
            router.on(RouterPath(Self.summaryPath), method: method) { request, _ in summary(request) }
        }
        router.post(RouterPath(APNsRequestValidator.pathPrefix + ":token")) { request, _ in await push(request) }
        router.post("/v1/projects/:project/messages:send") { request, _ in await push(request) }
        return router
    }

    /// Before any route: a header list over the limit is refused (431) and recorded as the push it was meant to
    /// be. After: what the router has no route for goes to ``unrouted(_:)``.
    struct Gate: RouterMiddleware {
        typealias Context = PushResponder.Context
        let responder: PushResponder

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            let path = request.head.path ?? ""
            let headers = request.headers.map { (name: $0.name.canonicalName, value: $0.value) }
            if let size = PushResponder.oversizedHeaderList(request, headers: headers) {
                let isFCM = FCMRequestValidator.handles(path: PushResponder.pathOnly(path))
                return responder.headerListTooLarge(
                    size: size, path: path, transport: isFCM ? .fcmHTTP : .apnsHTTP2,
                    written: ResponseWritten.current ?? PushResponder.answeredAlready)
            }
            do {
                return try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                return await responder.unrouted(request)
            }
        }
    }

    /// A method or path no route takes: 405 on richpush's endpoints, else the push service's own refusal.
    private func unrouted(_ request: Request) async -> Response {
        let path = request.head.path ?? ""
        switch Self.pathOnly(path) {
        case Self.inspectionPath: return inspect(request)
        case Self.receiptsPath: return await receipt(request, target: path)
        case Self.responsesPath: return await respond(request)
        case Self.summaryPath: return summary(request)
        default: return await push(request)
        }
    }

    /// The path without its query.
    static func pathOnly(_ path: String) -> String {
        path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// A push to APNs or FCM (by its path), judged as the service judges it and, when accepted, delivered.
    private func push(_ request: Request) async -> Response {
        let path = request.head.path ?? ""
        let headers = request.headers.map { (name: $0.name.canonicalName, value: $0.value) }
        let isFCM = FCMRequestValidator.handles(path: Self.pathOnly(path))
        // Each push's result is reported once its answer is written (see ResponseWritten).
        let written = ResponseWritten.current ?? Self.answeredAlready
        var request = request
        let limit = isFCM ? Self.maxFCMBodyBytes : APNsRequest.maxBodyBytes
        let (body, isCut) = await Self.readBody(of: &request, upTo: limit)
        if isFCM {
            return fcmResponse(
                method: request.method.rawValue, path: path, headers: headers, body: body, tooLarge: isCut,
                written: written)
        }
        return apnsResponse(
            APNsRequest(method: request.method.rawValue, path: path, headers: headers, body: body, bodyIsCut: isCut),
            written: written)
    }

    /// For a responder called outside a push server's connection (nothing to wait for).
    static let answeredAlready: ResponseWritten = {
        let written = ResponseWritten()
        written.signal()
        return written
    }()

    /// The body up to `limit` bytes and whether there was more; what follows the limit is not read here (the
    /// server drains it after the answer) and never held.
    static func readBody(of request: inout Request, upTo limit: Int) async -> (body: [UInt8], isCut: Bool) {
        var body: [UInt8] = []
        do {
            for try await var chunk in request.body {
                let room = limit - body.count
                guard chunk.readableBytes <= room else {
                    body += chunk.readBytes(length: room) ?? []
                    return (body, true)
                }
                body += chunk.readableBytesView
            }
        } catch {
            // The client broke off the body: what arrived is judged as the body.
        }
        return (body, false)
    }

    // MARK: Header lists

    /// The size of the request's header list when it is over ``HeaderListLimit/bytes``: as ``HeaderListLimiter``
    /// marked it (HTTP/2), or as counted here (HTTP/1.1).
    static func oversizedHeaderList(_ request: Request, headers: [(name: String, value: String)]) -> Int? {
        if let marked = headers.first(where: { $0.name == HeaderListLimit.markerField }) {
            return Int(marked.value) ?? HeaderListLimit.bytes + 1
        }
        let pseudo: [(name: String, value: String)] = [
            (":method", request.method.rawValue), (":path", request.head.path ?? ""),
            (":scheme", request.head.scheme ?? ""), (":authority", request.head.authority ?? ""),
        ]
        let size = HeaderListLimit.size(of: pseudo + headers)
        return size > HeaderListLimit.bytes ? size : nil
    }

    /// 431 on the request's own stream, recorded like any refused push.
    func headerListTooLarge(
        size: Int, path: String, transport: DeliveryTransport, written: ResponseWritten
    ) -> Response {
        let rejection = EndpointRejection(
            status: 431, reason: "RequestHeaderFieldsTooLarge",
            detail: "the request's header list is \(size) bytes; richpush takes at most \(HeaderListLimit.bytes)")
        let id = UUID().uuidString.lowercased()
        let pathOnly = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let token =
            pathOnly.hasPrefix(APNsRequestValidator.pathPrefix)
            ? String(pathOnly.dropFirst(APNsRequestValidator.pathPrefix.count).prefix(200)) : ""
        record(
            rejection, attributes: APNsAttributes(id: id, token: token), transport: transport,
            file: String(path.prefix(200)), bytes: 0, written: written)
        var response = Self.json(431, ["reason": .string(rejection.reason)])
        if transport == .apnsHTTP2 { response.headers[Self.apnsID] = id }
        return response
    }

    /// An accepted push as the phone gets it now: in the app state and on the phone of the moment it arrived.
    private func input(_ payload: [UInt8], origin: DeliveryOrigin) -> DeliveryInput {
        var input = DeliveryInput(payload: .bytes(payload), origin: origin, appState: appState())
        if let phone = phone() { input.settings.device = phone }
        return input
    }

    // MARK: APNs

    private func apnsResponse(_ request: APNsRequest, written: ResponseWritten) -> Response {
        let path = request.path
        let body = request.body
        let decision = apns.validate(request)
        switch decision {
        case .accepted(let attributes, let payload):
            let origin = DeliveryOrigin(name: "/3/device/\(attributes.token)", transport: .apnsHTTP2, apns: attributes)
            deliveries.deliver(
                input(payload, origin: origin), attributes: attributes,
                written: written, recorder: recorder)
            var response = Response(status: .ok)
            response.headers[Self.apnsID] = attributes.id
            return response
        case .rejected(let attributes, let reason, let detail, let timestamp):
            let rejection = EndpointRejection(status: reason.status, reason: reason.rawValue, detail: detail)
            let state = record(
                rejection, attributes: attributes, transport: .apnsHTTP2, file: String(path.prefix(200)),
                bytes: body.count, written: written)
            recorder?.record(
                RecordedPush(
                    outcome: .refused(rejection), transport: .apnsHTTP2, attributes: attributes, body: body,
                    method: request.method, path: path, headers: request.headers, appState: state,
                    unregistered: reason == .unregistered, bundleID: apns.bundleID))
            var object: JSONObject = ["reason": .string(reason.rawValue)]
            if let timestamp { object["timestamp"] = .number(Double(timestamp)) }
            var response = Self.json(reason.status, .object(object))
            response.headers[Self.apnsID] = attributes.id
            return response
        }
    }

    // MARK: FCM

    private func fcmResponse(
        method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], tooLarge: Bool,
        written: ResponseWritten
    ) -> Response {
        let authorization = headers.first { $0.name == "authorization" }?.value
        let verdict: Result<FCMMessageInfo, FCMError> =
            tooLarge
            ? .failure(
                .invalidArgument(
                    "Request contains an invalid argument: the message is over \(Self.maxFCMBodyBytes) bytes; "
                        + "FCM takes at most 4096 bytes of payload."))
            : fcm.validate(method: method, path: path, authorization: authorization, body: body)
        switch verdict {
        case .success(let info):
            if info.validateOnly {
                return Self.json(200, ["name": .string("projects/\(info.project)/messages/fake_message_id")])
            }
            let messageID = Self.newFCMMessageID()
            let attributes = Self.attributes(of: info, id: messageID)
            let origin = DeliveryOrigin(
                name: "projects/\(info.project)/messages/\(messageID)", transport: .fcmHTTP, apns: attributes)
            deliveries.deliver(
                input(body, origin: origin), attributes: attributes,
                written: written, recorder: recorder)
            return Self.json(200, ["name": .string("projects/\(info.project)/messages/\(messageID)")])
        case .failure(let error):
            let rejection = EndpointRejection(
                status: error.httpStatus, reason: error.errorCode ?? error.status, detail: error.message)
            // The message's target, when the body names one, so the entry shows who was addressed.
            let target = (try? JSONParser.parse(body))?["message"]
            let attributes = APNsAttributes(
                id: UUID().uuidString.lowercased(), token: target?["token"]?.stringValue ?? "",
                topic: target?["topic"]?.stringValue)
            let state = record(
                rejection, attributes: attributes, transport: .fcmHTTP, file: String(path.prefix(200)),
                bytes: body.count, written: written)
            recorder?.record(
                RecordedPush(
                    outcome: .refused(rejection), transport: .fcmHTTP, attributes: attributes, body: body,
                    method: method, path: path, appState: state, unregistered: error.errorCode == "UNREGISTERED"))
            return Self.json(error.httpStatus, error.jsonValue)
        }
    }

    static func attributes(of info: FCMMessageInfo, id: String) -> APNsAttributes {
        APNsAttributes(
            id: id, token: info.token ?? "", topic: info.topic ?? info.condition,
            pushType: info.apnsHeaders["apns-push-type"] ?? APNsPushType.alert.rawValue,
            priority: info.apnsHeaders["apns-priority"].flatMap { Int($0) } ?? 10,
            expiration: info.apnsHeaders["apns-expiration"].flatMap { Int($0) },
            collapseID: info.apnsHeaders["apns-collapse-id"], auth: "FCM bearer token (not checked)")
    }

    /// FCM message IDs look like `0:1700000000000000%31bd1c9631bd1c96`.
    static func newFCMMessageID() -> String {
        let microseconds = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "0:\(microseconds)%\(String(repeating: "0", count: 16 - random.count))\(random)"
    }

    // MARK: Inspection

    private func inspect(_ request: Request) -> Response {
        switch request.method {
        case .get:
            // Written in pieces as they are made: the whole document of 10,000 results is about 11 MB.
            let chunks = store.snapshot().jsonChunks(of: 64 * 1024)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    for chunk in chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                    try await writer.finish(nil)
                })
        case .delete:
            store.removeAll()
            return Response(status: .noContent)
        default:
            return Self.json(405, ["error": .string("GET or DELETE \(Self.inspectionPath)")])
        }
    }

    // MARK: Display receipts

    private func receipt(_ request: Request, target: String) async -> Response {
        switch request.method {
        case .post:
            var request = request
            let body: [UInt8]
            do {
                body = Array(buffer: try await request.collectBody(upTo: Self.maxReceiptBytes))
            } catch {
                return Self.json(413, ["error": .string("a receipt body is at most \(Self.maxReceiptBytes) bytes")])
            }
            receipts.record(
                ReceiptLog.Entry(
                    method: request.method.rawValue, target: String(target.prefix(2048)),
                    headers: request.headers.map { (name: $0.name.canonicalName.lowercased(), value: $0.value) },
                    body: body, receivedAt: Date()))
            return Response(status: .ok)
        case .get:
            return Self.json(200, receipts.snapshot().jsonValue)
        case .delete:
            receipts.removeAll()
            return Response(status: .noContent)
        default:
            return Self.json(405, ["error": .string("POST, GET or DELETE \(Self.receiptsPath)")])
        }
    }

    // MARK: Responses

    /// The person answers a shown notification (`POST`), or the answers so far are listed (`GET`) or forgotten.
    private func respond(_ request: Request) async -> Response {
        switch request.method {
        case .post:
            var request = request
            let body: [UInt8]
            do {
                body = Array(buffer: try await request.collectBody(upTo: Self.maxResponseBytes))
            } catch {
                return Self.json(413, ["error": .string("a response body is at most \(Self.maxResponseBytes) bytes")])
            }
            let answered = ResponseStore.request(from: body).flatMap {
                responses.answer(notification: $0.id, $0.request)
            }
            switch answered {
            case .success(let response): return Self.json(200, response.jsonValue)
            case .failure(let problem): return Self.json(problem.status, ["error": .string(problem.reason)])
            }
        case .get:
            return Self.json(200, responses.snapshot())
        case .delete:
            responses.removeAll()
            return Response(status: .noContent)
        default:
            return Self.json(405, ["error": .string("POST, GET or DELETE \(Self.responsesPath)")])
        }
    }

    // MARK: Scheduled Summary

    /// What waits for the Scheduled Summary and what was delivered (`GET`), the summary delivered now (`POST`, as
    /// the person opening it early; 200 with `{"delivered": null}` when nothing waits), or the delivered ones
    /// forgotten (`DELETE`).
    private func summary(_ request: Request) -> Response {
        switch request.method {
        case .get:
            return Self.json(200, summaries.snapshot())
        case .post:
            let delivered = summaries.deliver(trigger: "request")
            return Self.json(200, ["delivered": delivered?.jsonValue ?? .null])
        case .delete:
            summaries.removeDelivered()
            return Response(status: .noContent)
        default:
            return Self.json(405, ["error": .string("POST, GET or DELETE \(Self.summaryPath)")])
        }
    }

    // MARK: Helpers

    /// Records a refused request; returns the app state it arrived in.
    @discardableResult
    private func record(
        _ rejection: EndpointRejection, attributes: APNsAttributes, transport: DeliveryTransport, file: String,
        bytes: Int, written: ResponseWritten
    ) -> AppState {
        let state = appState()
        let result = DeliveryResult.refused(
            rejection, origin: DeliveryOrigin(name: file, transport: transport, apns: attributes),
            appState: state, bytes: bytes)
        let entry = store.record(ServedNotification(status: rejection.status, result: result), endingDelivery: false)
        deliveries.report(entry, once: written)
        return state
    }

    static let apnsID = HTTPField.Name("apns-id")!

    static func json(_ status: Int, _ value: JSONValue) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: JSONWriter.string(value))))
    }
}
