/// The notification categories an app registers, in the shape of its
/// `UNUserNotificationCenter.setNotificationCategories(_:)` call: the buttons a notification shows come from the
/// category its payload names (`aps.category`), and a category the app never registered shows none
/// (https://developer.apple.com/documentation/usernotifications/unnotificationcategory).
///
/// The file `--categories` and `given.categories` read:
/// ```json
/// {"appName": "Shop",
///  "categories": [{"identifier": "order",
///    "actions": [{"identifier": "track", "title": "Track"},
///                {"identifier": "cancel", "title": "Cancel order", "options": ["destructive"]},
///                {"identifier": "reply", "title": "Reply",
///                 "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}],
///    "hiddenPreviewsBodyPlaceholder": "%u new orders", "options": ["hiddenPreviewsShowTitle"]}]}
/// ```
public struct AppCategories: Sendable, Equatable {
    /// The name the phone shows above the notification (the app's display name); nil: "App".
    public var appName: String?
    public var categories: [NotificationCategory]

    public init(appName: String? = nil, categories: [NotificationCategory]) {
        self.appName = appName
        self.categories = categories
    }

    /// The registered category with this identifier; iOS matches it exactly.
    public func category(_ identifier: String) -> NotificationCategory? {
        categories.first { $0.identifier == identifier }
    }
}

/// `UNNotificationCategory`.
public struct NotificationCategory: Sendable, Equatable {
    public var identifier: String
    /// In the order the app gave them; a banner shows the first two.
    public var actions: [NotificationAction]
    /// `hiddenPreviewsBodyPlaceholder`: the body shown when previews are hidden (`%u` is the thread's count).
    public var hiddenPreviewsBodyPlaceholder: String?
    /// `categorySummaryFormat`: the summary of a stack ("%u more messages from %@").
    public var categorySummaryFormat: String?
    public var options: Set<Option>

    /// `UNNotificationCategoryOptions`
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationcategoryoptions).
    public enum Option: String, Sendable, CaseIterable {
        case customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle
        case allowAnnouncement
    }

    public init(
        identifier: String, actions: [NotificationAction] = [], hiddenPreviewsBodyPlaceholder: String? = nil,
        categorySummaryFormat: String? = nil, options: Set<Option> = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }
}

/// `UNNotificationAction`, or `UNTextInputNotificationAction` when it has ``textInput``
/// (https://developer.apple.com/documentation/usernotifications/unnotificationaction).
public struct NotificationAction: Sendable, Equatable {
    public var identifier: String
    public var title: String
    public var options: Set<Option>
    /// `UNNotificationActionIcon(systemImageName:)`'s name (iOS 15+).
    public var icon: String?
    public var textInput: TextInput?

    /// `UNNotificationActionOptions`
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationactionoptions).
    public enum Option: String, Sendable, CaseIterable {
        /// Drawn red ("special highlighting").
        case destructive
        /// Runs only on an unlocked phone: a locked one asks to unlock first.
        case authenticationRequired
        /// Opens the app.
        case foreground
    }

    /// `UNTextInputNotificationAction`'s `textInputButtonTitle` and `textInputPlaceholder`.
    public struct TextInput: Sendable, Equatable {
        public var buttonTitle: String
        public var placeholder: String
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public init(
        identifier: String, title: String, options: Set<Option> = [], icon: String? = nil,
        textInput: TextInput? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }
}

