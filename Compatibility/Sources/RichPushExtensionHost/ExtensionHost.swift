import Foundation
import RichPushHostProtocol
import UserNotifications

#if canImport(Glibc)
    import Glibc
#endif

/// The process side of `--extension`: what iOS does inside an extension's process.
///
/// It speaks ``HostProtocol`` with richpush: it says hello before the principal class exists and waits for `start`
/// (richpush takes the process's memory baseline then), then serves each `request` on the main thread with an
/// instance of the principal class, reporting every content handler call; `expire` calls that request's instance's
/// `serviceExtensionTimeWillExpire()`. When its standard input ends, richpush is gone, and the process exits at once.
///
/// How notifications map to the process (`RICHPUSH_PROCESS_MODE`), as iOS may run an extension:
/// - `each`: one notification; once its content handler has been called the process lingers `RICHPUSH_LINGER_MS`
///   (200 ms by default) so a second call is seen, then exits;
/// - `reuse`, `concurrent`: a new instance for every request, the process kept for later ones (richpush decides
///   whether they come one at a time or together, and when the process ends);
/// - `same-instance`: one instance receives every request.
///
/// The content is the one richpush decoded from the payload as iOS builds it (title, subtitle and body from
/// `aps.alert`, badge, sound, thread and category, `userInfo` the whole payload); the main run loop runs, so callbacks
/// scheduled on the main queue or as timers are served. A handler call carries, besides the content, the request
/// whose `userInfo` the content has (`contentOf`): a handler that delivers another notification's content is how
/// state shared between requests shows.
public enum RichPushExtensionHost {
    /// Runs the principal class `make` makes (the generated `main.swift` names it: `{ NotificationService() }`) for the
    /// requests on standard input; never returns.
    public static func run(_ make: @escaping () -> UNNotificationServiceExtension) -> Never {
        // Lines the extension prints reach richpush as they are written, even if the process is then killed.
        setvbuf(stdout, nil, _IOLBF, 0)
        // Nothing of richpush's reaches the extension: descriptors past the events channel are closed.
        closeInheritedDescriptors(above: 3)
        // The process starts in its container's home, as an extension starts in its own sandbox.
        if let home = ProcessInfo.processInfo.environment["HOME"] { _ = chdir(home) }
        let environment = ProcessInfo.processInfo.environment
        let mode = environment["RICHPUSH_PROCESS_MODE"] ?? "each"
        let lingerMilliseconds = environment["RICHPUSH_LINGER_MS"].flatMap { Int($0) } ?? 200
        let events = RichPushHostChannel.self
        events.send(.hello(protocolVersion: HostProtocol.version))
        guard let start = nextCommand(), start == .start else { exit(0) }
        let served = Served(make: UncheckedBox(make), sameInstance: mode == "same-instance")
        // Made before any request, as iOS makes it when the extension launches: memory its init takes is counted.
        served.makeFirstInstance()
        events.setRequestLookup { userInfo in served.request(owning: Self.canonical(userInfo)) }
        events.send(.ready)
        // Commands: requests, and `expire` when a request's budget has run out. The end of standard input means
        // richpush has gone: nothing is left to serve.
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) {
                switch HostProtocol.decode(HostCommand.self, from: line) {
                case .request(let hostRequest)?:
                    guard let request = Self.request(hostRequest) else {
                        events.send(.error(detail: "request \(hostRequest.id): its userInfo is not a JSON object"))
                        continue
                    }
                    let userInfo = UncheckedBox(Self.canonical(request.content.userInfo))
                    let box = UncheckedBox(request)
                    DispatchQueue.main.async {
                        served.serve(box.value, userInfo: userInfo.value) { content, call in
                            events.send(
                                .contentHandler(
                                    id: hostRequest.id, call: call, content: Self.describe(content),
                                    contentOf: served.owner(of: Self.canonical(content.userInfo), own: hostRequest.id)))
                            if call == 1, mode == "each" {
                                DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(lingerMilliseconds)) {
                                    // Not fflush(nil): it would wait for standard input's lock, held by this reader.
                                    fflush(stdout)
                                    fflush(stderr)
                                    _exit(0)
                                }
                            }
                        }
                    }
                case .expire(let id)?:
                    DispatchQueue.main.async { served.expire(id) }
                default:
                    break
                }
            }
            _exit(0)
        }
        // A timer far away keeps the run loop alive while the extension waits on the network.
        let keepAlive = Timer(timeInterval: 86_400, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .default)
        while true {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
    }

    /// A `userInfo` as one text, keys sorted: two requests' payloads compare by it.
    static func canonical(_ userInfo: [AnyHashable: Any]) -> String {
        var plain: [String: Any] = [:]
        for (key, value) in userInfo { plain["\(key)"] = value }
        guard JSONSerialization.isValidJSONObject(plain),
            let data = try? JSONSerialization.data(withJSONObject: plain, options: [.sortedKeys])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
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

/// The requests the process serves, on the main thread: the instance each gets, its handler calls counted, and
/// whose `userInfo` a delivered content carries.
private final class Served: @unchecked Sendable {
    // @unchecked: every member is used on the main thread only (`serve`, `expire`, `owner` are called from the main
    // queue), but for `lock`, which guards `payloads`, `waiting` and `order`, read from any thread in `owner(of:)` and
    // `request(owning:)`.
    private let make: UncheckedBox<() -> UNNotificationServiceExtension>
    private let sameInstance: Bool
    private var shared: UNNotificationServiceExtension?
    private var instances: [String: UNNotificationServiceExtension] = [:]
    private let lock = NSLock()
    private var payloads: [String: String] = [:]
    /// Requests whose handler was not called yet.
    private var waiting: Set<String> = []
    private var order: [String] = []
    private static let keptPayloads = 256

    init(make: UncheckedBox<() -> UNNotificationServiceExtension>, sameInstance: Bool) {
        self.make = make
        self.sameInstance = sameInstance
    }

    func makeFirstInstance() {
        shared = make.value()
    }

    /// Hands `request` to an instance's `didReceive`: the first one made, then a new one each time (one instance
    /// for every request in `same-instance`).
    func serve(
        _ request: UNNotificationRequest, userInfo: String,
        report: @escaping (UNNotificationContent, Int) -> Void
    ) {
        let instance: UNNotificationServiceExtension
        if sameInstance, let shared {
            instance = shared
        } else if let first = shared {
            // The instance made at launch serves the first request.
            instance = first
            shared = nil
        } else {
            instance = make.value()
        }
        instances[request.identifier] = instance
        lock.lock()
        payloads[request.identifier] = userInfo
        waiting.insert(request.identifier)
        order.append(request.identifier)
        // Kept for a content delivered later, from another request's: the last requests' are enough.
        if order.count > Self.keptPayloads { payloads[order.removeFirst()] = nil }
        lock.unlock()
        let calls = CallCounter()
        let id = request.identifier
        instance.didReceive(request) { content in
            let call = calls.next()
            report(content, call)
            // iOS lets go of an instance once its handler was called: what it holds (a task, its session) goes too.
            if call == 1 {
                self.lock.lock()
                self.waiting.remove(id)
                self.lock.unlock()
                DispatchQueue.main.async { self.instances[id] = nil }
            }
        }
    }

    func expire(_ id: String) {
        instances[id]?.serviceExtensionTimeWillExpire()
    }

    /// The request whose payload `userInfo` is: one still waiting for its handler first, then the latest; nil when it
    /// is none of them.
    func request(owning userInfo: String) -> String? {
        guard !userInfo.isEmpty else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let alike = order.filter { payloads[$0] == userInfo }
        return alike.last { waiting.contains($0) } ?? alike.last
    }

    /// The request whose payload a content's `userInfo` is, `own` first when two are alike; nil when it is none of
    /// them (the extension changed it).
    func owner(of userInfo: String, own: String) -> String? {
        guard !userInfo.isEmpty else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if payloads[own] == userInfo { return own }
        return payloads.first { $0.value == userInfo }?.key
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
