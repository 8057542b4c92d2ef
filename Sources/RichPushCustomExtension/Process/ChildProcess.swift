import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process with its standard input, output and error and one more descriptor (3) for its events, all
/// pipes. What it writes arrives line by line as ``Output``; its end as `.exited`, always last.
///
/// Started with `posix_spawn` in a process group of its own, so ending it ends whatever it started.
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
    /// Set once the process has been reaped: its pid may then belong to another process, which must not be killed.
    private let reaped = Atomic<Bool>(false)
    let output: AsyncStream<Output>

    /// The longest line kept whole; the rest of a longer line is dropped (an extension printing a megabyte on one
    /// line must not fill richpush's memory).
    static let maxLineBytes = 64 * 1024

    private init(pid: pid_t, stdin: Int32, output: AsyncStream<Output>) {
        self.pid = pid
        self.stdinDescriptor = stdin
        self.output = output
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `arguments[0]` (a path) with `environment`.
    static func spawn(_ arguments: [String], environment: [String: String]) throws(SpawnFailure)
        -> ChildProcess
    {
        var pipes: [[Int32]] = []
        for _ in 0..<4 {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                for pair in pipes { pair.forEach { close($0) } }
                throw SpawnFailure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
            }
            // Only the duplicates made for the child are inherited.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            pipes.append(ends)
        }
        // 0: stdin (child reads pipes[0][0]); 1, 2, 3: the child writes pipes[n][1].
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
        for descriptor in 1...3 {
            posix_spawn_file_actions_adddup2(&actions, pipes[descriptor][1], Int32(descriptor))
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var spawned: pid_t = 0
        let status = posix_spawn(&spawned, arguments[0], &actions, &attributes, argv, envp)
        let pid = spawned
        // The child's ends are its own now.
        close(pipes[0][0])
        for descriptor in 1...3 { close(pipes[descriptor][1]) }
        guard status == 0 else {
            close(pipes[0][1])
            for descriptor in 1...3 { close(pipes[descriptor][0]) }
            throw SpawnFailure(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        let (stream, continuation) = AsyncStream<Output>.makeStream()
        let readers = [pipes[1][0], pipes[2][0], pipes[3][0]]
        let child = ChildProcess(pid: pid, stdin: pipes[0][1], output: stream)
        let thread = Thread { [child] in
            Self.pump(readers, into: continuation)
            var waitStatus: Int32 = 0
            // Marked before the wait returns the pid to the system: no kill can reach a stranger afterwards.
            while waitid(P_PID, id_t(pid), nil, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            child.reaped.store(true, ordering: .sequentiallyConsistent)
            while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
            let signalled = (waitStatus & 0x7f) != 0 && (waitStatus & 0x7f) != 0x7f
            continuation.yield(
                signalled
                    ? .exited(status: nil, signal: waitStatus & 0x7f)
                    : .exited(status: (waitStatus >> 8) & 0xff, signal: nil))
            continuation.finish()
        }
        thread.name = "richpush-extension-\(pid)"
        thread.start()
        return child
    }

    /// Reads every descriptor until each has reached its end, passing whole lines on.
    private static func pump(_ descriptors: [Int32], into continuation: AsyncStream<Output>.Continuation) {
        var open = descriptors
        var partial: [Int32: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func emit(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) {
            let line = String(decoding: bytes, as: UTF8.self)
            switch descriptor {
            case descriptors[0]: continuation.yield(.stdout(line))
            case descriptors[1]: continuation.yield(.stderr(line))
            default: continuation.yield(.event(line))
            }
        }
        while !open.isEmpty {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for poll in polls where poll.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(poll.fd, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    if let rest = partial[poll.fd], !rest.isEmpty { emit(poll.fd, rest[...]) }
                    partial[poll.fd] = nil
                    close(poll.fd)
                    open.removeAll { $0 == poll.fd }
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
            }
        }
        for descriptor in open { close(descriptor) }
    }

    /// Writes a line to its standard input; false when it no longer reads it.
    @discardableResult
    func send(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(stdinDescriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Ends it and everything it started, with SIGKILL (nothing once it has been reaped).
    func kill() {
        guard !reaped.load(ordering: .sequentiallyConsistent) else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    deinit {
        close(stdinDescriptor)
    }
}
