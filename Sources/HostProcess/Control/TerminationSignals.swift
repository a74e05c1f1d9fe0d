#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT for a long-running host: blocked in every thread and consumed by one
/// thread in `sigwait`, so no work at all happens in a signal handler.
///
/// The host's own threads (epoll, spawn) block every asynchronous signal, and so do
/// Dispatch's worker threads. The main thread is the catch: once a Swift async `main` first
/// suspends, Dispatch parks the main thread in `sigsuspend` with an *empty* mask, where it
/// takes any process-directed signal with its default action. So a program that wants these
/// signals must keep its main thread: call `block()` and then `waitForever` on the main
/// thread before the first `await`, and do the async work in a detached task.
/// Workers are spawned with an empty mask and default dispositions, so they are unaffected.
public enum TerminationSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread (and every thread it starts later).
    public static func block() {
        var set = signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for SIGTERM or SIGINT on the calling thread, calling `handler` with each one
    /// received, forever. The signals must be blocked (`block()`) in every thread.
    public static func waitForever(_ handler: (Int32) -> Void) -> Never {
        var set = signals
        while true {
            var received: Int32 = 0
            if sigwait(&set, &received) == 0 { handler(received) }
        }
    }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