extension AppCategories {
    /// Reads a categories file; the error names the field and the problem (the caller adds the file's name).
    public static func parse(_ bytes: some Collection<UInt8>) throws(AppCategoriesError) -> AppCategories {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw AppCategoriesError("not valid JSON at \(error)")
        }
        guard case .object(let root) = document else {
            throw AppCategoriesError("must be a JSON object like {\"categories\": [...]}")
        }
        try only(["appName", "categories"], in: root, at: "")
        var app = AppCategories(categories: [])
        if let name = root["appName"] { app.appName = try string(name, at: "appName", nonEmpty: true) }
        guard case .array(let list)? = root["categories"] else {
            throw AppCategoriesError("\"categories\" must be an array of categories")
        }
        for (index, value) in list.enumerated() {
            let category = try Self.category(value, at: "categories[\(index)]")
            if app.category(category.identifier) != nil {
                throw AppCategoriesError(
                    "categories[\(index)].identifier: \"\(category.identifier)\" is registered twice")
            }
            app.categories.append(category)
        }
        return app
    }

    private static func category(_ value: JSONValue, at path: String) throws(AppCategoriesError)
        -> NotificationCategory
    {
        guard case .object(let object) = value else { throw AppCategoriesError("\(path) must be an object") }
        try only(
            [
                "identifier", "actions", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat", "options",
                "intentIdentifiers",
            ], in: object, at: path)
        var category = NotificationCategory(
            identifier: try string(object["identifier"], at: "\(path).identifier", nonEmpty: true))
        if let actions = object["actions"] {
            guard case .array(let list) = actions else {
                throw AppCategoriesError("\(path).actions must be an array of actions")
            }
            for (index, value) in list.enumerated() {
                let action = try Self.action(value, at: "\(path).actions[\(index)]")
                if category.actions.contains(where: { $0.identifier == action.identifier }) {
                    throw AppCategoriesError(
                        "\(path).actions[\(index)].identifier: \"\(action.identifier)\" is in this category twice")
                }
                category.actions.append(action)
            }
        }
        if let text = object["hiddenPreviewsBodyPlaceholder"] {
            category.hiddenPreviewsBodyPlaceholder = try string(text, at: "\(path).hiddenPreviewsBodyPlaceholder")
        }
        if let text = object["categorySummaryFormat"] {
            category.categorySummaryFormat = try string(text, at: "\(path).categorySummaryFormat")
        }
        if let intents = object["intentIdentifiers"] {
            guard case .array(let list) = intents, list.allSatisfy({ $0.stringValue != nil }) else {
                throw AppCategoriesError("\(path).intentIdentifiers must be an array of strings")
            }
        }
        category.options = try options(object["options"], at: "\(path).options")
        return category
    }

    private static func action(_ value: JSONValue, at path: String) throws(AppCategoriesError) -> NotificationAction {
        guard case .object(let object) = value else { throw AppCategoriesError("\(path) must be an object") }
        try only(["identifier", "title", "options", "icon", "textInput"], in: object, at: path)
        var action = NotificationAction(
            identifier: try string(object["identifier"], at: "\(path).identifier", nonEmpty: true),
            title: try string(object["title"], at: "\(path).title", nonEmpty: true))
        action.options = try options(object["options"], at: "\(path).options")
        if let icon = object["icon"] { action.icon = try string(icon, at: "\(path).icon", nonEmpty: true) }
        if let input = object["textInput"] {
            guard case .object(let fields) = input else {
                throw AppCategoriesError(
                    "\(path).textInput must be an object like {\"buttonTitle\": \"Send\", \"placeholder\": \"Message\"}"
                )
            }
            try only(["buttonTitle", "placeholder"], in: fields, at: "\(path).textInput")
            action.textInput = NotificationAction.TextInput(
                buttonTitle: try string(fields["buttonTitle"], at: "\(path).textInput.buttonTitle", nonEmpty: true),
                placeholder: try fields["placeholder"].map { value throws(AppCategoriesError) in
                    try string(value, at: "\(path).textInput.placeholder")
                } ?? "")
        }
        return action
    }

    private static func options<Option: RawRepresentable & CaseIterable & Hashable>(
        _ value: JSONValue?, at path: String
    ) throws(AppCategoriesError) -> Set<Option> where Option.RawValue == String {
        guard let value else { return [] }
        let known = Option.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .array(let list) = value else {
            throw AppCategoriesError("\(path) must be an array of \(known)")
        }
        var options: Set<Option> = []
        for (index, entry) in list.enumerated() {
            guard let name = entry.stringValue, let option = Option(rawValue: name) else {
                throw AppCategoriesError("\(path)[\(index)]: \(JSONWriter.string(entry)) is not one of \(known)")
            }
            options.insert(option)
        }
        return options
    }

    private static func string(_ value: JSONValue?, at path: String, nonEmpty: Bool = false) throws(AppCategoriesError)
        -> String
    {
        guard let value else { throw AppCategoriesError("\(path) is missing") }
        guard let text = value.stringValue, !(nonEmpty && text.isEmpty) else {
            throw AppCategoriesError(
                "\(path) must be a\(nonEmpty ? " non-empty" : "") string, not \(JSONWriter.string(value))")
        }
        return text
    }

    private static func only(_ keys: [String], in object: JSONObject, at path: String) throws(AppCategoriesError) {
        for key in object.keys where !keys.contains(key) {
            throw AppCategoriesError(
                "\(path.isEmpty ? "" : "\(path).")\(key) is not a key of \(path.isEmpty ? "the file" : "it"); known keys are \(keys.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
    }
}

/// Why a categories file cannot be used.
public struct AppCategoriesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
