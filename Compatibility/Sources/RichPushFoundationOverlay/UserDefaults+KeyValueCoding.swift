import Foundation

// On iOS, UserDefaults is an NSObject with key-value coding, and code that keeps a count in the App Group's defaults
// writes `defaults.setValue(1, forKey: "count")`; swift-corelibs-foundation's NSObject has no key-value coding.
// UserDefaults documents `setValue(_:forKey:)` as the same as `set(_:forKey:)` for its keys ("Key-Value Coding" in
// UserDefaults' reference), so that much is given here. Every file of a team's extension sees this module without
// importing it, as it sees Foundation's URLSession (ExtensionInput.implicitModules).
extension UserDefaults {
    /// Stores `value` for `key`, as `set(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) {
        set(value, forKey: key)
    }

    /// The value for `key`, as `object(forKey:)`.
    public func value(forKey key: String) -> Any? {
        object(forKey: key)
    }
}
