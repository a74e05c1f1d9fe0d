import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// The signals a long-running host takes itself: SIGTERM, SIGINT and SIGHUP end it in order
/// (the same shutdown as `quit`); SIGUSR1 and SIGUSR2 are ignored. All five are blocked in
/// every thread and consumed by one thread in `sigwait`, so no work at all happens in a
/// signal handler.
///
/// SIGHUP is a quit, not a reload: a host started from a terminal gets it when the terminal
/// goes away, and dying of its default action skipped `applicationWillTerminate`, left the
/// state unsaved and the socket file behind. SIGUSR1 and SIGUSR2 mean nothing to the host;
/// their default action (death, with the same damage) would make a stray `kill -USR1`
/// destructive, so they are taken and dropped.
///
/// The host's own threads (epoll, spawn) block every asynchronous signal, and so do
/// Dispatch's worker threads. The main thread is the catch: once a Swift async `main` first
/// suspends, Dispatch parks the main thread in `sigsuspend` with an *empty* mask, where it
/// takes any process-directed signal with its default action. So a program that wants these
/// signals must keep its main thread: call `block()` and then `waitForever` on the main
/// thread before the first `await`, and do the async work in a detached task.
/// Workers are spawned with an empty mask and default dispositions, so they are unaffected.
public enum TerminationSignals {
    /// The signals that end the host in order.
    public static let terminating: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    /// The signals taken and dropped.
    public static let ignored: [Int32] = [SIGUSR1, SIGUSR2]
    /// Taken in `waitForever` too and handed to its handler: a caller's own deadline (`alarm`).
    public static let deadline: Int32 = SIGALRM

    /// Blocks the signals in the calling thread (and every thread it starts later).
    public static func block() {
        var set = signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for the signals on the calling thread forever, calling `handler` with each
    /// terminating one received (the ignored ones are consumed silently). The signals must
    /// be blocked (`block()`) in every thread.
    public static func waitForever(_ handler: (Int32) -> Void) -> Never {
        var set = signals
        while true {
            var received: Int32 = 0
            if sigwait(&set, &received) == 0, terminating.contains(received) || received == deadline {
                handler(received)
            }
        }
    }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in terminating + ignored + [deadline] { sigaddset(&set, signal) }
        return set
    }
}
