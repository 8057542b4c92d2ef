import Foundation

/// Mobile Messaging's own logger: lines to standard output, `<time> [MobileMessaging] <icon> <message>`
/// (MMLoggingUtil.swift @ 14.4.3 46a218f0).
public final class MMDefaultLogger: NSObject, MMLogging, @unchecked Sendable {
    // @unchecked: as Mobile Messaging's, its settings are set by the app's code before it logs.
    public var logOutput = MMLogOutput.Console
    public var logLevel = MMLogLevel.All
    public var logFilePaths: [String]? { nil }

    public override init() {
        super.init()
    }

    public func logDebug(message: String) { log("🛠", .Debug, message) }
    public func logInfo(message: String) { log("ℹ️", .Info, message) }
    public func logError(message: String) { log("‼️", .Error, message) }
    public func logWarn(message: String) { log("⚠️", .Warning, message) }
    public func logVerbose(message: String) { log("💬", .Verbose, message) }

    private func log(_ icon: String, _ level: MMLogLevel, _ message: String) {
        guard level.rawValue <= logLevel.rawValue, logOutput.contains(options: .Console) else { return }
        print("\(ISO8601DateFormatter().string(from: Date())) [MobileMessaging] \(icon) \(message)")
    }
}
