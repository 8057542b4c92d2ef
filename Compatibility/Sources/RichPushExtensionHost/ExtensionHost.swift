import Foundation
import UserNotifications

#if canImport(Glibc)
    import Glibc
#endif

/// The process side of `--extension`: what iOS does inside an extension's process, for one notification.
///
/// richpush starts one process per notification and talks to it over three channels:
/// - standard input: the first line is the request (`{"identifier": …, "content": {…}, "userInfo": {…}}`); a
///   later line `expire` means the budget ran out (iOS calls `serviceExtensionTimeWillExpire()`);
/// - the descriptor named by `RICHPUSH_EVENTS_FD`: one JSON object per line, `ready` once the principal class
///   exists, `contentHandler` for every call of the content handler, with the content and its attachments;
/// - standard output and standard error stay the extension's own (`print`, `NSLog`, `os_log`): richpush keeps
///   them as the extension's log.
///
/// The content is the one richpush decoded from the payload as iOS builds it (title, subtitle and body from
/// `aps.alert`, badge, sound, thread and category, `userInfo` the whole payload), `didReceive` is called on the main thread and the
/// main run loop runs, so callbacks scheduled on the main queue or as timers are served. Once the content handler
/// has been called the process lingers `RICHPUSH_LINGER_MS` (200 ms by default) so a second call is seen, then
/// exits; richpush ends it earlier or later as its own rules say.
public enum RichPushExtensionHost {
    /// Runs `principal` for the request on standard input; never returns.
    public static func run(_ principal: UNNotificationServiceExtension.Type) -> Never {
        // Lines the extension prints reach richpush as they are written, even if the process is then killed.
        setvbuf(stdout, nil, _IOLBF, 0)
        // Nothing of richpush's reaches the extension: descriptors past the events channel are closed.
        closeInheritedDescriptors(above: 3)
        // The process starts in its container's home, as an extension starts in its own sandbox.
        if let home = ProcessInfo.processInfo.environment["HOME"] { _ = chdir(home) }
        let events = RichPushHostChannel.self
        guard let line = readLine(strippingNewline: true), let request = Self.request(fromJSONLine: line) else {
            events.send(["event": "error", "detail": "the request line on standard input is not a request"])
            exit(70)
        }
        let lingerMilliseconds =
            ProcessInfo.processInfo.environment["RICHPUSH_LINGER_MS"].flatMap { Int($0) } ?? 200
        let instance = UncheckedBox(principal.init())
        events.send(["event": "ready"])

        let calls = CallCounter()
        let handler: (UNNotificationContent) -> Void = { content in
            let call = calls.next()
            events.send(["event": "contentHandler", "call": call, "content": Self.describe(content)])
            if call == 1 {
                DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(lingerMilliseconds)) {
                    // Not fflush(nil): it would wait for standard input's lock, held by the command reader.
                    fflush(stdout)
                    fflush(stderr)
                    _exit(0)
                }
            }
        }
        // Commands after the request: `expire` when the budget has run out.
        Thread.detachNewThread {
            while let command = readLine(strippingNewline: true) {
                if command == "expire" {
                    DispatchQueue.main.async { instance.value.serviceExtensionTimeWillExpire() }
                }
            }
        }
        let call = UncheckedBox((request, handler))
        DispatchQueue.main.async { instance.value.didReceive(call.value.0, withContentHandler: call.value.1) }
        // A timer far away keeps the run loop alive while the extension waits on the network.
        let keepAlive = Timer(timeInterval: 86_400, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .default)
        while true {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
    }

    /// The request iOS hands the extension, from richpush's request line; nil when the line is not one. richpush
    /// decoded the payload (the content iOS builds from `aps`, after any FCM translation); `userInfo` is the whole
    /// APNs payload, as on iOS.
    static func request(fromJSONLine line: String) -> UNNotificationRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let identifier = object["identifier"] as? String, let fields = object["content"] as? [String: Any],
            let userInfo = object["userInfo"] as? [String: Any]
        else { return nil }
        return UNNotificationRequest(identifier: identifier, content: content(fields, userInfo: userInfo))
    }

    /// The content from richpush's decoded fields.
    static func content(_ fields: [String: Any], userInfo: [String: Any]) -> UNNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = fields["title"] as? String ?? ""
        content.subtitle = fields["subtitle"] as? String ?? ""
        content.body = fields["body"] as? String ?? ""
        content.badge = fields["badge"] as? NSNumber
        if let sound = fields["sound"] as? String {
            content.sound = sound == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(sound))
        }
        content.threadIdentifier = fields["threadIdentifier"] as? String ?? ""
        content.categoryIdentifier = fields["categoryIdentifier"] as? String ?? ""
        content.targetContentIdentifier = fields["targetContentIdentifier"] as? String
        switch fields["interruptionLevel"] as? String {
        case "passive": content.interruptionLevel = .passive
        case "time-sensitive": content.interruptionLevel = .timeSensitive
        case "critical": content.interruptionLevel = .critical
        default: content.interruptionLevel = .active
        }
        if let score = fields["relevanceScore"] as? NSNumber { content.relevanceScore = score.doubleValue }
        content.userInfo = userInfo
        return content.copy() as? UNNotificationContent ?? content
    }

    /// The content as richpush reads it back.
    static func describe(_ content: UNNotificationContent) -> [String: Any] {
        var object: [String: Any] = [
            "title": content.title, "subtitle": content.subtitle, "body": content.body,
            "threadIdentifier": content.threadIdentifier, "categoryIdentifier": content.categoryIdentifier,
        ]
        if let badge = content.badge { object["badge"] = badge.intValue }
        if let sound = content.sound { object["sound"] = sound.name ?? "default" }
        object["attachments"] = content.attachments.map { attachment -> [String: Any] in
            ["identifier": attachment.identifier, "file": attachment.url.path, "type": attachment.type]
        }
        return object
    }
}

/// Hands the extension's objects to the main queue: iOS's classes are not Sendable, and the extension owns them.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Counts content handler calls, from whichever thread the extension calls it.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// Closes every descriptor above `highest`, so the extension holds nothing its parent had open.
private func closeInheritedDescriptors(above highest: Int32) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
    for entry in entries {
        if let descriptor = Int32(entry), descriptor > highest { close(descriptor) }
    }
}
