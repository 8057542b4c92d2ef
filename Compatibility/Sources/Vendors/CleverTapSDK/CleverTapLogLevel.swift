/// CleverTap's log levels (`NS_ENUM(int, CleverTapLogLevel)` in CleverTap.h at ac24bbf6): `setDebugLevel` takes
/// their raw values, or any other int.
public enum CleverTapLogLevel: Int32, Sendable {
    case off = -1
    case info = 0
    case debug = 1
}
