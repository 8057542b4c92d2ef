/// A person's answer to a notification: tapping it, dismissing it, or one of its buttons (`given.respond`, the TUI's
/// number keys).
public struct ResponseRequest: Sendable, Equatable {
    /// An action's identifier, or `default` (the notification tapped) or `dismiss`.
    public var action: String
    /// What was typed into a text-input action.
    public var text: String?

    public init(action: String, text: String? = nil) {
        self.action = action
        self.text = text
    }

    public static let defaultAction = "default"
    public static let dismissAction = "dismiss"

    /// Reads `given.respond` (or another place, `field`, that takes the same object):
    /// `{"action": "reply", "text": "On my way"}`.
    public static func parse(_ value: JSONValue, field: String = "given.respond") throws(DeliveryOverridesError)
        -> ResponseRequest
    {
        guard case .object(let object) = value, let action = object["action"]?.stringValue, !action.isEmpty else {
            throw DeliveryOverridesError(
                "\(field) must be an object like {\"action\": \"reply\", \"text\": \"On my way\"} (\"default\" taps the notification, \"dismiss\" dismisses it)"
            )
        }
        for key in object.keys where key != "action" && key != "text" {
            throw DeliveryOverridesError("\(field).\(key) is not a key of it; use \"action\" and \"text\"")
        }
        var request = ResponseRequest(action: action)
        if let text = object["text"] {
            guard let string = text.stringValue else {
                throw DeliveryOverridesError("\(field).text must be a string, not \(JSONWriter.string(text))")
            }
            request.text = string
        }
        return request
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = ["action": .string(action)]
        if let text { object["text"] = .string(text) }
        return .object(object)
    }
}

/// What the app's `userNotificationCenter(_:didReceive:withCompletionHandler:)` is handed: a
/// `UNNotificationResponse`, or a `UNTextInputNotificationResponse` with the typed text
/// (https://developer.apple.com/documentation/usernotifications/unnotificationresponse).
public struct NotificationResponse: Sendable, Equatable {
    /// The tapped action's identifier, or `UNNotificationDefaultActionIdentifier` /
    /// `UNNotificationDismissActionIdentifier`.
    public var actionIdentifier: String
    /// `UNTextInputNotificationResponse.userText`; nil for other responses.
    public var userText: String?
    /// Whether the app is brought to the foreground (the default action, or a `foreground` action).
    public var opensApp: Bool
    /// Whether the phone asked to be unlocked first (an `authenticationRequired` action on a locked phone).
    public var unlockedFirst: Bool
    /// The notification's request as the app sees it: its identifier, category and text.
    public var requestIdentifier: String
    public var categoryIdentifier: String
    public var content: NotificationContent

    /// `UNNotificationDefaultActionIdentifier` and `UNNotificationDismissActionIdentifier`'s values.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    public init(
        actionIdentifier: String, userText: String? = nil, opensApp: Bool, unlockedFirst: Bool = false,
        requestIdentifier: String, categoryIdentifier: String, content: NotificationContent
    ) {
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.opensApp = opensApp
        self.unlockedFirst = unlockedFirst
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.content = content
    }

    /// The response to `request` on a notification shown as `presentation`, or why the person could not give it.
    /// The buttons are the expanded view's: the ones a person can reach.
    public static func answer(
        _ request: ResponseRequest, to presentation: NotificationPresentation, categories: AppCategories?,
        requestIdentifier: String, content: NotificationContent, locked: Bool = false
    ) -> Result<NotificationResponse, ResponseRefusal> {
        let categoryName = presentation.category?.identifier ?? ""
        func response(_ identifier: String, opensApp: Bool, text: String? = nil, unlocked: Bool = false)
            -> NotificationResponse
        {
            NotificationResponse(
                actionIdentifier: identifier, userText: text, opensApp: opensApp, unlockedFirst: unlocked,
                requestIdentifier: requestIdentifier, categoryIdentifier: categoryName, content: content)
        }
        switch request.action {
        case ResponseRequest.defaultAction:
            if request.text != nil { return .failure(ResponseRefusal("tapping the notification takes no text")) }
            return .success(response(defaultActionIdentifier, opensApp: true, unlocked: locked))
        case ResponseRequest.dismissAction:
            if request.text != nil { return .failure(ResponseRefusal("dismissing the notification takes no text")) }
            // https://developer.apple.com/documentation/usernotifications/unnotificationcategoryoptions/customdismissaction
            guard categories?.category(categoryName)?.options.contains(.customDismissAction) == true else {
                return .failure(
                    ResponseRefusal(
                        "dismissing tells the app nothing: the category \(categoryName.isEmpty ? "(none)" : categoryName) does not have the customDismissAction option"
                    ))
            }
            return .success(response(dismissActionIdentifier, opensApp: false))
        default:
            let buttons = presentation.view(.expanded)?.actions ?? []
            guard let action = buttons.first(where: { $0.identifier == request.action }) else {
                let names = buttons.map { "\"\($0.identifier)\"" }.joined(separator: ", ")
                return .failure(
                    ResponseRefusal(
                        "the notification has no button \"\(request.action)\" (\(buttons.isEmpty ? "it shows no buttons" : "its buttons are \(names)"); \"default\" taps the notification, \"dismiss\" dismisses it)"
                    ))
            }
            if action.textInput != nil {
                guard let text = request.text else {
                    return .failure(ResponseRefusal("the button \"\(action.identifier)\" asks for text: give \"text\""))
                }
                return .success(
                    response(
                        action.identifier, opensApp: action.foreground, text: text,
                        unlocked: locked && action.authenticationRequired))
            }
            if request.text != nil {
                return .failure(ResponseRefusal("the button \"\(action.identifier)\" takes no text"))
            }
            return .success(
                response(
                    action.identifier, opensApp: action.foreground,
                    unlocked: locked && (action.authenticationRequired || action.foreground)))
        }
    }

    /// The contract's `response`.
    public var jsonValue: JSONValue {
        [
            "actionIdentifier": .string(actionIdentifier), "userText": userText.map { .string($0) } ?? .null,
            "opensApp": .bool(opensApp), "unlockedFirst": .bool(unlockedFirst),
            "request": [
                "identifier": .string(requestIdentifier), "categoryIdentifier": .string(categoryIdentifier),
                "title": .string(content.title), "subtitle": .string(content.subtitle), "body": .string(content.body),
            ],
        ]
    }
}

/// Why a response could not be given, as a sentence.
public struct ResponseRefusal: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
