import Protocol

/// The deadlines the machine arms and cancels through actions: suspension, background tasks
/// and the step watchdog.
extension SceneMachine {
    package mutating func arm(_ timer: Timer, after delay: Duration) {
        if let generation = armed[timer] {
            output.append(.cancelTimer(TimerToken(timer: timer, generation: generation)))
        }
        nextTimerGeneration += 1
        armed[timer] = nextTimerGeneration
        output.append(.armTimer(TimerToken(timer: timer, generation: nextTimerGeneration), after: delay))
    }

    package mutating func cancel(_ timer: Timer) {
        guard let generation = armed.removeValue(forKey: timer) else { return }
        output.append(.cancelTimer(TimerToken(timer: timer, generation: generation)))
    }

    /// (Re)starts the suspension delay if the scene should be suspended now.
    package mutating func scheduleSuspension() {
        suspendDue = false
        cancel(.suspend)
        if lifecycle.shouldSuspend { arm(.suspend, after: configuration.suspendDelay) }
    }

    package mutating func cancelSuspension() {
        suspendDue = false
        cancel(.suspend)
    }

    /// A background task began: its clock starts now in the background; begun in the
    /// foreground, when the scene enters the background (`reconcileBackgroundTaskClock`).
    package mutating func startBackgroundTaskTimers() {
        cancelSuspension()
        cancelBackgroundTaskTimers()
        reconcileBackgroundTaskClock()
    }

    /// As UIKit's `backgroundTimeRemaining`, a background task's limit counts only while the
    /// scene is in the background: a task begun in the foreground (an upload started from a
    /// button) is not expired there. Its clock starts when the scene enters the background,
    /// and stops when it comes back to the foreground (the next background period starts
    /// afresh). Called after every event: one check when no task runs.
    package mutating func reconcileBackgroundTaskClock() {
        let counts = lifecycle.hasBackgroundTask && lifecycle.activation == .background && worker != nil
        guard counts != backgroundTaskClockRuns else { return }
        if counts {
            expirationDue = false
            cancel(.backgroundTaskDeadline)
            let limit = configuration.backgroundTaskLimit
            arm(.backgroundTaskExpiration, after: limit - configuration.backgroundTaskExpirationLead)
            backgroundTaskClockRuns = true
        } else {
            cancelBackgroundTaskTimers()
        }
    }

    /// The kill of a task the expiration handler left running comes the expiration's lead
    /// after the handler's request came back, not at a fixed time from the task's start: a
    /// loop held back for longer than the lead (a loaded machine) would otherwise fire the
    /// expiration and the kill in one turn, and kill the worker before it could end the task.
    package mutating func armBackgroundTaskDeadline() {
        guard lifecycle.hasBackgroundTask, worker != nil else { return }
        arm(.backgroundTaskDeadline, after: configuration.backgroundTaskExpirationLead)
    }

    package mutating func cancelBackgroundTaskTimers() {
        expirationDue = false
        backgroundTaskClockRuns = false
        cancel(.backgroundTaskExpiration)
        cancel(.backgroundTaskDeadline)
    }
}
