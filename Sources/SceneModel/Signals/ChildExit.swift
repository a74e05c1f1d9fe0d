/// How a worker process ended, as `waitid` reported it.
package enum ChildExit: Sendable, Hashable, CustomStringConvertible {
    /// `_exit(status)`. `status` is -1 (never a real exit status) when the child was reaped
    /// behind the host's back (someone called `waitpid(-1)` or set SIGCHLD to SIG_IGN), so
    /// the outcome is unknown.
    case exited(status: Int32)
    /// Killed by `signal` (with or without a core dump).
    case signaled(signal: Int32)

    package var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by SIG\(SignalNames.name(of: signal))"
        }
    }
}
