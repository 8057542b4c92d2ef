// Intents (SiriKit) as far as a Notification Service Extension uses it on iOS: the communication notification. An
// `INSendMessageIntent` names the message's sender (`INPerson`, with an `INImage` avatar) and conversation; the
// extension donates it (`INInteraction.donate`) and hands it to `UNNotificationContent.updating(from:)`, which makes
// the notification show the sender and avatar. Donations succeed and go nowhere: richpush has no Siri, Spotlight or
// share sheet to feed.
//
// Intents imports UserNotifications (INSendMessageIntent conforms to UNNotificationContentProviding), so a file that
// imports only Intents sees the UserNotifications types too; Foundation (with URLSession) comes with it.
@_exported import Foundation
@_exported import UserNotifications
