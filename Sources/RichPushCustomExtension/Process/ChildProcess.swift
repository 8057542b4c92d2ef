import CProcessSpawn
import Foundation
import RichPushHostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process with its standard input, output and error and one more descriptor (3) for its events, all pipes.
/// What it writes arrives line by line as ``Output``; its end as `.exited`, always last.
///
/// Each child has a thread of its own, which starts it (``rp_spawn``: a process group of its own, every signal at
/// its default, SIGKILL as its parent-death signal, which the kernel sends when *that thread* ends, so the thread
/// lives until the child is reaped), then reads its pipes and waits for it. richpush killed by SIGKILL takes its
/// children with it.
///
/// The child's end is its own process's end, seen through a pidfd: once it has ended, what is still in its pipes is
/// read while it keeps coming (each read within ``drainAfterExit`` of the last one handled), up to
/// ``maxDrainBytes``, and the rest is dropped. A grandchild that kept the pipes open (a process the extension started
/// in a session of its own) holds nothing up, and what the child wrote before it ended is not lost to a reader that
/// waited on its lines being handled.
final class ChildProcess: Sendable {
    enum Output: Sendable, Equatable {
        case stdout(String)
        case stderr(String)
        case event(String)
        /// It ended: `status` when it exited, `signal` when a signal ended it.
        case exited(status: Int32?, signal: Int32?)
    }

    let pid: pid_t
    private let stdinDescriptor: Int32
    private let pidfd: Int32
    /// Set once the process has been reaped, under the lock ``kill()`` takes: its pid, and its process group's, may
    /// then belong to another process, which must not be signalled.
    private let reaped = Mutex(false)
    let output: AsyncStream<Output>
    /// Lines read but not yet handled (``handled()``): the reader waits while ``maxUnhandled`` are, so an extension
    /// that floods its output fills its own pipes, not richpush's memory.
    private let credits: DispatchSemaphore = {
        // Made empty and then filled: libdispatch traps when a semaphore is freed below the value it was made with,
        // as this one is when the child ends with lines unhandled.
        let semaphore = DispatchSemaphore(value: 0)
        for _ in 0..<ChildProcess.maxUnhandled { semaphore.signal() }
        return semaphore
    }()
    private let paced = Atomic<Bool>(true)
    /// Writes to the child's standard input, in order, off Swift's cooperative threads: a child that stops reading
    /// (stopped, or busy) blocks this queue's thread, never a task.
    private let writer = DispatchQueue(label: "richpush-extension-stdin")

    /// The longest line kept whole; the rest of a longer line is dropped (an extension printing a megabyte on one
    /// line must not fill richpush's memory).
    static let maxLineBytes = HostProtocol.maxLineBytes
    /// Once the process has ended, how long the pipes are still waited on for more, after the last read.
    static let drainAfterExit = 250
    /// Once the process has ended, how much more is read at most (a grandchild that writes on and on).
    static let maxDrainBytes = 4 * 1024 * 1024
    /// How many lines may wait to be handled before the reader stops reading.
    static let maxUnhandled = 64

    private init(pid: pid_t, pidfd: Int32, stdin: Int32, output: AsyncStream<Output>) {
        self.pid = pid
        self.pidfd = pidfd
        self.stdinDescriptor = stdin
        self.output = output
    }

    /// Why a child could not be started.
    enum SpawnFailure: Error, Equatable, CustomStringConvertible {
        /// No pipe: the system's error number.
        case pipe(errno: Int32)
        /// The program could not be started: its path and the system's error number.
        case exec(path: String, errno: Int32)

