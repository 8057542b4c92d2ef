@_exported import Foundation

/// Firebase's app (`FIRApp`, Swift name `FirebaseApp`), as far as an extension's file touches it: Firebase's sample
/// extension needs none, but teams call `FirebaseApp.configure()` at the top of `didReceive` before
/// `exportDeliveryMetricsToBigQuery`. Here nothing is read or contacted: `configure()` makes the default app from
/// empty options, so the calls that follow work as after a configure on the phone.
///
/// The API is FirebaseCore/Sources/Public/FirebaseCore/FIRApp.h @ e002709d (firebase/firebase-ios-sdk).
open class FirebaseApp: NSObject, @unchecked Sendable {
    // @unchecked: as Firebase's class; its only mutable property is set by the app's own code.

    /// The apps configured in this process, by name.
    private static let registry = Registry()

    /// The default app's name, as Firebase names it.
    static let defaultName = "__FIRAPP_DEFAULT"

    public let name: String
    public let options: FirebaseOptions
    open var isDataCollectionDefaultEnabled = true

    init(name: String, options: FirebaseOptions) {
        self.name = name
        self.options = options
        super.init()
    }

    /// Makes the default app. Firebase reads GoogleService-Info.plist and raises if the default app exists; here the
    /// options are empty and a second call keeps the first app (one process per notification, under richpush).
    open class func configure() {
        configure(options: FirebaseOptions(googleAppID: "", gcmSenderID: ""))
    }

    open class func configure(options: FirebaseOptions) {
        configure(name: defaultName, options: options)
    }

    open class func configure(name: String, options: FirebaseOptions) {
        registry.add(FirebaseApp(name: name, options: options))
    }

    /// The default app, nil before ``configure()``.
    open class func app() -> FirebaseApp? { registry.app(named: defaultName) }

    open class func app(name: String) -> FirebaseApp? { registry.app(named: name) }

    open class var allApps: [String: FirebaseApp]? {
        let all = registry.all
        return all.isEmpty ? nil : all
    }

    /// Removes the app; `completion` says it was there.
    open func delete(_ completion: @escaping (Bool) -> Void) {
        completion(Self.registry.remove(named: name))
    }

    /// The configured apps; every access holds `lock`.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var apps: [String: FirebaseApp] = [:]

        func add(_ app: FirebaseApp) {
            lock.lock()
            defer { lock.unlock() }
            if apps[app.name] == nil { apps[app.name] = app }
        }

        func app(named name: String) -> FirebaseApp? {
            lock.lock()
            defer { lock.unlock() }
            return apps[name]
        }

        func remove(named name: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return apps.removeValue(forKey: name) != nil
        }

        var all: [String: FirebaseApp] {
            lock.lock()
            defer { lock.unlock() }
            return apps
        }
    }
}
