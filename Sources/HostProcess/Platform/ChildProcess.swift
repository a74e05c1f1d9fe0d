import CSceneHostSys
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// One spawned worker process and the host's ends of its stdio pipes.
///
/// Descriptor ownership: the object owns the pidfd, the stdin write end and the stdout and
/// stderr read ends. Once `EventLoop.watch` has taken the child, only the loop thread reads
/// and closes stdout, stderr and the pidfd; every descriptor is closed when the loop reaps the
/// child (or in `deinit` for a child that was never watched), exactly once.
///
/// Every method may be called from any thread. Methods that touch a descriptor do so while
/// holding the state lock, so a descriptor number is never used after it was closed (and
/// possibly reused by an unrelated `open`).
package final class ChildProcess: Sendable {
    package let pid: pid_t
    /// The policy it was spawned with; a write to a batch child asks the loop to yield.
    package let scheduling: Scheduling
    /// The cgroup it was started in, where it has one of its own (`WorkerCgroup`).
    package let cgroup: WorkerCgroup?

    package struct Descriptors: Sendable {
        package var stdin: Int32
        package var stdout: Int32
        package var stderr: Int32
        package var pidfd: Int32
        package var exit: ChildExit?
        package var isWatched = false
        /// Tells `closeStdin()` apart from the close at reap, for the error `writeToStdin` reports.
        package var stdinClosedByHost = false
        /// Bytes accepted by `writeToStdin` that the pipe had no room for yet, in order.
        package var stdinBacklog = StdinBacklog()
        /// Where the event loop wants stdin registered when a backlog needs flushing.
        package var writableRegistration: (epoll: Int32, token: UInt64)?
        /// Whether stdin is in the loop's epoll set (for writability) right now.
        package var stdinInEpoll = false
    }

    package let state: Locked<Descriptors>

    package init(
        pid: pid_t,
        pidfd: Int32,
        stdin: Int32,
        stdout: Int32,
        stderr: Int32,
        scheduling: Scheduling,
        cgroup: WorkerCgroup? = nil
    ) {
        self.pid = pid
        self.scheduling = scheduling
        self.cgroup = cgroup
        self.state = Locked(Descriptors(stdin: stdin, stdout: stdout, stderr: stderr, pidfd: pidfd))
    }

    deinit {
        reapIfNeverWatched()
        closeAllDescriptors()
    }

    /// How the process ended; nil until the event loop has reaped it.
    package var exitStatus: ChildExit? {
        state.withLock { $0.exit }
    }

    /// Writes `bytes` without blocking, all of them or none: what the pipe has no room for
    /// is kept in order and written by the event loop as the worker reads (a frame is never
    /// cut short, whatever its size).
    ///
    /// Throws `.backlogFull` when the worker has left more than `maximumStdinBacklog` bytes
    /// unread (nothing of `bytes` is written then), `.brokenPipe` when the worker closed its
    /// stdin or has exited, `.closed` after `closeStdin()`.
    package func writeToStdin(_ bytes: [UInt8]) throws(ChildIOError) {
        let loop = EventLoop.shared
        let stdinToken = try state.withLock { (descriptors: inout Descriptors) throws(ChildIOError) -> UInt64? in
            if descriptors.stdinClosedByHost { throw .closed }
            guard descriptors.exit == nil, descriptors.stdin >= 0 else { throw .brokenPipe }
            try Self.write(bytes, through: &descriptors)
            // Only the shared loop reads answers ahead; a child another loop watches is not its.
            guard let (epoll, token) = descriptors.writableRegistration,
                epoll == loop.epollDescriptor
            else { return nil }
            return token
        }
        // A batch child woken onto the loop's CPU waits for the loop to run out of work.
        if scheduling == .batch { loop.yieldBeforeNextPoll(answerExpectedAfter: stdinToken) }
    }

    /// Stops the worker's whole process group (SIGSTOP; the worker also through its pidfd, in
    /// case it left its group with `setsid`). Returns a copy of the pidfd for `isStopped` and
    /// `undoStop` (the caller closes it), or nil when none could be made. Throws
    /// `processExited` for a worker already gone. `StopWaiter` waits for the stop.
    package func beginStop() throws(SignalError) -> Int32? {
        // A copy of the pidfd, used outside the lock: the event loop takes the lock to write,
        // signal and reap, and must never wait behind a stop.
        let pidfd = try state.withLock { (descriptors: inout Descriptors) throws(SignalError) -> Int32 in
            guard descriptors.exit == nil, descriptors.pidfd >= 0 else { throw .processExited }
            _ = kill(-pid, SIGSTOP)
            try Self.sendSignal(SIGSTOP, toPidfd: descriptors.pidfd)
            return fcntl(descriptors.pidfd, F_DUPFD_CLOEXEC, 0)
        }
        return pidfd >= 0 ? pidfd : nil
    }

    /// Whether the worker is stopped (or dead) now, by `pidfd` from `beginStop`. Never waits.
    package func isStopped(polling pidfd: Int32) -> Bool {
        csh_is_stopped(pidfd, pid) != 0
    }

    /// Continues a stop that did not happen in time, so that the worker does not stop later
    /// while the host thinks it runs. Under the lock and only while not reaped: the zombie
    /// pins the group id.
    package func undoStop(pidfd: Int32) {
        state.withLock { descriptors in
            guard descriptors.exit == nil else { return }
            _ = kill(-pid, SIGCONT)
            _ = csh_pidfd_send_signal(pidfd, SIGCONT)
        }
    }

    /// Idempotent. The worker then reads EOF (after nothing of a backlog: it is dropped).
    package func closeStdin() {
        let descriptor = state.withLock { descriptors -> Int32 in
            descriptors.stdinClosedByHost = true
            Self.dropBacklog(&descriptors)
            return Self.take(&descriptors.stdin)
        }
        Self.close(descriptor)
    }

    /// Sends `signal` to the worker itself. The pidfd cannot hit a recycled pid.
    package func send(signal: Int32) throws(SignalError) {
        try state.withLock { (descriptors: inout Descriptors) throws(SignalError) in
            guard descriptors.exit == nil, descriptors.pidfd >= 0 else { throw .processExited }
            try Self.sendSignal(signal, toPidfd: descriptors.pidfd)
        }
    }

    /// Sends `signal` to the worker's whole process group (the worker leads its own group),
    /// so SIGSTOP/SIGCONT also reach anything the worker started.
    ///
    /// Only while the worker is not reaped (`processExited` after): its zombie pins the group
    /// id, and reaping takes the same lock, so the group signalled is the worker's. Once it is
    /// reaped and the group empty, the id could be a new group leader's, the host's or not.
    package func sendToProcessGroup(signal: Int32) throws(SignalError) {
        try state.withLock { (descriptors: inout Descriptors) throws(SignalError) in
            guard descriptors.exit == nil else { throw .processExited }
            if kill(-pid, signal) != 0 {
                let code = errno
                throw code == ESRCH ? .processExited : .failed(errno: code)
            }
        }
    }

    /// Resident set size (VmRSS); nil once the process has exited.
    package func residentMemoryBytes() -> Int? {
        procKilobytes(file: "status", field: "VmRSS:").map { $0 * 1024 }
    }

    /// Proportional set size (Pss from smaps_rollup): shared pages split among their users;
    /// nil once the process has exited.
    package func proportionalSetSizeBytes() -> Int? {
        procKilobytes(file: "smaps_rollup", field: "Pss:").map { $0 * 1024 }
    }
}

