#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal dispositions the host relies on.
package enum HostSignals {
    /// A failed write must surface as an error on that one write instead of killing the whole
    /// host, so two signals are ignored process-wide: SIGPIPE (a worker or client that went
    /// away: `EPIPE`) and SIGXFSZ (a trace or session file past the file size limit,
    /// `RLIMIT_FSIZE`: `EFBIG`). Children do not inherit this: the spawn resets every
    /// disposition to the default.
    package static func ignoreWriteSignals() {
        _ = writeSignalsIgnored
    }

    private static let writeSignalsIgnored: Void = {
        for signal in [SIGPIPE, SIGXFSZ] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            let rc = sigaction(signal, &action, nil)
            precondition(rc == 0, "sigaction(\(signal), SIG_IGN) failed: errno \(errno)")
        }
    }()
}
