/// What happened to one notification, in the JSON result contract (the README's "The result contract").
public struct DeliveryResult: Sendable, Equatable {
    public var file: String
    public var appState: AppState
    public var delivered: Bool
    public var rejection: PayloadRejection?
    public var extensionInvoked: Bool
    public var style: PresentationStyle
    public var content: NotificationContent
    public var imageURL: String?
    public var attachment: Attachment?
    /// The audio or video iOS shows (a team's extension attached it and it passed iOS's checks); nil otherwise.
    public var media: MediaAttachment?
    public var fallback: Fallback?
    public var hint: String?
    public var timeline: [TimelineEvent]
    /// Seconds from arrival to presentation.
    public var elapsed: Double
    /// Where the request came from; nil for a rejected payload.
    public var source: NotificationRequest.Source?
    /// The `push_id` custom key, which display statistics report when the notification is shown.
    public var pushID: String?
    /// `apns-collapse-id`: a later notification with the same id replaces this one.
    public var collapseID: String?
    /// The display receipt the extension sent, nil when it sent none.
    public var receipt: ReceiptReport?
    /// How the payload reached the emulated phone: a file (replay, the notification center's library) or a push
    /// over the network, from the delivery's ``DeliveryOrigin``.
    public var transport: DeliveryTransport = .file
    /// A network push's request attributes (the contract's `apns`); nil for a file.
    public var apns: APNsAttributes?
    /// Set when a push endpoint refused the request: the payload never reached the device, and the result's
    /// `rejection` is the endpoint's, with the status the sender got.
    public var endpointRejection: EndpointRejection?
    /// The limits this notification was delivered under, per-payload settings applied.
    public var limits: EffectiveLimits?
    /// The SDK profile whose service extension was emulated (`requirement` unless `--sdk` or `given.sdk` chose one).
    public var sdk: String = SDKProfile.requirement.name
    /// What else the payload said, as it said it (nil when it did not say it).
    public var badge: Int?
    public var sound: String?
    public var threadID: String?
    public var category: String?
    public var interruptionLevel: String?
    public var relevanceScore: Double?
    public var targetContentID: String?
    /// Which extension handled it (`extension`): nil when none ran.
    public var extensionIdentity: ExtensionIdentity?
    /// How many times a team's extension called its content handler (iOS uses the first); nil for the others.
    public var contentHandlerCalls: Int?
    /// What a team's extension handed to the content handler first, as it handed it; nil otherwise.
    public var deliveredContent: HandedContent?
    /// A team's extension's standard output and error, line by line, capped; empty for the others.
    public var extensionLog: [String] = []
    /// The process a team's extension ran in (its mode, pid, how many notifications it had served); nil otherwise.
    public var extensionProcess: ExtensionProcessInfo?
    /// Set when the content shown came from another notification (a handler shared between them).
    public var crossTalk: CrossTalk?
    /// The sender of a communication notification (an extension that updated its content from an
    /// `INSendMessageIntent`); nil otherwise.
    public var communication: Communication?
    /// The content as the payload asked for it, every field (not in the JSON: the request's fields are reported one
    /// by one above); what the phone's rules read when no extension handed content back.
    public var requested: HostContent?
    /// What the phone draws, view by view (`presentation`); nil when it draws nothing.
    public var presentation: NotificationPresentation?
    /// What the app was handed when the person answered the notification (`given.respond`, the TUI's keys).
    public var response: NotificationResponse?
    /// The request's identifier, as `UNNotificationRequest.identifier` and the notification center name it (the
    /// push's `apns-id`, else one richpush made).
    public var requestIdentifier: String?
    /// The payload as JSON text, the `userInfo` of the notification center's `UNNotification` (not in the JSON).
    public var userInfo: String?
    /// The app icon's badge when the notification was presented (its first content handler call), which its
    /// presentation starts from; nil: the badge when the phone draws it. Not in the JSON.
    var badgeWhenPresented: Int?
    /// What a team's extension did with `UNUserNotificationCenter` (`notificationCenter`); nil when it never called it.
    public var notificationCenter: NotificationCenterSession.Report?

    public init(
        file: String, appState: AppState, delivered: Bool = true, rejection: PayloadRejection? = nil,
        extensionInvoked: Bool = false, style: PresentationStyle,
        content: NotificationContent = NotificationContent(),
        imageURL: String? = nil, attachment: Attachment? = nil, fallback: Fallback? = nil,
        hint: String? = nil,
        timeline: [TimelineEvent] = [], elapsed: Double = 0, source: NotificationRequest.Source? = nil,
        pushID: String? = nil, collapseID: String? = nil
    ) {
        self.file = file
        self.appState = appState
        self.delivered = delivered
        self.rejection = rejection
        self.extensionInvoked = extensionInvoked
        self.style = style
        self.content = content
        self.imageURL = imageURL
        self.attachment = attachment
        self.fallback = fallback
        self.hint = hint
        self.timeline = timeline
        self.elapsed = elapsed
        self.source = source
        self.pushID = pushID
        self.collapseID = collapseID
    }

    /// Adds a sentence after the hint there is (nothing without one).
    public mutating func addHint(_ sentence: String?) {
        guard let sentence else { return }
        hint = hint.map { "\($0) \(sentence)" } ?? sentence
    }

