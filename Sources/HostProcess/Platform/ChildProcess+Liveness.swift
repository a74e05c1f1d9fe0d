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
}
