// Airship 14.x's extension module (`import AirshipExtensions`: pod AirshipExtensions, subspec NotificationService,
// AirshipExtensions.podspec @ 00348236), an Objective-C `UANotificationServiceExtension` with the same two methods;
// richpush's Swift class stands for it. Not emulated: the Objective-C class called the content handler at once when
// an image failed and again when the others had finished (UANotificationServiceExtension.m @ 3e645b5e).
@_exported import AirshipServiceExtension