    /// Records the decoder's verdict on the attachment, and in the hint what a person sees when it has no pixels.
    mutating func record(_ verdict: DecodeVerdict) {
        attachment?.record(verdict)
        addHint(verdict.error.map(HintEngine.undecodedImage))
    }

    /// Copies what the payload said besides its text (badge, sound, thread-id, …) into the result.
    public mutating func report(attributesOf request: NotificationRequest) {
        badge = request.badge
        sound = request.sound
        threadID = request.threadID
        category = request.category
        interruptionLevel = request.interruptionLevel
        relevanceScore = request.relevanceScore
        targetContentID = request.targetContentID
        requested = request.hostContent
    }
}

extension DeliveryResult {
    /// The result as the contract's JSON object, keys in the documented order.
    public var jsonValue: JSONValue {
        func optional(_ string: String?) -> JSONValue { string.map { .string($0) } ?? .null }
        var object = JSONObject()
        object["file"] = .string(file)
        object["appState"] = .string(appState.rawValue)
        object["delivered"] = .bool(delivered)
        if let endpointRejection {
            object["rejection"] = [
                "reason": .string(endpointRejection.reason), "detail": .string(endpointRejection.detail),
                "status": .number(Double(endpointRejection.status)),
            ]
        } else {
            object["rejection"] =
                rejection.map { ["reason": .string($0.reason.rawValue), "detail": .string($0.detail)] } ?? .null
        }
        object["extensionInvoked"] = .bool(extensionInvoked)
        object["style"] = .string(style.rawValue)
        object["title"] = .string(content.title)
        object["subtitle"] = .string(content.subtitle)
        object["body"] = .string(content.body)
        object["imageURL"] = optional(imageURL)
        object["attachment"] = attachment.map(\.jsonValue) ?? .null
        object["media"] = media?.jsonValue ?? .null
        object["fallback"] =
            fallback.map { ["reason": .string($0.reason.rawValue), "detail": .string($0.detail)] }
            ?? .null
        object["hint"] = optional(hint)
        object["timeline"] = .array(
            timeline.map {
                [
                    "at": .number(Self.milliseconds($0.at)), "event": .string($0.kind.rawValue),
                    "detail": .string($0.detail),
                ]
            })
        object["elapsed"] = .number(Self.milliseconds(elapsed))
        object["source"] = optional(source?.rawValue)
        object["pushID"] = optional(pushID)
        object["collapseID"] = optional(collapseID)
        object["receipt"] = receipt?.jsonValue ?? .null
        object["transport"] = .string(transport.rawValue)
        object["apns"] = apns?.jsonValue ?? .null
        object["limits"] = limits?.jsonValue ?? .null
        object["sdk"] = .string(sdk)
        object["badge"] = badge.map { .number(Double($0)) } ?? .null
        object["sound"] = optional(sound)
        object["threadID"] = optional(threadID)
        object["category"] = optional(category)
        object["interruptionLevel"] = optional(interruptionLevel)
        object["relevanceScore"] = relevanceScore.map { .number($0) } ?? .null
        object["targetContentID"] = optional(targetContentID)
        object["extension"] = extensionIdentity?.jsonValue ?? .null
        object["contentHandlerCalls"] = contentHandlerCalls.map { .number(Double($0)) } ?? .null
        object["deliveredContent"] = deliveredContent?.jsonValue ?? .null
        object["extensionLog"] = .array(extensionLog.map { .string($0) })
        object["communication"] = communication?.jsonValue ?? .null
        object["extensionProcess"] = extensionProcess?.jsonValue ?? .null
        object["crossTalk"] = crossTalk?.jsonValue ?? .null
        object["presentation"] = presentation?.jsonValue ?? .null
        object["response"] = response?.jsonValue ?? .null
        object["requestIdentifier"] = optional(requestIdentifier)
        object["notificationCenter"] = notificationCenter?.jsonValue ?? .null
        return .object(object)
    }

    /// Seconds rounded to the millisecond: finer digits are noise in a report.
    static func milliseconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}

extension ReceiptReport {
    public var jsonValue: JSONValue {
        [
            "url": .string(url), "pushID": .string(pushID), "status": status.map { .number(Double($0)) } ?? .null,
            "error": error.map { .string($0) } ?? .null,
            "completedAfterContentHandler": .bool(completedAfterContentHandler),
        ]
    }
}

extension Attachment {
    /// `decoded` appears once a decoder ran, `decodeError` only when it is false.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "url": .string(url), "mimeType": .string(mimeType), "format": .string(format.rawValue),
            "width": .number(Double(width)), "height": .number(Double(height)),
            "frames": .number(Double(frames)),
            "bytes": .number(Double(bytes)), "sha256": .string(sha256), "file": .string(file),
        ]
        if let decoded {
            object["decoded"] = .bool(decoded)
            if !decoded { object["decodeError"] = .string(decodeError ?? "") }
        }
        return .object(object)
    }
}

/// How a payload reached the emulated phone (the result's `transport`).
public enum DeliveryTransport: String, Sendable, Codable {
    /// A payload file: replay, or the notification center's library.
    case file
    /// The APNs provider API over HTTP/2 (`POST /3/device/<token>`).
    case apnsHTTP2
    /// The FCM HTTP v1 API (`POST /v1/projects/{project}/messages:send`).
    case fcmHTTP
}
