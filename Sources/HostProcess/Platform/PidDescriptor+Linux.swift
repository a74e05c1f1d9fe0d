import CSceneHostSys
import Glibc

/// A process held by a pidfd, for a signal sent as someone outside the host would send it
/// (`stress`'s kills of workers, by the pid a status showed): once the pidfd is open, a
/// check that the pid is still the one meant (the scene still shows it) proves the signal
/// reaches that process, never one that was given the pid after it was reaped.
package struct PidDescriptor: ~Copyable {
    private let descriptor: Int32

    /// Opens a pidfd of `pid`; nil when no such process exists (or pidfds are unavailable).
    package init?(pid: Int32) {
        let descriptor = csh_pidfd_open(pid, 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends `signal` to the process held; false when it has exited (or the signal failed).
    package func send(signal: Int32) -> Bool {
        csh_pidfd_send_signal(descriptor, signal) == 0
    }
}
