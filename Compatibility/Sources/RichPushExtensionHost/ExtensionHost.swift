import Foundation
import RichPushHostProtocol
import UserNotifications

#if canImport(Glibc)
    import Glibc
#endif

/// The process side of `--extension`: what iOS does inside an extension's process, for one notification.
///
/// It speaks ``HostProtocol`` with richpush: it says hello before the principal class exists and waits for `start`
/// (richpush takes the process's memory baseline then), makes the principal class and says `ready`, then hands the
/// request to `didReceive`, reporting every content handler call. `expire` calls `serviceExtensionTimeWillExpire()`.
/// When its standard input ends, richpush is gone, and the process exits at once.
///
/// The content is the one richpush decoded from the payload as iOS builds it (title, subtitle and body from
/// `aps.alert`, badge, sound, thread and category, `userInfo` the whole payload), `didReceive` is called on the main
/// thread and the main run loop runs, so callbacks scheduled on the main queue or as timers are served. Once the
/// content handler has been called the process lingers `RICHPUSH_LINGER_MS` (200 ms by default) so a second call is
/// seen, then exits; richpush ends it earlier or later as its own rules say.
public enum RichPushExtensionHost {
    /// Runs the principal class `make` makes (the generated `main.swift` names it: `{ NotificationService() }`) for the
    /// request on standard input; never returns.
    public static func run(_ make: () -> UNNotificationServiceExtension) -> Never {
        // Lines the extension prints reach richpush as they are written, even if the process is then killed.
        setvbuf(stdout, nil, _IOLBF, 0)
        // Nothing of richpush's reaches the extension: descriptors past the events channel are closed.
        closeInheritedDescriptors(above: 3)
        // The process starts in its container's home, as an extension starts in its own sandbox.
        if let home = ProcessInfo.processInfo.environment["HOME"] { _ = chdir(home) }
        let events = RichPushHostChannel.self
        events.send(.hello(protocolVersion: HostProtocol.version))
        guard let start = nextCommand(), start == .start else { exit(0) }
        let instance = UncheckedBox(make())
        events.send(.ready)
        guard case .request(let hostRequest)? = nextCommand(), let request = Self.request(hostRequest) else {
            events.send(.error(detail: "the line after start on standard input is not a request"))
            exit(70)
        }
        let lingerMilliseconds =
            ProcessInfo.processInfo.environment["RICHPUSH_LINGER_MS"].flatMap { Int($0) } ?? 200

        let calls = CallCounter()
        let id = hostRequest.id
        let handler: (UNNotificationContent) -> Void = { content in
            let call = calls.next()
            events.send(.contentHandler(id: id, call: call, content: Self.describe(content)))
            if call == 1 {
                DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(lingerMilliseconds)) {
                    // Not fflush(nil): it would wait for standard input's lock, held by the command reader.
                    fflush(stdout)
                    fflush(stderr)
                    _exit(0)
                }
            }
        }
        // Commands after the request: `expire` when the budget has run out. The end of standard input means richpush
        // has gone: nothing is left to serve.
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) {
                if case .expire = HostProtocol.decode(HostCommand.self, from: line) {
                    DispatchQueue.main.async { instance.value.serviceExtensionTimeWillExpire() }
                }
            }
            _exit(0)
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

    /// The next command on standard input; nil at its end or for a line that is none.
    static func nextCommand() -> HostCommand? {
        readLine(strippingNewline: true).flatMap { HostProtocol.decode(HostCommand.self, from: $0) }
    }

    /// The request iOS hands the extension; nil when `userInfo` is not a JSON object. richpush decoded the payload
    /// (the content iOS builds from `aps`, after any FCM translation); `userInfo` is the whole APNs payload, as on iOS.
    static func request(_ request: HostRequest) -> UNNotificationRequest? {
        guard let userInfo = try? JSONSerialization.jsonObject(with: Data(request.userInfo.utf8)) as? [String: Any]
        else { return nil }
        return UNNotificationRequest(identifier: request.id, content: content(request.content, userInfo: userInfo))
    }

    /// The content iOS builds, from richpush's decoded fields.
    static func content(_ fields: HostContent, userInfo: [String: Any]) -> UNNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = fields.title
        content.subtitle = fields.subtitle
        content.body = fields.body
        content.badge = fields.badge.map { NSNumber(value: $0) }
        if let sound = fields.sound {
            content.sound = sound == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(sound))
        }
        content.threadIdentifier = fields.threadIdentifier
        content.categoryIdentifier = fields.categoryIdentifier
        content.targetContentIdentifier = fields.targetContentIdentifier
        switch fields.interruptionLevel {
        case "passive": content.interruptionLevel = .passive
        case "time-sensitive": content.interruptionLevel = .timeSensitive
        case "critical": content.interruptionLevel = .critical
        default: content.interruptionLevel = .active
        }
        if let score = fields.relevanceScore { content.relevanceScore = score }
        content.userInfo = userInfo
        return content.copy() as? UNNotificationContent ?? content
    }

    /// The content as richpush reads it back, with the sender and conversation of a communication notification
    /// (`updating(from:)` with an `INSendMessageIntent`): the avatar's bytes are written into the notification's
    /// attachment store, where richpush reads attachments, and given by path.
    static func describe(_ content: UNNotificationContent) -> HostContent {
        HostContent(
            title: content.title, subtitle: content.subtitle, body: content.body, badge: content.badge?.intValue,
            sound: content.sound.map { $0.name ?? "default" }, threadIdentifier: content.threadIdentifier,
            categoryIdentifier: content.categoryIdentifier,
            attachments: content.attachments.map {
                HostAttachment(identifier: $0.identifier, file: $0.url.path, type: $0.type)
            },
            communication: content._communication.map {
                HostCommunication(
                    senderName: $0.senderName ?? "", senderHandle: $0.senderHandle, avatarFile: $0._writeAvatar(),
                    conversationIdentifier: $0.conversationIdentifier, groupName: $0.groupName)
            })
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
