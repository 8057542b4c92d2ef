// Airship's extension module under its Swift package name (`import AirshipNotificationServiceExtension`: product and
// target of urbanairship/ios-library's Package.swift @ 00013e79, and the repository's own sample extension); the same
// code CocoaPods builds as `AirshipServiceExtension`.
@_exported import AirshipServiceExtension
