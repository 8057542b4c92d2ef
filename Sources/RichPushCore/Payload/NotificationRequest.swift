/// A notification as the device receives it: the decoded `aps` dictionary plus the custom keys.
public struct NotificationRequest: Sendable, Equatable {
    /// Which kind of file the payload came from.
    public enum Source: String, Sendable, Codable {
        /// A plain APNs payload (`{"aps": {...}}`).
        case apns
        /// An Xcode simulator `.apns` file with a `Simulator Target Bundle`.
        case simulator
        /// An FCM HTTP v1 request body (`{"message": {...}}`), translated to what APNs delivers.
        case fcmV1
    }

    public var source: Source
    public var content: NotificationContent
    /// `aps.mutable-content` is the number 1: the service extension may run.
    public var mutableContent: Bool
    /// `aps.content-available` is 1: a background (silent) update.
    public var contentAvailable: Bool
    public var badge: Int?
    /// The sound name; a critical-alert sound dictionary reports its `name`.
    public var sound: String?
    public var threadID: String?
    public var category: String?
    public var interruptionLevel: String?
    public var relevanceScore: Double?
    public var targetContentID: String?
    /// `Simulator Target Bundle` of a simulator file.
    public var targetBundle: String?
    /// The `apns-collapse-id` header (from an FCM message's `apns.headers`): a later notification with the
    /// same id replaces this one in the notification center.
    public var collapseID: String?
    /// Every top-level key but `aps` (and the simulator's target bundle), untouched.
    public var userInfo: JSONObject
    /// The APNs payload the device received (after FCM translation), as JSON text bytes counted for the 4 KB limit.
    public var payloadBytes: Int
    /// The whole APNs payload, `aps` included: image key paths are resolved against it.
    public var payload: JSONObject

    public init(
        source: Source = .apns, content: NotificationContent, mutableContent: Bool = false,
        contentAvailable: Bool = false, badge: Int? = nil, sound: String? = nil,
        threadID: String? = nil,
        category: String? = nil, interruptionLevel: String? = nil, relevanceScore: Double? = nil,
        targetContentID: String? = nil, targetBundle: String? = nil, collapseID: String? = nil,
        userInfo: JSONObject = JSONObject(),
        payloadBytes: Int = 0, payload: JSONObject = JSONObject()
    ) {
        self.source = source
        self.content = content
        self.mutableContent = mutableContent
        self.contentAvailable = contentAvailable
        self.badge = badge
        self.sound = sound
        self.threadID = threadID
        self.category = category
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.targetContentID = targetContentID
        self.targetBundle = targetBundle
        self.collapseID = collapseID
        self.userInfo = userInfo
        self.payloadBytes = payloadBytes
        self.payload = payload
    }
}

/// The visible text of a notification.
public struct NotificationContent: Sendable, Equatable {
    public var title: String
    public var subtitle: String
    public var body: String

    public init(title: String = "", subtitle: String = "", body: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    /// iOS shows a notification only when it has a title, subtitle or body.
    public var hasAlertText: Bool { !(title.isEmpty && subtitle.isEmpty && body.isEmpty) }
}
