import SceneModel

/// One-shot timers fired by the loop thread: a timer descriptor in the epoll set expires at
/// the earliest deadline, so a timer costs no thread and no wake-up beyond the one at its
/// deadline (and, cancelled while the earliest, one at the deadline it had).
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

    /// Called with the lock held before every `epoll_wait`: returns its timeout (0 when jobs
    /// wait, -1 otherwise) and, when the timer descriptor must move earlier, the deadline to
    /// arm it for (outside the lock). The descriptor is armed for the earliest deadline or an
    /// earlier one, so `epoll_wait` never needs a timeout of its own: a timeout costs the kernel
    /// a timer on every sleep and the loop a clock read, where a watchdog re-armed in place on
    /// every request (`SceneController.armTimer`) moves nothing here. Set for a deadline since
    /// cancelled, the descriptor wakes the loop early, once, and is armed again.
    package static func prepareToWait(_ state: inout EventLoopState) -> (timeout: Int32, arm: LoopInstant?) {
        var arm: LoopInstant? = nil
        if let deadline = state.timers.nextDeadline(), state.timerArmedAt.map({ deadline < $0 }) ?? true {
            state.timerArmedAt = deadline
            arm = deadline
        }
        guard state.jobs.isEmpty else { return (0, arm) }
        // It wakes by then at the latest: an earlier timer armed meanwhile must wake it.
        state.sleep = .sleeping(until: state.timerArmedAt)
        return (-1, arm)
    }

    /// The timer descriptor expired (and was read): the next wait arms it again.
    package static func timerDescriptorExpired(_ state: inout EventLoopState) {
        state.timerArmedAt = nil
    }
}
