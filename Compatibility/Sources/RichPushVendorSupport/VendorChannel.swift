import Foundation
import RichPushHostProtocol
import RichPushRules
import UserNotifications

/// What a vendor module tells richpush besides the content: the requests its SDK would make (recorded in the
/// timeline, never sent) and why it attached no image (the result's fallback reason, as `--sdk VENDOR` gives it).
/// Outside richpush nothing is written.
public enum VendorChannel {
    /// Records what `rules`' SDK would send for this payload.
    /// `requestID`: the request it is for, when the payload was changed since it arrived (else found by it).
    public static func recordWouldSend(
        _ rules: any VendorRules, for userInfo: [AnyHashable: Any], requestID: String? = nil
    ) {
        let requestID = requestID ?? RichPushHostChannel.request(owning: userInfo)
        for request in rules.wouldSend(for: UserInfoNode(userInfo)) {
            RichPushHostChannel.send(
                .wouldSend(
                    id: requestID, vendor: rules.name,
                    request: HostWouldSend(
                        method: request.method, url: request.url, fields: request.fields.map { "\($0)=\($1)" },
                        note: request.note)))
        }
    }

    /// Reports an image the vendor did not attach.
    public static func imageFailed(_ rules: any VendorRules, _ failure: VendorAttachmentLoader.Failure) {
        RichPushHostChannel.send(
            .imageFailed(id: failure.requestID, vendor: rules.name, reason: failure.reason, detail: failure.detail))
    }
}
