#if canImport(Glibc)
import Glibc
#endif

/// Notices a timer of the main run loop firing while the app is in the background with no
/// background task running: on a device the app is suspended by then, and such a timer fires
/// late, on resume, while the app is still in the background (the visible tree's
/// `backgroundTimerFires`, `hostctl fuzz`'s `timer` failure; PORTING.md).
///
/// Foundation says when the next timer is due, not which timers fired, so a turn knows a
/// timer is due only when no app code ran since the last turn looked: app code in between
/// (a request, main-queue work) may have invalidated it, and the look is then stale.
struct BackgroundTimerWatch {
    /// How many turns fired a timer while the app could have been suspended.
    private(set) var fires = 0
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

    /// A turn at `now` is about to fire what is due; `suspendable`: the app is in the
    /// background with no background task.
    mutating func turning(at now: UInt64, suspendable: Bool) {
        if suspendable, isDue(at: now) { fires += 1 }
    }

    /// The turn that ended at `now` said the next timer is due in `milliseconds` (rounded
    /// up), or that none is scheduled.
    mutating func turned(at now: UInt64, nextInMilliseconds milliseconds: Int32?) {
        nextDue = milliseconds.map { now + UInt64(max(0, $0)) * 1_000_000 }
    }

    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
