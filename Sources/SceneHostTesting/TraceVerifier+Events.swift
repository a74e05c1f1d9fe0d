import HostProcess

extension TraceVerifier {
    /// Checks a run's events (`host.trace.history`, or events read from a trace file):
    /// every event against the model, as `hostctl verify` does, and no `error` event with
    /// `op` `protocol`, which is how the host records a worker event it refused (a callback
    /// out of order, a malformed message) while the run went on. Throws the first problem.
    ///
    /// The events must start at `seq` 1: a history cut by `traceHistoryLimitBytes` does not verify.
    public static func verify(_ events: some Sequence<TraceEvent>) throws(LifecycleViolation) {
        var verifier = TraceVerifier()
        for event in events {
            if let violation = verifier.check(event) { throw violation }
            if event.kind == .error, event.op == "protocol" {
                throw LifecycleViolation(
                    seq: event.seq,
                    scene: event.scene,
                    expected: "a worker that follows the protocol and the lifecycle model",
                    got: event.message ?? "a protocol error"
                )
            }
        }
    }
}
