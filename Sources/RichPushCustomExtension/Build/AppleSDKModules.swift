/// The module names of Apple's iOS SDK (iOS 17 and 18: the frameworks in `iPhoneOS.sdk/System/Library/Frameworks`
/// and the system libraries with a module map in `usr/include`, as Apple's framework index lists them,
/// https://developer.apple.com/documentation/technologies). An `import` of one of these that richpush does not provide
/// is "Apple's X is not provided", never a third-party library.
enum AppleSDKModules {
    static let all: Set<String> = [
        // Frameworks.
        "Accelerate", "Accessibility", "AccessorySetupKit", "ActivityKit", "AdAttributionKit", "AdServices",
        "AdSupport", "AddressBook", "AddressBookUI", "AppClip", "AppIntents", "AppTrackingTransparency", "ARKit",
        "AssetsLibrary", "AudioToolbox", "AudioUnit", "AuthenticationServices", "AutomaticAssessmentConfiguration",
        "AVFAudio", "AVFoundation", "AVKit", "AVRouting", "BackgroundAssets", "BackgroundTasks", "BrowserEngineKit",
        "BusinessChat", "CallKit", "CarPlay", "CFNetwork", "Charts", "CloudKit", "Cinematic", "ClassKit",
        "ClockKit", "Combine", "Contacts", "ContactsUI", "CoreAudio", "CoreAudioKit", "CoreAudioTypes",
        "CoreBluetooth", "CoreData", "CoreFoundation", "CoreGraphics", "CoreHaptics", "CoreImage",
        "CoreLocation", "CoreLocationUI", "CoreMedia", "CoreMIDI", "CoreML", "CoreMotion", "CoreNFC", "CoreServices",
        "CoreSpotlight", "CoreTelephony", "CoreText", "CoreTransferable", "CoreVideo", "CryptoKit",
        "CryptoTokenKit", "DataDetection", "DeveloperToolsSupport", "DeviceActivity", "DeviceCheck",
        "DeviceDiscoveryExtension", "EventKit", "EventKitUI", "ExposureNotification", "ExtensionFoundation",
        "ExtensionKit", "ExternalAccessory", "FamilyControls", "FileProvider", "FileProviderUI", "FinanceKit",
        "FinanceKitUI", "Foundation", "GameController", "GameKit", "GameplayKit", "GLKit", "GroupActivities",
        "HealthKit", "HealthKitUI", "HomeKit", "IdentityLookup", "IdentityLookupUI", "ImageCaptureCore", "ImageIO",
        "Intents", "IntentsUI", "IOSurface", "JavaScriptCore", "JournalingSuggestions", "LinkPresentation",
        "LiveCommunicationKit", "LocalAuthentication", "LocalAuthenticationEmbeddedUI", "LockedCameraCapture",
        "ManagedAppDistribution", "ManagedSettings", "ManagedSettingsUI", "MapKit", "MatterSupport",
        "MediaAccessibility",
        "MediaPlayer", "MediaSetup", "MediaToolbox", "MessageUI", "Messages", "Metal", "MetalFX", "MetalKit",
        "MetalPerformanceShaders", "MetalPerformanceShadersGraph", "MetricKit", "MLCompute", "MobileCoreServices",
        "ModelIO", "MultipeerConnectivity", "MusicKit", "NaturalLanguage", "NearbyInteraction", "Network",
        "NetworkExtension", "NewsstandKit", "NotificationCenter", "OpenAL", "OpenGLES", "OSLog", "PassKit",
        "PDFKit", "PencilKit", "PhotoKit", "Photos", "PhotosUI", "PushKit", "PushToTalk", "QuartzCore",
        "QuickLook", "QuickLookThumbnailing", "RealityFoundation", "RealityKit", "ReplayKit", "RoomPlan",
        "SafariServices", "SafetyKit", "SceneKit", "ScreenTime", "Security", "SensitiveContentAnalysis",
        "SensorKit", "ServiceManagement", "SharedWithYou", "SharedWithYouCore", "ShazamKit", "Social",
        "SoundAnalysis", "Speech", "SpriteKit", "StoreKit", "SwiftData", "SwiftUI", "Symbols", "SystemConfiguration",
        "ThreadNetwork", "TipKit", "Translation", "TVMLKit", "UIKit", "UniformTypeIdentifiers", "UserNotifications",
        "UserNotificationsUI", "VideoSubscriberAccount", "VideoToolbox", "Vision", "VisionKit", "WatchConnectivity",
        "WeatherKit", "WebKit", "WidgetKit", "WorkoutKit",
        // System libraries and language modules.
        "Compression", "SQLite3", "zlib", "libxml2", "CommonCrypto", "Darwin", "Dispatch", "ObjectiveC", "os",
        "simd", "MachO", "Observation", "RegexBuilder", "Swift", "XCTest", "Distributed", "Synchronization",
        "libkern", "notify", "Spatial", "System",
    ]

    static func contains(_ name: String) -> Bool { all.contains(name) }
}
