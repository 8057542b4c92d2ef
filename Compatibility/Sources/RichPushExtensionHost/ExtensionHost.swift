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
/// - `each`: one notification; once its content handler has been called the process lingers
///   (``HostProtocol/linger``) so a second call is seen, then exits;
/// - `reuse`, `concurrent`: a new instance for every request, the process kept for later ones (richpush decides
///   whether they come one at a time or together, and when the process ends);
/// - `same-instance`: one instance receives every request.
///
/// The content is the one richpush decoded from the payload as iOS builds it (title, subtitle and body from
/// `aps.alert`, badge, sound, thread and category, `userInfo` the whole payload); the main run loop runs, so callbacks
/// scheduled on the main queue or as timers are served. A handler call carries, besides the content, the request the
/// content was made from (`contentOf`, a mark every copy of it keeps) and the request whose `didReceive` or
/// `serviceExtensionTimeWillExpire()` was running on the calling thread (`calledFrom`): either naming another request
/// is state shared between requests, shown by fact.
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
        let mode = environment[HostProtocol.Environment.processMode].flatMap(ExtensionProcessMode.init(named:)) ?? .each
        let lingerMilliseconds =
            environment[HostProtocol.Environment.lingerMilliseconds].flatMap { Int($0) }
            ?? HostProtocol.lingerMilliseconds
        let events = RichPushHostChannel.self
        events.send(.hello(protocolVersion: HostProtocol.version))
        guard let start = nextCommand(), start == .start else { exit(0) }
        let served = Served(make: UncheckedBox(make), sameInstance: mode == .sameInstance)
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
                            // Whose content this is, and whose code called the handler: facts, not guesses.
                            events.send(
                                .contentHandler(
                                    id: hostRequest.id, call: call, content: content._describe(),
                                    contentOf: content._origin, calledFrom: RichPushHostChannel.servingRequest))
                            if call == 1, mode == .each {
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
                case .answer(let serial, let answer)?:
                    // Handed to the call's completion on a background queue, as iOS does.
                    RichPushHostChannel.answered(serial, answer)
                case .start?:
                    events.send(.error(detail: "a second start command: ignored"))
                case nil:
                    events.send(
                        .error(
                            detail:
                                "a command line that is none of protocol \(HostProtocol.version): \(line.prefix(200))"))
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
    /// The content is marked as this request's: every copy the extension makes of it says whose it is.
    static func request(_ request: HostRequest) -> UNNotificationRequest? {
        guard let userInfo = try? JSONSerialization.jsonObject(with: Data(request.userInfo.utf8)) as? [String: Any]
        else { return nil }
        return UNNotificationRequest(
            identifier: request.id,
            content: UNNotificationContent(request.content, userInfo: userInfo, origin: request.id))
    }
}

/// The requests the process serves, on the main thread: the instance each gets, its handler calls counted, and
/// each one's payload, by which a vendor's module finds the request it reports about.
private final class Served: @unchecked Sendable {
    // @unchecked: every member is used on the main thread only (`serve` and `expire` are called from the main queue),
    // but for `lock`, which guards `payloads`, `waiting` and `order`, read from any thread in `request(owning:)`.
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
        // Kept for a vendor's report made later: the last requests' are enough.
        if order.count > Self.keptPayloads { payloads[order.removeFirst()] = nil }
        lock.unlock()
        let calls = CallCounter()
        let id = request.identifier
        RichPushHostChannel.serving(id) {
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
    }

    func expire(_ id: String) {
        guard let instance = instances[id] else { return }
        RichPushHostChannel.serving(id) { instance.serviceExtensionTimeWillExpire() }
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
