import Glibc
import Protocol

/// How a worker ended, as the trace records it.
public struct WorkerExit: Sendable, Hashable {
    public var pid: Int32
    public var reason: TerminationReason
    /// The exit status, when the worker exited.
    public var status: Int32?
    /// The signal number, when a signal ended the worker.
    public var signal: Int32?
}

extension TerminationReason {
    /// Classifies a death the host did not ask for: signals whose default action dumps
    /// core are crashes, every other signal came from someone (a user, a test, the OOM
    /// killer) and counts as `killed`; any exit status counts as `crashed`.
    static func unrequested(signal: Int32?) -> TerminationReason {
        guard let signal else { return .crashed }
        switch signal {
        case SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP, SIGSYS, SIGQUIT, SIGXCPU, SIGXFSZ:
            return .crashed
        default:
            return .killed
        }
    }
}
