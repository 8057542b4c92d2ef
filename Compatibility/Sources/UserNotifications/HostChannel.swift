import Foundation
public import RichPushHostProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// What the system learns from inside an extension's process when it runs under richpush (`--extension`): one
/// ``HostEvent`` per line on the descriptor `RICHPUSH_EVENTS_FD` (``HostProtocol``). Outside richpush there is no such
/// descriptor and nothing is written.
///
/// iOS sees an attachment the extension failed to create (the error is the extension's to handle, and extensions
/// often drop it with `try?`); richpush reports it by name in the notification's timeline.
public enum RichPushHostChannel {
    private static let lock = NSLock()
    private static let descriptor: Int32? = ProcessInfo.processInfo.environment[
        HostProtocol.Environment.eventsDescriptor
    ].flatMap { Int32($0) }

    /// Writes `event` as one line, whole; false when there is no channel or it is closed. An event without a JSON
    /// form (a relevance score that is not a number) is reported as an error naming it, never dropped.
    @discardableResult
    public static func send(_ event: HostEvent) -> Bool {
        do {
            return write(try HostProtocol.line(event))
        } catch {
            return write((try? HostProtocol.line(HostEvent.error(detail: error.description))) ?? "")
        }
    }

    /// Writes `object` as one line: the raw form, for a test that speaks for an extension that lies.
    @discardableResult
    public static func send(_ object: [String: Any]) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return false
        }
        return write(String(decoding: data, as: UTF8.self))
    }

    nonisolated(unsafe) private static var lookup: (@Sendable ([AnyHashable: Any]) -> String?)?

    /// Set by the process host before any request: how a module finds the request a payload came with.
    public static func setRequestLookup(_ lookup: @escaping @Sendable ([AnyHashable: Any]) -> String?) {
        lock.lock()
        defer { lock.unlock() }
        Self.lookup = lookup
    }

    /// The request a vendor's module reports about: the one whose `didReceive` or `serviceExtensionTimeWillExpire()`
    /// runs on this thread (a fact, ``serving(_:_:)``), else the one whose payload `userInfo` is (one still waiting
    /// for its handler first, when several are alike), so that what a vendor's SDK reports for it goes to that
    /// notification alone when a process holds several (`--extension-process concurrent`); nil outside richpush's
    /// process host.
    public static func request(owning userInfo: [AnyHashable: Any]) -> String? {
        if let serving = servingRequest { return serving }
        lock.lock()
        let lookup = Self.lookup
        lock.unlock()
        return lookup?(userInfo)
    }

    /// Runs `body` with `id` as the request that what it reports is about, on this thread (a vendor module around
    /// the `UNNotificationAttachment` it makes for a request).
    public static func withRequest<Value>(_ id: String?, _ body: () throws -> Value) rethrows -> Value {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[requestKey]
        dictionary[requestKey] = id
        defer { dictionary[requestKey] = previous }
        return try body()
    }

    /// The request set by ``withRequest(_:_:)`` on this thread, else the one being served on it (``serving(_:_:)``).
    static var currentRequest: String? { Thread.current.threadDictionary[requestKey] as? String ?? servingRequest }
    private static let requestKey = "RichPushHostChannel.request"

    /// Runs `body` (a request's `didReceive` or `serviceExtensionTimeWillExpire()`) as request `id`'s code on this
    /// thread: a content handler called from inside it was called by that request (``HostEvent/contentHandler``'s
    /// `calledFrom`). Set by richpush's host only.
    package static func serving<Value>(_ id: String, _ body: () throws -> Value) rethrows -> Value {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[servingKey]
        dictionary[servingKey] = id
        defer { dictionary[servingKey] = previous }
        return try body()
    }

    /// The request whose `didReceive` or `serviceExtensionTimeWillExpire()` runs on this thread now.
    package static var servingRequest: String? { Thread.current.threadDictionary[servingKey] as? String }
    private static let servingKey = "RichPushHostChannel.serving"

    nonisolated(unsafe) private static var lastSerial = 0
    nonisolated(unsafe) private static var waiting: [Int: @Sendable (HostCenterAnswer?) -> Void] = [:]

    /// Sends a `UNUserNotificationCenter` call about the request whose code makes it (``currentRequest``); `answer`
    /// gets richpush's answer on a background queue, as iOS calls the center's completion handlers, with that request
    /// still current on its thread (a call made from the completion is that request's too); nil outside richpush, where
    /// nothing answers.
    package static func ask(_ call: HostCenterCall, answer: (@Sendable (HostCenterAnswer?) -> Void)? = nil) {
        let id = currentRequest
        var deliver: (@Sendable (HostCenterAnswer?) -> Void)?
        if let answer {
            deliver = { @Sendable reply in
                DispatchQueue.global().async { withRequest(id) { answer(reply) } }
            }
        }
        lock.lock()
        lastSerial += 1
        let serial = lastSerial
        if let deliver { waiting[serial] = deliver }
        lock.unlock()
        guard send(.center(serial: serial, id: id, call: call)) else {
            lock.lock()
            let waiter = waiting.removeValue(forKey: serial)
            lock.unlock()
            waiter?(nil)
            return
        }
    }

    /// richpush's answer to call `serial` (the process host reads it on standard input); one nobody waits for is
    /// dropped.
    package static func answered(_ serial: Int, _ answer: HostCenterAnswer) {
        lock.lock()
        let waiter = waiting.removeValue(forKey: serial)
        lock.unlock()
        waiter?(answer)
    }

    private static func write(_ line: String) -> Bool {
        guard let descriptor else { return false }
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        lock.lock()
        defer { lock.unlock() }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
