#if canImport(Glibc)
import Glibc
#endif

/// Watches the main run loop's timers across the background.
///
/// It counts the times the app could be suspended (in the background, no background task
/// running) while a timer of the main run loop is still scheduled: a device suspends the app
/// then, and such a timer fires late, on resume, while the app is still in the background
/// (the visible tree's `backgroundTimers`, `hostctl fuzz`'s `timer` failure; PORTING.md).
/// What is scheduled is what the run loop's turn says, so the count does not depend on when
/// the timer would fire: the same steps give the same count.
///
/// It also knows whether a timer is due, for the resume's order (a stopped worker's due
/// timers fire before the request that resumed it). Foundation says when the next timer is
/// due, not which timers fired, so that look holds only while no app code ran since the
/// turn: app code in between (a request, main-queue work) may have invalidated the timer.
struct BackgroundTimerWatch {
    /// How many times the app became suspendable, or stayed so, with a timer scheduled.
    private(set) var scheduledWhileSuspendable = 0
    /// Whether the current stretch of suspendable time was counted already.
    private var counted = false
    /// When the next timer is due (`CLOCK_MONOTONIC` nanoseconds, at or after the timer's
    /// own fire date), as the last turn saw it; nil for none, or when app code ran since.
    private var nextDue: UInt64?

    /// App code ran: what the last turn saw may no longer hold.
    mutating func appCodeRan() {
        nextDue = nil
    }

    /// Whether, as far as the last turn knows, a timer is due at `now`.
    func isDue(at now: UInt64) -> Bool {
        guard let nextDue else { return false }
        return nextDue <= now
    }

    /// The turn that ended at `now` said the next timer is due in `milliseconds` (rounded
    /// up), or that none is scheduled; `suspendable`: the app is in the background with no
    /// background task.
    mutating func turned(at now: UInt64, nextInMilliseconds milliseconds: Int32?, suspendable: Bool) {
        nextDue = milliseconds.map { now + UInt64(max(0, $0)) * 1_000_000 }
        guard suspendable else {
            counted = false
            return
        }
        if milliseconds != nil, !counted {
            scheduledWhileSuspendable += 1
            counted = true
        }
    }

    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
