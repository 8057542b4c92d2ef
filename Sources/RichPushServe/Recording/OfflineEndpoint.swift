public import Foundation
public import RichPushCore

/// The push endpoints' validators for replay: judges a recorded refusal (`given.request`) again by the rules serve
/// answered it with, without a network. The provider token is not checked (it is never recorded); a token refused
/// as unregistered is unregistered again; the bundle ID is the one serve had (`--bundle-id`).
public struct OfflineEndpoint: EndpointJudging {
    public init() {}

    public func rejection(of request: RecordedRequest, body: [UInt8], now: Date) -> EndpointRejection? {
        switch request.endpoint {
        case .apns:
            let token = String(
                (request.path.split(separator: "?", maxSplits: 1).first ?? "").dropFirst(
                    APNsRequestValidator.pathPrefix.count))
            var validator = APNsRequestValidator(
                bundleID: request.bundleID, unregisteredTokens: request.unregistered ? [token] : [])
            validator.checksProviderToken = false
            let apnsRequest = APNsRequest(
                method: request.method, path: request.path, headers: request.headers, body: body,
                bodyIsCut: body.count >= APNsRequest.maxBodyBytes)
            guard case .rejected(_, let reason, let detail, _) = validator.validate(apnsRequest, now: now) else {
                return nil
            }
            return EndpointRejection(status: reason.status, reason: reason.rawValue, detail: detail)
        case .fcm:
            var unregistered: [String] = []
            if request.unregistered, let document = try? JSONParser.parse(body),
                let token = (document["message"]?["token"] ?? document["message"]?["fid"])?.stringValue
            {
                unregistered = [token]
            }
            let verdict = FCMRequestValidator(unregisteredTokens: unregistered).validate(
                method: request.method, path: request.path, authorization: "Bearer not-recorded", body: body)
            guard case .failure(let error) = verdict else { return nil }
            return EndpointRejection(
                status: error.httpStatus, reason: error.errorCode ?? error.status, detail: error.message)
        }
    }
}
