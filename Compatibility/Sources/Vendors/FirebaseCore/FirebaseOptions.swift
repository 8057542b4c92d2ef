import Foundation

/// A Firebase app's options (`FIROptions`, Swift name `FirebaseOptions`): kept as given, never used to contact
/// Firebase. FirebaseCore/Sources/Public/FirebaseCore/FIROptions.h @ 0fbaa007.
open class FirebaseOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked: as Firebase's class, its properties are set by the app's own code.
    open var apiKey: String?
    open var bundleID: String
    open var clientID: String?
    open var gcmSenderID: String
    open var projectID: String?
    open var googleAppID: String
    open var databaseURL: String?
    open var storageBucket: String?
    open var appGroupID: String?

    public init(googleAppID: String, gcmSenderID: String) {
        self.googleAppID = googleAppID
        self.gcmSenderID = gcmSenderID
        bundleID = Bundle.main.bundleIdentifier ?? ""
        super.init()
    }

    /// The options of a GoogleService-Info.plist; nil when the file cannot be read or lacks `GOOGLE_APP_ID`.
    public convenience init?(contentsOfFile plistPath: String) {
        guard let data = FileManager.default.contents(atPath: plistPath),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let appID = plist["GOOGLE_APP_ID"] as? String
        else { return nil }
        self.init(googleAppID: appID, gcmSenderID: plist["GCM_SENDER_ID"] as? String ?? "")
        apiKey = plist["API_KEY"] as? String
        clientID = plist["CLIENT_ID"] as? String
        projectID = plist["PROJECT_ID"] as? String
        databaseURL = plist["DATABASE_URL"] as? String
        storageBucket = plist["STORAGE_BUCKET"] as? String
        if let bundle = plist["BUNDLE_ID"] as? String { bundleID = bundle }
    }

    /// The options of the default app's GoogleService-Info.plist: nil here, where the extension's bundle has none.
    open class func defaultOptions() -> FirebaseOptions? {
        Bundle.main.path(forResource: "GoogleService-Info", ofType: "plist").flatMap {
            FirebaseOptions(contentsOfFile: $0)
        }
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = FirebaseOptions(googleAppID: googleAppID, gcmSenderID: gcmSenderID)
        copy.apiKey = apiKey
        copy.bundleID = bundleID
        copy.clientID = clientID
        copy.projectID = projectID
        copy.databaseURL = databaseURL
        copy.storageBucket = storageBucket
        copy.appGroupID = appGroupID
        return copy
    }
}
