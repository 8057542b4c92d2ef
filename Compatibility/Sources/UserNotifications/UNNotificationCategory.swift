import Foundation
import RichPushHostProtocol

/// A type of notification the app supports, with its buttons: registered with
/// `UNUserNotificationCenter.setNotificationCategories(_:)`, chosen by a content's `categoryIdentifier`.
/// https://developer.apple.com/documentation/usernotifications/unnotificationcategory
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    open private(set) var options: UNNotificationCategoryOptions
    open private(set) var hiddenPreviewsBodyPlaceholder: String
    open private(set) var categorySummaryFormat: String

    /// `init(identifier:actions:intentIdentifiers:options:)`
    /// (https://developer.apple.com/documentation/usernotifications/unnotificationcategory/init(identifier:actions:intentidentifiers:options:)).
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: "", categorySummaryFormat: "", options: options)
    }

    /// `init(identifier:actions:intentIdentifiers:hiddenPreviewsBodyPlaceholder:options:)` (iOS 11).
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: "", options: options)
    }

    /// `init(identifier:actions:intentIdentifiers:hiddenPreviewsBodyPlaceholder:categorySummaryFormat:options:)`
    /// (iOS 12).
    public init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?,
        options: UNNotificationCategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
        self.categorySummaryFormat = categorySummaryFormat ?? ""
        super.init()
    }

    // A category is identified by its identifier in a Set, as iOS's registry keys them.
    open override var hash: Int { identifier.hashValue }
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationCategory)?.identifier == identifier
    }

    /// As the host protocol carries it to richpush.
    package var _described: HostCategory {
        HostCategory(
            identifier: identifier, actions: actions.map(\._described), intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder.isEmpty ? nil : hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: categorySummaryFormat.isEmpty ? nil : categorySummaryFormat,
            options: UNNotificationCategoryOptions.names.filter { options.contains($0.option) }.map(\.name))
    }

    /// As richpush answers it (`getNotificationCategories`).
    package convenience init(_ category: HostCategory) {
        self.init(
            identifier: category.identifier, actions: category.actions.map(UNNotificationAction.make),
            intentIdentifiers: category.intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: category.categorySummaryFormat,
            options: UNNotificationCategoryOptions(
                UNNotificationCategoryOptions.names.filter { category.options.contains($0.name) }.map(\.option)))
    }
}

/// https://developer.apple.com/documentation/usernotifications/unnotificationcategoryoptions
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let customDismissAction = Self(rawValue: 1 << 0)
    public static let allowInCarPlay = Self(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = Self(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = Self(rawValue: 1 << 3)
    public static let allowAnnouncement = Self(rawValue: 1 << 4)

    static let names: [(name: String, option: Self)] = [
        ("customDismissAction", .customDismissAction), ("allowInCarPlay", .allowInCarPlay),
        ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
        ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle), ("allowAnnouncement", .allowAnnouncement),
    ]
}

/// A button of a notification. https://developer.apple.com/documentation/usernotifications/unnotificationaction
open class UNNotificationAction: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions

    /// `init(identifier:title:options:)`.
    public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
        super.init()
    }

    package var _described: HostAction {
        HostAction(
            identifier: identifier, title: title,
            options: UNNotificationActionOptions.names.filter { options.contains($0.option) }.map(\.name))
    }

    static func make(_ action: HostAction) -> UNNotificationAction {
        let options = UNNotificationActionOptions(
            UNNotificationActionOptions.names.filter { action.options.contains($0.name) }.map(\.option))
        if let button = action.textInputButtonTitle {
            return UNTextInputNotificationAction(
                identifier: action.identifier, title: action.title, options: options, textInputButtonTitle: button,
                textInputPlaceholder: action.textInputPlaceholder ?? "")
        }
        return UNNotificationAction(identifier: action.identifier, title: action.title, options: options)
    }
}

/// A button that takes text. https://developer.apple.com/documentation/usernotifications/untextinputnotificationaction
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    open private(set) var textInputButtonTitle: String
    open private(set) var textInputPlaceholder: String

    /// `init(identifier:title:options:textInputButtonTitle:textInputPlaceholder:)`.
    public init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options)
    }

    package override var _described: HostAction {
        var described = super._described
        described.textInputButtonTitle = textInputButtonTitle
        described.textInputPlaceholder = textInputPlaceholder
        return described
    }
}

/// https://developer.apple.com/documentation/usernotifications/unnotificationactionoptions
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let authenticationRequired = Self(rawValue: 1 << 0)
    public static let destructive = Self(rawValue: 1 << 1)
    public static let foreground = Self(rawValue: 1 << 2)

    static let names: [(name: String, option: Self)] = [
        ("authenticationRequired", .authenticationRequired), ("destructive", .destructive),
        ("foreground", .foreground),
    ]
}
