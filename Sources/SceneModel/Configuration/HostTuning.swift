/// How hard a host works for speed, and what it may change on the machine to get it.
///
/// Everything faster than `.plain` acts on threads and processes beyond the host's own
/// requests, so it is an explicit opt-in, never a default (docs/TUNING.md).
public enum HostTuning: String, Sendable, Hashable, CaseIterable {
    /// The default: the event loop sleeps in `epoll_wait` whenever it has nothing to do, and
    /// the host changes no process's CPU affinity or scheduling class, its own included.
    case plain
    /// For benchmarks and stress runs on a machine given to the host: the event loop polls
    /// briefly before it sleeps and yields to the worker it just woke, workers run under
    /// `SCHED_BATCH`, and a saturated loop pins itself to a CPU and keeps every worker's
    /// threads off it until a quiet second gives everything back.
    case throughput
}
