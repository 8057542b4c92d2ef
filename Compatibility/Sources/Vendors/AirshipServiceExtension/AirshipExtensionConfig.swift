import Foundation

/// What a subclass may set for the extension (`airshipConfig`, newest Airship versions): its logging.
/// AirshipExtensions/AirshipNotificationServiceExtension/Source/AirshipExtensionConfig.swift @ 5b3ea677.
public struct AirshipExtensionConfig: Sendable {
    /// The most detailed level logged; nil logs nothing.
    public var logLevel: AirshipExtensionLogLevel?
    /// Where the lines go; nil logs nothing.
    public var logHandler: (any AirshipExtensionLogHandler)?

    public init(
        logLevel: AirshipExtensionLogLevel? = .error,
        logHandler: (any AirshipExtensionLogHandler)? = .defaultLogger
    ) {
        self.logLevel = logLevel
        self.logHandler = logHandler
    }
}

/// Airship's extension log levels, least detailed first.
public enum AirshipExtensionLogLevel: String, Sendable, Decodable {
    case error, warn, info, debug, verbose

    /// Its place in the order: a line is logged when its level's place is at most the configured one's.
    var detail: Int {
        switch self {
        case .error: 0
        case .warn: 1
        case .info: 2
        case .debug: 3
        case .verbose: 4
        }
    }
}

/// Where the extension's log lines go. AirshipExtensionLogger.swift @ 1d0840b5.
public protocol AirshipExtensionLogHandler: Sendable {
    func log(logLevel: AirshipExtensionLogLevel, message: String, fileID: String, line: UInt, function: String)
}

extension AirshipExtensionLogHandler where Self == DefaultAirshipExtensionLogHandler {
    /// Airship's default: the unified log with the message private. Here: standard error, which richpush keeps as the
    /// extension's log.
    public static var defaultLogger: Self { DefaultAirshipExtensionLogHandler(isPublic: false) }
    /// Every line at `.notice`, public.
    public static var publicLogger: Self { DefaultAirshipExtensionLogHandler(isPublic: true) }
}

/// Airship's logger: `[<E|W|I|D|V>] <fileID> <function> [Line <n>] <message>`, written to standard error.
public final class DefaultAirshipExtensionLogHandler: AirshipExtensionLogHandler {
    /// Whether the message is public (on iOS a private one shows as `<private>` outside a debugger); richpush shows it
    /// either way.
    let isPublic: Bool

    init(isPublic: Bool) {
        self.isPublic = isPublic
    }

    public func log(
        logLevel: AirshipExtensionLogLevel, message: String, fileID: String, line: UInt, function: String
    ) {
        let initial = logLevel.rawValue.prefix(1).uppercased()
        FileHandle.standardError.write(Data("[\(initial)] \(fileID) \(function) [Line \(line)] \(message)\n".utf8))
    }
}

/// The configured handler at the configured level.
struct AirshipExtensionLogger: Sendable {
    let handler: (any AirshipExtensionLogHandler)?
    let level: AirshipExtensionLogLevel?

    init(_ config: AirshipExtensionConfig) {
        handler = config.logHandler
        level = config.logLevel
    }

    func log(
        _ messageLevel: AirshipExtensionLogLevel, _ message: @autoclosure () -> String, fileID: String = #fileID,
        line: UInt = #line, function: String = #function
    ) {
        guard let handler, let level, messageLevel.detail <= level.detail else { return }
        handler.log(logLevel: messageLevel, message: message(), fileID: fileID, line: line, function: function)
    }
}
