// Airship 8-12's extension module (`import AirshipAppExtensions`: pod UrbanAirship-iOS-AppExtensions, module_name
// AirshipAppExtensions, UrbanAirship-iOS-AppExtensions.podspec @ 05f9f118), an Objective-C
// `UANotificationServiceExtension` of the same name and methods; richpush's Swift class stands for it (its own code
// was not read).
@_exported import AirshipServiceExtension
