import PushwooshFramework

// Pushwoosh 7.1+'s recommended extension: an empty subclass of PushwooshNotificationServiceExtension, which does
// everything itself. For a Pushwoosh message (a payload with `pw_msg`) it downloads the top-level `attachment` URL
// with the shared URLSession (60 s, no status, Content-Type or size check), names the file UUID + the suggested file
// name (so iOS types it by that name's extension), appends it and records the `messageDeliveryEvent` it would send;
// any other payload is shown unchanged. When iOS's 30 s run out it hands over whatever it had applied by then.
class NotificationService: PushwooshNotificationServiceExtension {}
