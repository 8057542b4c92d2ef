// A Braze extension in the shape Braze's guide gives: an empty subclass of the SDK's own class, named with its module
// (`BrazeNotificationService.NotificationService`) because the app's class has the same name, with Xcode's Info.plist
// naming it as the principal class. Under richpush that class follows the `braze` profile: the image `ab.att.url`
// with its required type `ab.att.type`, downloaded with URLSession's defaults and named `<file>.<type>`; a notification
// without `ab` is delivered as it came, and a failure delivers the original content.
import BrazeNotificationService

class NotificationService: BrazeNotificationService.NotificationService {}
