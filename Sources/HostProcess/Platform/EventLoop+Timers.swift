import SceneModel

/// One-shot timers fired by the loop thread: the earliest deadline is `epoll_wait`'s timeout,
/// so a timer costs no thread and no wake-up beyond the one at its deadline.
extension EventLoop {
    /// Arms a one-shot timer; `action` runs on the loop thread at or after `deadline` (a
    /// deadline in the past fires on the loop's next turn). Callable from any thread.
    /// Timers with the same deadline fire in the order they were armed.
    package func scheduleTimer(
        at deadline: LoopInstant,
        _ action: @escaping @Sendable () -> Void
    ) -> EventLoopTimerID {
        let (id, mustWake) = loopState.withLock { state in
            let id = state.timers.schedule(at: deadline, action)
            return (id, state.wakeIfSleeping(forDeadline: deadline))
        }
        if mustWake { wakeUp() }
        return id
    }

    /// `scheduleTimer(at:_:)` for a deadline on `ContinuousClock` (converted once, never to an
    /// earlier moment).
    package func scheduleTimer(
        at deadline: ContinuousClock.Instant,
        _ action: @escaping @Sendable () -> Void
    ) -> EventLoopTimerID {
        scheduleTimer(at: LoopInstant(deadline), action)
    }

    /// Disarms `id`. Cancelling a timer that already fired or was cancelled is harmless; a
    /// timer whose action is running or about to run on the loop thread is not stopped.
    package func cancelTimer(_ id: EventLoopTimerID) {
        loopState.withLock { $0.timers.cancel(id) }
    }

    /// Runs the actions of every timer due by `instant`, each outside the lock.
    package func fireDueTimers(dueBy instant: LoopInstant) {
        while let action = loopState.withLock({ state -> TimerQueue.Action? in
            guard let next = state.timers.nextDeadline(), next <= instant else { return nil }
            return state.timers.popDue(now: instant)
        }) {
            action()
        }
    }

    /// Called with the lock held, just before sleeping: records what the loop sleeps until
    /// and returns the `epoll_wait` timeout in milliseconds (-1: no timer, 0: do not sleep).
    package static func prepareToSleep(_ state: inout EventLoopState) -> Int32 {
        guard state.jobs.isEmpty else { return 0 }
        guard let deadline = state.timers.nextDeadline() else {
            state.sleep = .sleeping(until: nil)
            return -1
        }
        let remaining = LoopInstant.now().nanoseconds(to: deadline)
        guard remaining > 0 else { return 0 }
        state.sleep = .sleeping(until: deadline)
        return milliseconds(roundingUp: remaining)
    }

    /// `epoll_wait` counts whole milliseconds; rounding up keeps "at or after the deadline".
    /// `nanoseconds`: not negative.
    package static func milliseconds(roundingUp nanoseconds: Int64) -> Int32 {
        let milliseconds = nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 > 0 ? 1 : 0)
        return Int32(clamping: milliseconds)
    }
}
