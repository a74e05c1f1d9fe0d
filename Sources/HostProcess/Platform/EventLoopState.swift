/// What the event loop shares with other threads besides its watches: queued work, timers, and
/// whether the loop thread is asleep (so that only then does anyone pay for waking it).
package struct EventLoopState {
    /// One unit of work queued on the loop.
    package enum Job {
        /// A job of an actor whose serial executor is the loop: run isolated to it.
        case job(UnownedJob)
        /// A job of a task that prefers the loop's task executor, outside any actor: run as
        /// nonisolated code on the loop thread.
        case taskJob(UnownedJob)
        /// Work from `EventLoop.execute(_:)`.
        case work(@Sendable () -> Void)
    }

    /// Whether the loop thread is in, or about to enter, a sleeping `epoll_wait`.
    package enum Sleep {
        /// Running handlers, jobs or timers: it looks at the queue and the timers before sleeping.
        case awake
        /// Sleeping until this deadline (nil: until an event): new work, or a timer that is
        /// due earlier, must wake it through the eventfd.
        case sleeping(until: LoopInstant?)
    }

    /// FIFO; swapped out whole by the loop thread, so enqueueing never waits for jobs to run.
    package var jobs: [Job] = []
    package var timers = TimerQueue()
    package var sleep = Sleep.awake
    /// What the loop's timer descriptor is armed for, nil when it is not (never armed, or
    /// expired and read): never later than the earliest deadline while the loop waits.
    package var timerArmedAt: LoopInstant?

    /// Whether a job is queued or a timer is due at `now`.
    package mutating func hasWorkDue(at now: LoopInstant) -> Bool {
        guard jobs.isEmpty else { return true }
        guard let deadline = timers.nextDeadline() else { return false }
        return deadline <= now
    }

    /// Marks the loop awake if it sleeps; true when the caller must write the eventfd.
    package mutating func wakeIfSleeping(forDeadline deadline: LoopInstant? = nil) -> Bool {
        guard case .sleeping(let until) = sleep else { return false }
        if let deadline, let until, until <= deadline { return false }
        sleep = .awake
        return true
    }
}
