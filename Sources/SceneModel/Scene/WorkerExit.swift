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
    package static func unrequested(signal: Int32?) -> TerminationReason {
        guard let signal else { return .crashed }
        return coreDumpingSignals.contains(SignalNames.name(of: signal)) ? .crashed : .killed
    }

    private static let coreDumpingSignals: Set<String> = [
        "SEGV", "BUS", "ILL", "ABRT", "FPE", "TRAP", "SYS", "QUIT", "XCPU", "XFSZ",
    ]
}
