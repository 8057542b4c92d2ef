import Foundation
import RichPushHostProtocol
import RichPushRules
import UserNotifications

/// What a vendor module tells richpush besides the content: the requests its SDK would make (recorded in the
/// timeline, never sent) and why it attached no image (the result's fallback reason, as `--sdk VENDOR` gives it).
/// Outside richpush nothing is written.
public enum VendorChannel {
    /// Records what `rules`' SDK would send for this payload.
    public static func recordWouldSend(_ rules: any VendorRules, for userInfo: [AnyHashable: Any]) {
        for request in rules.wouldSend(for: UserInfoNode(userInfo)) {
            RichPushHostChannel.send(
                .wouldSend(
                    id: nil, vendor: rules.name,
                    request: HostWouldSend(
                        method: request.method, url: request.url, fields: request.fields.map { "\($0)=\($1)" },
                        note: request.note)))
        }
    }

    /// Reports an image the vendor did not attach.
    public static func imageFailed(_ rules: any VendorRules, _ failure: VendorAttachmentLoader.Failure) {
        RichPushHostChannel.send(
            .imageFailed(id: nil, vendor: rules.name, reason: failure.reason, detail: failure.detail))
    }
}
