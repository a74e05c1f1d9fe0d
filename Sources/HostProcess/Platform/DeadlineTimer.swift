import SceneModel

/// Deadlines by delay, for watchdogs that almost never fire: a thin shim over the event
/// loop's timers (`EventLoop.scheduleTimer`), kept for callers that count in durations.
///
/// Arming is a heap push under the loop's lock and disarming forgets the action, so a
/// watchdog per request costs no task, no thread and no wake-up unless it fires.
/// Actions run on the loop thread, one at a time, and must be short and non-blocking.
package final class DeadlineTimer: Sendable {
    package static let shared = DeadlineTimer()

    package typealias Action = @Sendable () -> Void

    private init() {}

    /// Runs `action` on the loop thread once `delay` has passed, unless `cancel`led first.
    package func schedule(after delay: Duration, _ action: @escaping Action) -> UInt64 {
        EventLoop.shared.scheduleTimer(at: Self.deadline(after: delay), action).rawValue
    }

    /// Disarms `id`; harmless when its action already ran.
    package func cancel(_ id: UInt64) {
        EventLoop.shared.cancelTimer(EventLoopTimerID(rawValue: id))
    }

    /// `now + delay` (clamped: an absurd delay means "never" rather than a trap; a negative
    /// one, now).
    package static func deadline(after delay: Duration) -> LoopInstant {
        .now() + max(delay, .zero)
    }
}
