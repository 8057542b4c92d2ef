// Batch's extension as Batch's header documents it: BAENotificationServiceExtension set as the base class, no method
// overridden. Batch's RichNotificationHelper downloads `com.batch.at.u` (20 s for the whole download) and attaches the
// downloaded file with the type hint `com.batch.at.t`; when the time runs out Batch does nothing, so iOS shows the
// original content. BatchExtension 4.0 sends nothing else. Under richpush the image follows the `batch` SDK profile's
// rules, so this ends as `richpush --sdk batch` does.
import BatchExtension

class NotificationService: BAENotificationServiceExtension {}
