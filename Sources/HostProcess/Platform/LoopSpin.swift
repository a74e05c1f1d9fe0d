#if canImport(Glibc)
import Glibc
#endif

/// Whether the event loop polls for a while before it sleeps, and for how long.
///
/// A sleeping loop costs each worker's answer a wake-up: the worker's `write` must wake the
/// loop thread, and on a virtual machine waking a thread on another CPU is an
/// inter-processor interrupt through the hypervisor, 15–20 µs here, four times a whole round
/// trip on one CPU. A loop that has just sent a request and polls (`epoll_wait` with a zero
/// timeout) for the answer is not asleep, so the answer costs no wake-up at all.
///
/// Polling burns CPU, so the loop polls only while it pays: when the last time it ran out
/// of work, new work came within `window`. A request and its answer keep it polling; the
/// first gap longer than the window (a burst ends, an idle host) turns it off until work
/// again follows work closely. An idle host therefore polls once per burst, for at most one
/// window, and a host that never sees two events within a window never polls.
///
/// Like glibc's adaptive mutexes and Go's spinning schedulers, this trades a bounded amount
/// of CPU for latency; `SCENEHOST_LOOP_SPIN_US=0` turns it off (README, "Two commands"; docs/HARDENING.md).
struct LoopSpin: Sendable {
    /// The longest poll, in nanoseconds; 0: never poll.
    let window: Int64
    /// Whether the loop polls the next time it runs out of work.
    private(set) var isPolling = false

    /// The default window: longer than a worker's answer takes when the worker itself must
    /// be woken on another CPU (about 15 µs on this kind of machine), far shorter than any
    /// timer the host arms.
    static let defaultWindow: Int64 = 30_000

    /// The longest window `SCENEHOST_LOOP_SPIN_US` may ask for: a millisecond.
    static let maximumWindow: Int64 = 1_000_000

    init(window: Int64) {
        self.window = min(max(window, 0), Self.maximumWindow)
    }

    /// The loop ran out of work at one moment and found work again `idle` nanoseconds later
    /// (0 when it never ran out): poll next time only if that gap was within the window.
    mutating func foundWork(afterIdling idle: Int64) {
        isPolling = window > 0 && idle <= window
    }

    /// The window from `SCENEHOST_LOOP_SPIN_US` (microseconds; 0 turns polling off), else
    /// `defaultWindow`. An unreadable value keeps the default rather than stopping the host.
    static func windowFromEnvironment() -> Int64 {
        guard let raw = getenv("SCENEHOST_LOOP_SPIN_US") else { return defaultWindow }
        return window(fromMicroseconds: String(cString: raw))
    }

    /// `text` as a window: whole microseconds, clamped to `maximumWindow`; anything else is
    /// the default.
    static func window(fromMicroseconds text: String) -> Int64 {
        guard let microseconds = Int64(text), microseconds >= 0 else { return defaultWindow }
        return min(microseconds, maximumWindow / 1_000) * 1_000
    }
}
