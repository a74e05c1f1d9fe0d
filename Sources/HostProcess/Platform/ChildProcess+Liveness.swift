#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// Whether the process has died but was not reaped yet (its pidfd is readable), without
    /// reaping it. False while it runs (or is stopped) and once it was reaped.
    ///
    /// While this is true the zombie pins the pid and the process group id, so signalling
    /// the group cannot hit a recycled id.
    package var hasExitedUnreaped: Bool {
        state.withLock { descriptors in
            guard descriptors.exit == nil, descriptors.pidfd >= 0 else { return false }
            var poller = pollfd(fd: descriptors.pidfd, events: Int16(POLLIN), revents: 0)
            while true {
                let ready = poll(&poller, 1, 0)
                if ready < 0 && errno == EINTR { continue }
                return ready == 1 && poller.revents & Int16(POLLIN) != 0
            }
        }
    }

    /// Whether the process has begun to exit (the kernel's `PF_EXITING`), is a zombie, or is
    /// gone, read from /proc/PID/stat; false while it runs or is stopped, and when /proc
    /// cannot be read (it then says nothing of the process).
    ///
    /// An exiting process closes its descriptors before its pidfd says it is dead: a pipe it
    /// closed can reach the host first, and under load (a descheduled CPU) the rest of its
    /// exit can take a second. A process that is exiting has not "kept running".
    package var isExiting: Bool {
        guard !hasExitedUnreaped else { return true }
        guard let stat = ProcessStat.read(pid) else { return errno == ENOENT || errno == ESRCH }
        return stat.isExiting
    }
}
