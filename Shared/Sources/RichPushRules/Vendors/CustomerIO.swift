/// Customer.io's rich push handling: `MessagingPush.shared.didReceive(_:withContentHandler:)` (CioMessagingPushAPN /
/// CioMessagingPushFCM 3.0 – 4.7.5) with its "delivered" metric.
///
/// Read in customerio/customerio-ios at 8b9ee36223656c2da68e6accaf4bdbe1435629ba (4.7.5):
/// Sources/MessagingPush/Type/PushNotification.swift at 47e94c47b562380afbe1e727c90c9a51cdb9e02b (`cioDelivery`,
/// `cioImage`); Sources/MessagingPush/RichPush/RichPushHttpClient.swift at 129fb3ec4909a5d0c208e65fc4dff63c5748f653 and
/// Sources/Common/Service/HttpRequestRunner.swift at f8014ecf8c48200c44fefae1ca94603c425f2a61 (the session);
/// Sources/Common/Service/DownloadFileType.swift at 8973e6057d7b2e0f90584990b99307b420382d7e (the name);
/// Sources/MessagingPush/RichPush/RichPushDeliveryTracker.swift at 32dbddb549355d7027f21645b9d93368d85fbb95 and
/// Sources/Common/Service/CIOApiEndpoint.swift at 8556b45e506b55bd019989fd5db12e52d45ffe0d (the metric).
public struct CustomerIO: VendorRules {
    /// The configuration the extension passed to `initializeForExtension(withConfig:)`: `.region(.EU)` moves the
    /// metric to `cdp-eu.customer.io`; `.autoTrackPushEvents(false)` sends none.
    public init(region: String = "US", autoTrackPushEvents: Bool = true) {
        self.region = region
        self.autoTrackPushEvents = autoTrackPushEvents
    }

    let region: String
    let autoTrackPushEvents: Bool

    public let name = "customerio"
    public let title = "Customer.io (MessagingPush)"
    public let source = "customerio/customerio-ios Sources/MessagingPush/Type/PushNotification.swift @ 47e94c47 (4.7.5)"

    /// `import CioMessagingPushAPN` or `import CioMessagingPushFCM` (3.x – 4.x), which bring `CioMessagingPush`: pods
    /// `CustomerIOMessagingPushAPN`, `CustomerIOMessagingPushFCM`, `CustomerIOMessagingPush` and the umbrella
    /// `CustomerIO`; products of the package `customerio-ios` (Package.swift at 74217fda). Sample apps also import
    /// `CioInternalCommon` (the pod `CustomerIOCommon`), where `Region` and `CioLogLevel` live.
    public var sdk: VendorSDK? {
        VendorSDK(
            modules: ["CioMessagingPushAPN", "CioMessagingPushFCM", "CioMessagingPush", "CioInternalCommon"],
            pods: [
                "CustomerIOMessagingPushAPN", "CustomerIOMessagingPushFCM", "CustomerIOMessagingPush", "CustomerIO",
            ],
            packages: ["customerio-ios"])
    }

    /// `cioDelivery`: a push is Customer.io's only with `CIO-Delivery-ID` and `CIO-Delivery-Token`, both Strings;
    /// otherwise `didReceive` returns false and calls no content handler.
    static let deliveryID: PayloadKeyPath = "CIO-Delivery-ID"
    static let deliveryToken: PayloadKeyPath = "CIO-Delivery-Token"

    /// The push's delivery id and token; nil when it is not Customer.io's.
    public func delivery<Node: PayloadNode>(in payload: Node) -> (id: String, token: String)? {
        guard let id = Self.deliveryID.value(in: payload)?.string,
            let token = Self.deliveryToken.value(in: payload)?.string
        else { return nil }
        return (id, token)
    }

    /// `cioImage`: `data["CIO"]["push"]["image"]`, of a Customer.io push only.
    public let imageKeyPaths: [PayloadKeyPath] = ["CIO.push.image"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard delivery(in: payload) != nil else { return [] }
        return imageKeyPaths[0].imageRequests(in: payload)
    }

    public func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? {
        guard imageKeyPaths[0].value(in: payload)?.string != nil, delivery(in: payload) == nil else { return nil }
        return
            "\(title) handles a push only when it has CIO-Delivery-ID and CIO-Delivery-Token (strings) beside CIO.push.image; without them didReceive returns false and the SDK calls no content handler."
    }

    /// `session.downloadTask(with:)` on an ephemeral session: ATS applies.
    public let schemes = SchemeRule.urlSession
    /// `timeoutIntervalForResource = 30` (the whole download), request 60.
    public let timeout = TimeoutRule.fixed(.seconds(30))
    /// Only a temp location and a suggested file name are required.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// `UUID().uuidString + "_" + suggestedFileName` in `temporaryDirectory/cio_sdk/`.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        .success(AttachmentName(fileName: "\(file.stem)_\(file.suggestedFilename)"))
    }

    /// One image, which replaces every attachment the content had.
    public let plurality = Plurality.first

    /// `RichPushDeliveryTrackerImpl.trackMetric`: for a Customer.io push, when `autoTrackPushEvents` (the default),
    /// `POST https://cdp.customer.io/v1/track` (`cdp-eu` for `.EU`) with `Authorization: Basic <cdpApiKey>:`. From
    /// 4.4.0 the metric is first written to the App Group's `io.customer/pending_push_delivery_metrics.json`, and the
    /// content handler waits for the request.
    public func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] {
        guard autoTrackPushEvents, let delivery = delivery(in: payload) else { return [] }
        let host = region.uppercased() == "EU" ? "cdp-eu.customer.io" : "cdp.customer.io"
        return [
            WouldSend(
                method: "POST", url: "https://\(host)/v1/track",
                fields: [
                    ("anonymousId", delivery.id), ("event", "Report Delivery Event"),
                    ("properties.recipient", delivery.token), ("properties.metric", "delivered"),
                    ("properties.deliveryId", delivery.id),
                ],
                note: "the delivered metric; since 4.4.0 the content handler waits for it")
        ]
    }
}
