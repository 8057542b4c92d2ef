import Foundation

/// The CocoaLumberjack logger the extension sample sets (Classes/Logging/CocoaLumberjack/MMLumberjackLogger.swift @
/// 14.4.3 46a218f0; pod subspec `CocoaLumberjack`, SwiftPM product `MobileMessagingLogging`, which has no module here):
/// console lines as ``MMDefaultLogger`` writes them; files and the system log are not kept.
public final class MMLumberjackLogger: NSObject, MMLogging, @unchecked Sendable {
    // @unchecked: as Mobile Messaging's, its settings are set by the app's code before it logs.
    private let console = MMDefaultLogger()
    public var logOutput: MMLogOutput {
        get { console.logOutput }
        set { console.logOutput = newValue }
    }
    public var logLevel: MMLogLevel {
        get { console.logLevel }
        set { console.logLevel = newValue }
    }
    public var logFilePaths: [String]? { nil }

    public init(logOutput: MMLogOutput, logLevel: MMLogLevel) {
        super.init()
        self.logOutput = logOutput
        self.logLevel = logLevel
    }

    /// Console output at `.Warning`, as the SDK's debug builds start.
    public convenience override init() {
        self.init(logOutput: .Console, logLevel: .Warning)
    }

    public func logDebug(message: String) { console.logDebug(message: message) }
    public func logInfo(message: String) { console.logInfo(message: message) }
    public func logError(message: String) { console.logError(message: message) }
    public func logWarn(message: String) { console.logWarn(message: message) }
    public func logVerbose(message: String) { console.logVerbose(message: message) }
}
