import SceneModel

/// Whether the event loop polls for a while before it sleeps, and for how long.
///
/// A sleeping loop costs each worker's answer a wake-up: the worker's `write` must wake the
/// loop thread, and on this kind of virtual machine waking a thread on another CPU takes
/// 15–20 µs (`perf`: most of it in the pipe's wake-up path, with hardly any IPIs counted),
/// three times a whole round trip on one CPU. A loop that has just sent a request and polls
/// (`epoll_wait` with a zero timeout) for the answer is not asleep, so the answer costs no
/// wake-up at all.
///
/// Polling burns CPU, so the loop polls only while it pays: after a poll that found work,
/// and after a sleep that ended soon enough that a poll would have caught the work. A sleep's
/// gap includes the wake-up it cost (15–20 µs here), so a sleep counts as short up to twice
/// the window: judged by the window alone, an answer that takes 15 µs would have measured
/// 30–35 µs asleep, and polling would never have started for it. A poll that found nothing
/// for the whole window turns polling off. An idle host therefore polls once per burst, for
/// at most one window, and a host whose events never come within two windows of each other
/// never polls.
///
/// Like glibc's adaptive mutexes and Go's spinning schedulers, this trades a bounded amount
/// of CPU for latency, so the loop polls only while a host runs with `HostTuning.throughput`
/// (docs/TUNING.md). The bench's `throughput-floor` polls with the same window.
package struct LoopSpin: Sendable {
    /// The longest poll, in nanoseconds; 0: never poll.
    package let window: Int64
    /// Whether the loop polls the next time it runs out of work.
    package private(set) var isPolling = false

    /// The default window: longer than a worker's answer takes when the worker itself must
    /// be woken on another CPU (about 15 µs on this kind of machine), far shorter than any
    /// timer the host arms.
    package static let defaultWindow: Int64 = 30_000

    /// The longest window: a millisecond.
    package static let maximumWindow: Int64 = 1_000_000

    package init(window: Int64) {
        self.window = min(max(window, 0), Self.maximumWindow)
    }

    /// How a turn that ran out of work went on.
    package enum Wait: Equatable, Sendable {
        /// It polled, and work came within the window.
        case polledAndFound
        /// It polled for the whole window in vain (and then slept).
        case polledInVain
        /// It did not poll and slept (or found work waiting) for `nanoseconds`.
        case slept(nanoseconds: Int64)
    }

    /// Decides whether the next turn that runs out of work polls, from how this one went on.
    package mutating func turnEnded(_ wait: Wait) {
        guard window > 0 else { return }
        switch wait {
        case .polledAndFound: isPolling = true
        case .polledInVain: isPolling = false
        case .slept(let nanoseconds): isPolling = nanoseconds <= 2 * window
        }
    }
}
