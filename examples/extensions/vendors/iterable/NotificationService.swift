// Iterable's extension as Iterable's own sample apps write it: an empty subclass of ITBNotificationServiceExtension.
// The base class downloads `itbl.attachment-url` with URLSession's shared session (60 s, no Content-Type or size
// check), names the file UUID + the suggested file name, appends it to the content, and sets the category from
// `itbl.messageId`; pushes without an image are handed over once that category step is done. Under richpush the image
// follows the `iterable` SDK profile's rules, so this ends as `richpush --sdk iterable` does.
import IterableAppExtensions
import UserNotifications

class NotificationService: ITBNotificationServiceExtension {}
