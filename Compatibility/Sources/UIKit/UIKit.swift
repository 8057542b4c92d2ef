// UIKit as far as a Notification Service Extension may use it on iOS: images from data and files, PNG and JPEG
// out, drawing into an image (`UIGraphicsImageRenderer`, `UIGraphicsBeginImageContextWithOptions`), colours and
// fonts as values; `UIApplication.shared` is refused at build time, as in an extension. `CGFloat`, `CGSize`,
// `CGRect` and `CGPoint` come from Foundation on Linux.
//
// UIKit's headers import UserNotifications (`UIScene.ConnectionOptions.notificationResponse`), so a file that
// imports only UIKit sees the UserNotifications types too, as on iOS; Foundation (with URLSession) comes with it.
@_exported import Foundation
@_exported import UserNotifications
