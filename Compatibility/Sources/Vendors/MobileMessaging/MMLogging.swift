import Foundation

/// A logger for Mobile Messaging (MMLoggingUtil.swift @ 14.4.3 46a218f0). `sendLogs(fromViewController:)` is left out:
/// it takes a UIKit view controller, which no extension has.
public protocol MMLogging: AnyObject {
    var logOutput: MMLogOutput { get set }
    var logLevel: MMLogLevel { get set }
    var logFilePaths: [String]? { get }
    func logDebug(message: String)
    func logInfo(message: String)
    func logError(message: String)
    func logWarn(message: String)
    func logVerbose(message: String)
}

/// How much a logger writes.
public enum MMLogLevel: UInt, Sendable {
    case Off, Error, Warning, Info, Debug, Verbose, All
}

/// Where a logger writes: options combined as bits.
public final class MMLogOutput: NSObject, Sendable {
    let rawValue: Int

    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public init(options: [MMLogOutput]) {
        rawValue = options.reduce(0) { $0 | $1.rawValue }
    }

    public func contains(options: MMLogOutput) -> Bool { rawValue & options.rawValue != 0 }

    public static let None = MMLogOutput(rawValue: 0)
    public static let Console = MMLogOutput(rawValue: 1 << 0)
    public static let ASL = MMLogOutput(rawValue: 1 << 1)
    public static let File = MMLogOutput(rawValue: 1 << 2)
}
