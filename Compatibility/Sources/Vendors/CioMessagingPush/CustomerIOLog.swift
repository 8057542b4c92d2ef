import CioInternalCommon
import Foundation

/// Customer.io's logger, as far as the extension's path logs (Sources/Common/Util/Log.swift at 4d82f153,
/// Sources/MessagingPush/Util/PushNotificationLogger.swift at 32dbddb5): a message at or under the configured level,
/// tagged `[Push]`, on standard output.
struct CustomerIOLog {
    let level: CioLogLevel

    func debug(_ message: String) { write(message, .debug) }
    func info(_ message: String) { write(message, .info) }
    func error(_ message: String) { write(message, .error) }

    private func write(_ message: String, _ at: CioLogLevel) {
        guard level.shouldLog(at) else { return }
        print("[CIO] [Push] \(message)")
    }
}
