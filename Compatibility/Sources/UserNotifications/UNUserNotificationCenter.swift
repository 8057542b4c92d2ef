import Foundation
import RichPushHostProtocol

/// The app's notification center as iOS gives it to an extension, `UNUserNotificationCenter.current()`: the
/// notifications the phone shows for the app, its categories, its badge and the person's settings. Under richpush each
/// call goes to richpush (``RichPushHostChannel/ask(_:answer:)``), which keeps that state for the run (the
/// notifications presented earlier, `--categories`, the running badge, the phone of `--locked`, `--previews`, …) and
/// writes every call in the notification's timeline (`notificationCenter`). Completion handlers run on a background
/// queue, as Apple says they may; the async forms are the ones Apple documents beside each.
///
/// Outside richpush (no host) nothing answers: no delivered notifications, no categories, an authorized app.
/// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private static let shared = UNUserNotificationCenter()

    override init() { super.init() }

    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/current()
    open class func current() -> UNUserNotificationCenter { shared }

    // MARK: - Delivered notifications

    /// "Fetches all of your app's delivered notifications that are still present in Notification Center."
    /// `func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void)`
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/getdeliverednotifications(completionhandler:)
    open func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        RichPushHostChannel.ask(HostCenterCall(.getDelivered)) { answer in
            completionHandler((answer?.delivered ?? []).map(UNNotification.init(_:)))
        }
    }

    /// The async form of ``getDeliveredNotifications(completionHandler:)``: `func deliveredNotifications() async ->
    /// [UNNotification]` (the same page).
    open func deliveredNotifications() async -> [UNNotification] {
        await withCheckedContinuation { continuation in
            getDeliveredNotifications { continuation.resume(returning: UncheckedList($0)) }
        }.value
    }

    /// "Removes the specified notifications from Notification Center." No completion handler: iOS removes them in
    /// the background; under richpush a later call (``getDeliveredNotifications(completionHandler:)``) sees them gone.
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/removedeliverednotifications(withidentifiers:)
    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        let sent = Array(identifiers.prefix(HostCenterCall.maxListItems))
        RichPushHostChannel.ask(
            HostCenterCall(
                .removeDelivered, identifiers: sent,
                omitted: identifiers.count > sent.count ? identifiers.count - sent.count : nil))
    }

    /// "Removes all of your app's delivered notifications from Notification Center."
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/removealldeliverednotifications()
    open func removeAllDeliveredNotifications() {
        RichPushHostChannel.ask(HostCenterCall(.removeAllDelivered))
    }

    // MARK: - Categories

    /// "Registers the notification categories that your app supports." Replaces the app's categories (`--categories`
    /// included) for the rest of the run.
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/setnotificationcategories(_:)
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        let described = categories.map(\._described).sorted { $0.identifier < $1.identifier }
        let sent = Array(described.prefix(HostCenterCall.maxListItems))
        RichPushHostChannel.ask(
            HostCenterCall(
                .setCategories, categories: sent,
                omitted: described.count > sent.count ? described.count - sent.count : nil))
    }

    /// "Fetches your app's registered notification categories."
    /// `func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void)`
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/getnotificationcategories(completionhandler:)
    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        RichPushHostChannel.ask(HostCenterCall(.getCategories)) { answer in
            completionHandler(Set((answer?.categories ?? []).map(UNNotificationCategory.init(_:))))
        }
    }

    /// The async form: `func notificationCategories() async -> Set<UNNotificationCategory>` (the same page).
    open func notificationCategories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { continuation in
            getNotificationCategories { continuation.resume(returning: UncheckedList(Array($0))) }
        }.value.reduce(into: Set()) { $0.insert($1) }
    }

    // MARK: - Settings

    /// "Retrieves the notification authorization and feature-related settings for your app."
    /// `func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void)`
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/getnotificationsettings(completionhandler:)
    open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        RichPushHostChannel.ask(HostCenterCall(.getSettings)) { answer in
            completionHandler(answer?.settings.map(UNNotificationSettings.init(_:)) ?? .outsideRichPush)
        }
    }

    /// The async form: `func notificationSettings() async -> UNNotificationSettings` (the same page).
    open func notificationSettings() async -> UNNotificationSettings {
        await withCheckedContinuation { continuation in
            getNotificationSettings { continuation.resume(returning: UncheckedList([$0])) }
        }.value[0]
    }

    // MARK: - Badge

    /// "Updates the badge count for your app's icon." (iOS 16)
    /// `func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) ->
    /// Void)? = nil)`; a count below 0 fails with `UNError.badgeInputInvalid`.
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/setbadgecount(_:withcompletionhandler:)
    open func setBadgeCount(
        _ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        RichPushHostChannel.ask(HostCenterCall(.setBadgeCount, badge: newBadgeCount)) { answer in
            completionHandler?(Self.error(answer, badge: newBadgeCount))
        }
    }

    /// The async form: `func setBadgeCount(_ newBadgeCount: Int) async throws` (the same page).
    open func setBadgeCount(_ newBadgeCount: Int) async throws {
        let error: UncheckedList<any Error> = await withCheckedContinuation { continuation in
            setBadgeCount(newBadgeCount) { continuation.resume(returning: UncheckedList($0.map { [$0] } ?? [])) }
        }
        if let first = error.value.first { throw first }
    }

    // MARK: - Local notifications

    /// "Schedules the delivery of a local notification." richpush delivers a request without a trigger, or with a
    /// time interval trigger, through the same system as a push, after the notification being handled.
    /// `func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?)
    /// -> Void)? = nil)`
    /// https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/add(_:withcompletionhandler:)
    open func add(
        _ request: UNNotificationRequest,
        withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? =
            nil
    ) {
        var content = request.content._describe()
        content.attachments = []
        RichPushHostChannel.ask(
            HostCenterCall(.add, request: HostLocalRequest(identifier: request.identifier, content: content))
        ) { answer in
            completionHandler?(Self.error(answer, badge: nil))
        }
    }

    /// The async form: `func add(_ request: UNNotificationRequest) async throws` (the same page).
    open func add(_ request: UNNotificationRequest) async throws {
        let error: UncheckedList<any Error> = await withCheckedContinuation { continuation in
            add(request) { continuation.resume(returning: UncheckedList($0.map { [$0] } ?? [])) }
        }
        if let first = error.value.first { throw first }
    }

    /// The error richpush's answer carries, as the `UNError` iOS would give.
    private static func error(_ answer: HostCenterAnswer?, badge: Int?) -> (any Error)? {
        if let badge, badge < 0 { return UNError(.badgeInputInvalid, "a badge count below 0 (\(badge))") }
        guard let error = answer?.error else { return nil }
        return UNError(.notificationsNotAllowed, error)
    }
}

/// Hands the framework's objects out of a completion handler: they are not Sendable on iOS either.
private struct UncheckedList<Element>: @unchecked Sendable {
    let value: [Element]
    init(_ value: [Element]) { self.value = value }
}
