/// A worker that closes its stdout while it keeps running can never answer again: that is a
/// protocol violation (docs/HARDENING.md).
///
/// The rule is deterministic despite the race with a normal death (a dying process closes
/// its stdout a moment before the host can see it dead): at EOF on stdout the host looks
/// at the process; if it is not dead, it looks again `stdoutClosedGrace` later and, if the
/// worker is still alive then, kills it with reason `protocol-violation`. A request sent in
/// between is written normally and fails at that kill (no watchdog wait); a worker that
/// exits within the grace gets its own exit reason.
extension WorkerConnection {
    /// How long a worker may live on after closing its stdout. Generous: a worker SIGKILLed
    /// from outside closes its stdout before its pidfd says it is dead, and under load (two
    /// cores, sanitized workers tearing down their shadow memory) that gap has been seen to
    /// pass 100 ms.
    static let stdoutClosedGrace: Duration = .seconds(1)

    /// Called on the event loop thread when the worker's stdout reaches EOF before its death
    /// was seen.
    func stdoutReachedEOF() {
        guard isAliveAsFarAsTheHostKnows else { return }
        Task { [self] in
            try? await Task.sleep(for: Self.stdoutClosedGrace)
            guard isAliveAsFarAsTheHostKnows else { return }
            violate("closed its stdout but kept running for \(Self.stdoutClosedGrace)")
        }
    }

    /// Not reaped and not dead-awaiting-reap.
    private var isAliveAsFarAsTheHostKnows: Bool {
        recordedExit == nil && !child.hasExitedUnreaped
    }
}
