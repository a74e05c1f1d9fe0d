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

/// Signal names as the trace and the CLI spell them: without the `SIG` prefix (`KILL`, `TERM`).
package enum SignalNames {
    private static let table: [(name: String, number: Int32)] = [
        ("HUP", SIGHUP), ("INT", SIGINT), ("QUIT", SIGQUIT), ("ILL", SIGILL),
        ("TRAP", SIGTRAP), ("ABRT", SIGABRT), ("BUS", SIGBUS), ("FPE", SIGFPE),
        ("KILL", SIGKILL), ("USR1", SIGUSR1), ("SEGV", SIGSEGV), ("USR2", SIGUSR2),
        ("PIPE", SIGPIPE), ("ALRM", SIGALRM), ("TERM", SIGTERM), ("STKFLT", SIGSTKFLT),
        ("CHLD", SIGCHLD), ("CONT", SIGCONT), ("STOP", SIGSTOP), ("TSTP", SIGTSTP),
        ("TTIN", SIGTTIN), ("TTOU", SIGTTOU), ("URG", SIGURG), ("XCPU", SIGXCPU),
        ("XFSZ", SIGXFSZ), ("VTALRM", SIGVTALRM), ("PROF", SIGPROF), ("WINCH", SIGWINCH),
        ("IO", SIGIO), ("PWR", SIGPWR), ("SYS", SIGSYS),
    ]

    /// Accepted on input only; `name(of:)` always answers the canonical name.
    private static let aliases: [String: Int32] = ["IOT": SIGABRT, "POLL": SIGIO, "CLD": SIGCHLD]

    private static let byNumber: [Int32: String] = Dictionary(
        table.map { ($0.number, $0.name) },
        uniquingKeysWith: { first, _ in first }
    )

    private static let byName: [String: Int32] = Dictionary(
        table.map { ($0.name, $0.number) },
        uniquingKeysWith: { first, _ in first }
    ).merging(aliases, uniquingKeysWith: { first, _ in first })

    /// Linux has signals 1...64 (NSIG is 65); real-time signals have no fixed name.
    private static let validNumbers: ClosedRange<Int32> = 1...64

    /// `"KILL"` for 9; a number without a name (real-time signals, garbage) comes back as its decimal text.
    package static func name(of signal: Int32) -> String {
        byNumber[signal] ?? String(signal)
    }

    /// The canonical names, in signal-number order (for an error that lists what is known).
    package static var knownNames: [String] { table.map(\.name) }

    /// Accepts `"KILL"`, `"SIGKILL"`, `"kill"`, `"sigkill"` and `"9"`; nil for anything else.
    package static func number(named text: String) -> Int32? {
        let trimmed = text.trimmingWhitespace()
        if let number = Int32(trimmed) {
            return validNumbers.contains(number) ? number : nil
        }
        var upper = trimmed.uppercased()
        if upper.hasPrefix("SIG") {
            upper.removeFirst(3)
        }
        return byName[upper]
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