// MARK: - Event loop hand-off

extension ChildProcess {
    /// The two output pipes, as the event loop tells them apart.
    package enum OutputStream: Sendable, Hashable {
        case stdout, stderr
    }

    /// Hands stdout, stderr and the pidfd over to the event loop, and tells the child how to
    /// ask the loop for help with a stdin backlog (`epoll`, `token`). A child can be watched once.
    package func beginWatching(epoll: Int32, stdinToken: UInt64) -> (stdout: Int32, stderr: Int32, pidfd: Int32) {
        state.withLock { descriptors in
            precondition(!descriptors.isWatched, "ChildProcess \(pid) is already watched")
            descriptors.isWatched = true
            descriptors.writableRegistration = (epoll, stdinToken)
            // Bytes left over from before the watch began now have someone to flush them.
            if !descriptors.stdinBacklog.isEmpty { Self.registerWritable(&descriptors) }
            return (descriptors.stdout, descriptors.stderr, descriptors.pidfd)
        }
    }

    /// The open read end of `stream`, or -1 once it reached EOF or the child was reaped.
    package func descriptor(of stream: OutputStream) -> Int32 {
        state.withLock { descriptors in
            switch stream {
            case .stdout: descriptors.stdout
            case .stderr: descriptors.stderr
            }
        }
    }

    /// Idempotent.
    package func closeOutput(_ stream: OutputStream) {
        let descriptor = state.withLock { descriptors in
            switch stream {
            case .stdout: Self.take(&descriptors.stdout)
            case .stderr: Self.take(&descriptors.stderr)
            }
        }
        Self.close(descriptor)
    }

    /// Closes whatever is still open. Idempotent.
    package func closeAllDescriptors() {
        let open = state.withLock { descriptors in
            Self.dropBacklog(&descriptors)
            return [
                Self.take(&descriptors.stdin), Self.take(&descriptors.stdout),
                Self.take(&descriptors.stderr), Self.take(&descriptors.pidfd),
            ]
        }
        for descriptor in open {
            Self.close(descriptor)
        }
    }

    /// Returns the descriptor and marks the slot closed, so that exactly one caller closes it.
    package static func take(_ slot: inout Int32) -> Int32 {
        defer { slot = -1 }
        return slot
    }

    package static func close(_ descriptor: Int32) {
        // Linux releases the descriptor even when close reports EINTR, so never retry.
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
