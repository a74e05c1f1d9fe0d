#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal dispositions the host relies on.
package enum HostSignals {
    /// Writing to a worker that died must surface as `EPIPE` on that one write instead of
    /// killing the whole host, so SIGPIPE is ignored process-wide. Children do not inherit
    /// this: the spawn resets every disposition to the default.
    package static func ignoreSIGPIPE() {
        _ = sigpipeIgnored
    }

    private static let sigpipeIgnored: Void = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        let rc = sigaction(SIGPIPE, &action, nil)
        precondition(rc == 0, "sigaction(SIGPIPE, SIG_IGN) failed: errno \(errno)")
    }()
}
