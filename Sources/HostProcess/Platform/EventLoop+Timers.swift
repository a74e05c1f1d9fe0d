/// One-shot timers fired by the loop thread: the earliest deadline is `epoll_wait`'s timeout,
/// so a timer costs no thread and no wake-up beyond the one at its deadline.
extension EventLoop {
    /// Arms a one-shot timer; `action` runs on the loop thread at or after `deadline` (a
    /// deadline in the past fires on the loop's next turn). Callable from any thread.
    /// Timers with the same deadline fire in the order they were armed.
    package func scheduleTimer(
        at deadline: ContinuousClock.Instant,
        _ action: @escaping @Sendable () -> Void
    ) -> EventLoopTimerID {
        let (id, mustWake) = loopState.withLock { state in
            let id = state.timers.schedule(at: deadline, action)
            return (id, state.wakeIfSleeping(forDeadline: deadline))
        }
        if mustWake { wakeUp() }
        return id
    }

    /// Disarms `id`. Cancelling a timer that already fired or was cancelled is harmless; a
    /// timer whose action is running or about to run on the loop thread is not stopped.
    package func cancelTimer(_ id: EventLoopTimerID) {
        loopState.withLock { $0.timers.cancel(id) }
    }

    /// Runs the actions of every timer due by `instant`, each outside the lock.
    func fireDueTimers(dueBy instant: ContinuousClock.Instant) {
        while let action = loopState.withLock({ state -> TimerQueue.Action? in
            guard let next = state.timers.nextDeadline(), next <= instant else { return nil }
            return state.timers.popDue(now: instant)
        }) {
            action()
        }
    }

    /// Called with the lock held, just before sleeping: records what the loop sleeps until
    /// and returns the `epoll_wait` timeout in milliseconds (-1: no timer, 0: do not sleep).
    static func prepareToSleep(_ state: inout EventLoopState) -> Int32 {
        guard state.jobs.isEmpty else { return 0 }
        guard let deadline = state.timers.nextDeadline() else {
            state.sleep = .sleeping(until: nil)
            return -1
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return 0 }
        state.sleep = .sleeping(until: deadline)
        return milliseconds(roundingUp: remaining)
    }

    /// `epoll_wait` counts whole milliseconds; rounding up keeps "at or after the deadline".
    static func milliseconds(roundingUp duration: Duration) -> Int32 {
        // Under 2^78 attoseconds (three days), with a 64-bit division by a constant (a
        // multiplication): `components` divides 128-bit numbers, about 190 instructions on
        // every turn of the loop. x / 10^15 is (x / 2^15) / 5^15, and x + 10^15 - 1 < 2^79
        // shifted right by 15 fits in 64 bits.
        let total = duration.attoseconds
        if total >= 0, total < Int128(1) << 78 {
            let roundedUp = total + 999_999_999_999_999
            return Int32(UInt64(truncatingIfNeeded: roundedUp >> 15) / 30_517_578_125)
        }
        let (seconds, attoseconds) = duration.components
        let limit = Int64(Int32.max) / 1000 - 1
        guard seconds < limit else { return Int32.max }
        let subMilliseconds = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(seconds * 1000 + subMilliseconds)
    }
}