        var description: String {
            switch self {
            case .pipe(let code): "cannot make a pipe: \(String(cString: strerror(code)))"
            case .exec(let path, let code): "cannot start \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Starts `arguments[0]` (a path) with `environment`.
    static func spawn(_ arguments: [String], environment: [String: String]) async throws(SpawnFailure)
        -> ChildProcess
    {
        var pipes: [[Int32]] = []
        for _ in 0..<4 {
            var ends: [Int32] = [0, 0]
            let made = rp_pipe_cloexec(&ends)
            guard made == 0 else {
                for pair in pipes { pair.forEach { close($0) } }
                throw .pipe(errno: -made)
            }
            pipes.append(ends)
        }
        // 0: stdin (the child reads pipes[0][0]); 1, 2, 3: the child writes pipes[n][1].
        let childEnds = [pipes[0][0], pipes[1][1], pipes[2][1], pipes[3][1]]
        let readers = [pipes[1][0], pipes[2][0], pipes[3][0]]
        let writer = pipes[0][1]
        let (stream, continuation) = AsyncStream<Output>.makeStream()
        let started: Result<ChildProcess, SpawnFailure> = await withCheckedContinuation { reply in
            let thread = Thread {
                let spawned = Self.start(arguments, environment: environment, descriptors: childEnds)
                for descriptor in childEnds { close(descriptor) }
                switch spawned {
                case .failure(let failure):
                    close(writer)
                    readers.forEach { close($0) }
                    reply.resume(returning: .failure(failure))
                case .success(let (pid, pidfd)):
                    let child = ChildProcess(pid: pid, pidfd: pidfd, stdin: writer, output: stream)
                    reply.resume(returning: .success(child))
                    child.serve(readers, into: continuation)
                }
            }
            thread.name = "richpush-extension"
            thread.start()
        }
        return try started.get()
    }

    private static func start(_ arguments: [String], environment: [String: String], descriptors: [Int32])
        -> Result<(pid_t, Int32), SpawnFailure>
    {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pidfd: Int32 = -1
        let pid = descriptors.withUnsafeBufferPointer { rp_spawn(arguments[0], argv, envp, $0.baseAddress, &pidfd) }
        guard pid > 0 else { return .failure(.exec(path: arguments[0], errno: -pid)) }
        return .success((pid, pidfd))
    }

    /// On the child's own thread: reads its pipes until it ends, then reaps it.
    private func serve(_ readers: [Int32], into continuation: AsyncStream<Output>.Continuation) {
        Self.pump(readers, until: pidfd, into: continuation) {
            if paced.load(ordering: .acquiring) { credits.wait() }
        }
        var waitStatus: Int32 = 0
        // The process has ended (or its pipes did); it stays a zombie, holding its pid, until reaped under the lock.
        while waitid(P_PID, id_t(pid), nil, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        reaped.withLock { done in
            while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
            done = true
        }
        if pidfd >= 0 { close(pidfd) }
        let signalled = (waitStatus & 0x7f) != 0 && (waitStatus & 0x7f) != 0x7f
        continuation.yield(
            signalled
                ? .exited(status: nil, signal: waitStatus & 0x7f)
                : .exited(status: (waitStatus >> 8) & 0xff, signal: nil))
        continuation.finish()
    }

    /// Reads every descriptor, passing whole lines on, until each has reached its end, or the process behind
    /// `pidfd` has ended and nothing more came for ``drainAfterExit`` (or ``maxDrainBytes`` came).
    private static func pump(
        _ descriptors: [Int32], until pidfd: Int32, into continuation: AsyncStream<Output>.Continuation,
        pace: () -> Void
    ) {
        var open = descriptors
        var partial: [Int32: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var drainUntil: UInt64?
        var drained = 0
        func drainDeadline() -> UInt64 { DispatchTime.now().uptimeNanoseconds + UInt64(drainAfterExit) * 1_000_000 }
        func emit(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) {
            let line = String(decoding: bytes, as: UTF8.self)
            pace()
            switch descriptor {
            case descriptors[0]: continuation.yield(.stdout(line))
            case descriptors[1]: continuation.yield(.stderr(line))
            default: continuation.yield(.event(line))
            }
        }
        func finish(_ descriptor: Int32) {
            if let rest = partial[descriptor], !rest.isEmpty { emit(descriptor, rest[...]) }
            partial[descriptor] = nil
            close(descriptor)
            open.removeAll { $0 == descriptor }
        }
        while !open.isEmpty {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if drainUntil == nil, pidfd >= 0 { polls.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int32 = -1
            if let drainUntil {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < drainUntil else { break }
                timeout = Int32((drainUntil - now) / 1_000_000) + 1
            }
            let ready = poll(&polls, nfds_t(polls.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for poll in polls where poll.revents != 0 {
                if poll.fd == pidfd {
                    drainUntil = drainDeadline()
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(poll.fd, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    finish(poll.fd)
                    continue
                }
                var pending = partial[poll.fd] ?? []
                for byte in buffer[0..<count] {
                    if byte == 0x0A {
                        emit(poll.fd, pending[...])
                        pending.removeAll(keepingCapacity: true)
                    } else if pending.count < maxLineBytes {
                        pending.append(byte)
                    }
                }
                partial[poll.fd] = pending
                if drainUntil != nil {
                    // Measured from now, once its lines were handled: waiting on them is not the pipe's silence.
                    drained += count
                    drainUntil = drained < maxDrainBytes ? drainDeadline() : 0
                }
            }
        }
        for descriptor in open { finish(descriptor) }
    }

    /// One line read from the child has been handled: the reader may read one more.
    func handled() {
        credits.signal()
    }

    /// Nothing handles the child's lines any more: the reader reads on without waiting.
    func stopPacing() {
        paced.store(false, ordering: .releasing)
        credits.signal()
    }

    /// Writes a line to its standard input, after the lines sent before it; returns at once. A child that no longer
    /// reads it loses it.
    func send(_ line: String) {
        let bytes = Array(line.utf8) + [0x0A]
        // The queue holds the child (and so its descriptor open) until the line is written or refused.
        writer.async { [self] in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(stdinDescriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// The process's first child: the extension itself when the child is `unshare --fork`, which starts it in a new
    /// PID namespace (where it is process 1). Nil when it has none.
    func firstChild() -> pid_t? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else {
            return nil
        }
        return text.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Ends it and its process group with SIGKILL (nothing once it has been reaped); in a PID namespace, the kernel
    /// ends everything in it with its first process.
    func kill() {
        reaped.withLock { done in
            guard !done else { return }
            if pidfd >= 0 { _ = rp_pidfd_signal(pidfd, SIGKILL) } else { _ = Glibc.kill(pid, SIGKILL) }
            _ = Glibc.kill(-pid, SIGKILL)
        }
    }

    deinit {
        close(stdinDescriptor)
    }
}
