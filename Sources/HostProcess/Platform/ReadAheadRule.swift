/// When a turn of the event loop may leave `epoll_wait` out, and when its due timers fire.
///
/// After yielding to the one batch worker it wrote to, the loop reads that worker's answer
/// straight away (`EventLoop.yieldBeforeNextPoll`); when that answer queued work, the turn
/// goes on without asking epoll. Two rules keep that from costing anything but the system
/// call it saves:
/// - **Epoll is never left out for long.** At most `maximumSkipsInARow` turns in a row skip
///   it, so a scene driven in a tight loop cannot keep other workers' answers and deaths,
///   control connections or the eventfd waiting.
/// - **A turn that skipped epoll fires no timer.** A watchdog must never fire for an answer
///   that came in before its deadline, and only a wait that said everything it had can
///   show that none is waiting (`EventLoop.runLoop`). Nor does such a turn count as a
///   deferral of the timers: the next turn that asks epoll decides.
package struct ReadAheadRule: Sendable {
    /// Turns in a row that may skip `epoll_wait`.
    package static let maximumSkipsInARow = 7
    /// Turns in a row whose wait may have left events behind (a full batch, EINTR) that put
    /// off the due timers, before they fire anyway: a loop flooded with events still fires.
    package static let timerDeferralsInARow = 8

    package private(set) var skipsInARow = 0
    package private(set) var timerDeferrals = 0

    /// Whether this turn may skip `epoll_wait` after a read-ahead that found work.
    package var allowsSkip: Bool { skipsInARow < Self.maximumSkipsInARow }

    /// Records how the turn's wait went; returns whether the timers due by its end fire now.
    /// `waitSaidAll`: the wait returned fewer events than it could hold, without error.
    package mutating func turnEnded(skippedEpoll: Bool, waitSaidAll: Bool) -> Bool {
        if skippedEpoll {
            skipsInARow += 1
            return false
        }
        skipsInARow = 0
        if waitSaidAll || timerDeferrals >= Self.timerDeferralsInARow {
            timerDeferrals = 0
            return true
        }
        timerDeferrals += 1
        return false
    }
}
