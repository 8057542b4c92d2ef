import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RichPushCore
import RichPushNetwork

/// Answers every request of the push server: the APNs provider API (`/3/device/<token>`), FCM HTTP v1
/// (`/v1/projects/{project}/messages:send`), the inspection API (`/richpush/v1/notifications`) and the display
/// receipts endpoint (`/richpush/v1/receipts`).
struct PushResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let apns: APNsRequestValidator
    let fcm: FCMRequestValidator
    let deliveries: DeliveryQueue
    let store: ResultStore
    let receipts: ReceiptStore
    let appState: @Sendable () -> AppState
    let logger: Logger

    static let inspectionPath = "/richpush/v1/notifications"
    static let receiptsPath = "/richpush/v1/receipts"
    /// A receipt body (`push_id=<id>`) is read up to this size; a larger one is refused with 413.
    static let maxReceiptBytes = 4096
    /// Bodies are read up to this size; anything larger is refused unread as too large.
    static let maxBodyBytes = 64 * 1024

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.head.path ?? ""
        let pathOnly = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if pathOnly == Self.inspectionPath {
            return inspect(request)
        }
        if pathOnly == Self.receiptsPath {
            return await receipt(request, target: path)
        }
        var request = request
        let body: [UInt8]
        let tooLarge: Bool
        do {
            body = Array(buffer: try await request.collectBody(upTo: Self.maxBodyBytes))
            tooLarge = false
        } catch {
            body = []
            tooLarge = true
        }
        let headers = request.headers.map { (name: $0.name.canonicalName, value: $0.value) }
        if FCMRequestValidator.handles(path: pathOnly) {
            return fcmResponse(
                method: request.method.rawValue, path: path, headers: headers, body: body, tooLarge: tooLarge)
        }
        return apnsResponse(
            method: request.method.rawValue, path: path, headers: headers, body: body, tooLarge: tooLarge)
    }

    // MARK: APNs

    private func apnsResponse(
        method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], tooLarge: Bool
    ) -> Response {
        var decision = apns.validate(APNsRequest(method: method, path: path, headers: headers, body: body))
        if tooLarge, case .accepted(let attributes, _) = decision {
            decision = .rejected(
                attributes, reason: .payloadTooLarge,
                detail: "the payload is over \(Self.maxBodyBytes) bytes; APNs takes at most 4096 (5120 for voip)",
                timestamp: nil)
        }
        switch decision {
        case .accepted(let attributes, let payload):
            let file = "/3/device/\(attributes.token)"
            deliveries.deliver(
                payload: payload, file: file, transport: .apnsHTTP2, attributes: attributes, appState: appState())
            var response = Response(status: .ok)
            response.headers[Self.apnsID] = attributes.id
            return response
        case .rejected(let attributes, let reason, let detail, let timestamp):
            let rejection = EndpointRejection(status: reason.status, reason: reason.rawValue, detail: detail)
            record(
                rejection, attributes: attributes, transport: .apnsHTTP2, file: String(path.prefix(200)),
                bytes: body.count)
            var object: JSONObject = ["reason": .string(reason.rawValue)]
            if let timestamp { object["timestamp"] = .number(Double(timestamp)) }
            var response = Self.json(reason.status, .object(object))
            response.headers[Self.apnsID] = attributes.id
            return response
        }
    }

    // MARK: FCM

    private func fcmResponse(
        method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], tooLarge: Bool
    ) -> Response {
        let authorization = headers.first { $0.name == "authorization" }?.value
        let verdict: Result<FCMMessageInfo, FCMError> =
            tooLarge
            ? .failure(
                .invalidArgument("Request contains an invalid argument: the body is over \(Self.maxBodyBytes) bytes."))
            : fcm.validate(method: method, path: path, authorization: authorization, body: body)
        switch verdict {
        case .success(let info):
            if info.validateOnly {
                return Self.json(200, ["name": .string("projects/\(info.project)/messages/fake_message_id")])
            }
            let messageID = Self.newFCMMessageID()
            let attributes = Self.attributes(of: info, id: messageID)
            deliveries.deliver(
                payload: body, file: "projects/\(info.project)/messages/\(messageID)", transport: .fcmHTTP,
                attributes: attributes, appState: appState())
            return Self.json(200, ["name": .string("projects/\(info.project)/messages/\(messageID)")])
        case .failure(let error):
            let rejection = EndpointRejection(
                status: error.httpStatus, reason: error.errorCode ?? error.status, detail: error.message)
            // The message's target, when the body names one, so the entry shows who was addressed.
            let target = (try? JSONParser.parse(body))?["message"]
            let attributes = APNsAttributes(
                id: UUID().uuidString.lowercased(), token: target?["token"]?.stringValue ?? "",
                topic: target?["topic"]?.stringValue)
            record(
                rejection, attributes: attributes, transport: .fcmHTTP, file: String(path.prefix(200)),
                bytes: body.count)
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
            return Self.json(200, store.snapshot().jsonValue)
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

    // MARK: Helpers

    private func record(
        _ rejection: EndpointRejection, attributes: APNsAttributes, transport: Transport, file: String, bytes: Int
    ) {
        let result = ServedNotification.refusedResult(
            file: file, appState: appState(), rejection: rejection, bytes: bytes)
        let entry = store.record(
            ServedNotification(
                transport: transport, status: rejection.status, apns: attributes, endpointRejection: rejection,
                result: result),
            endingDelivery: false)
        deliveries.report(entry)
    }

    static let apnsID = HTTPField.Name("apns-id")!

    static func json(_ status: Int, _ value: JSONValue) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: JSONWriter.string(value)))
        )
    }
}
