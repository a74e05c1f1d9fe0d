import SceneModel

/// The machine's timers as loop timers: armed, re-armed in place when the loop timer already
/// set fires first, and fired back into the machine.
extension SceneController {
    /// The loop timer `loopID` of `timer` fired: the machine hears of it if its timer is
    /// still armed and was armed for this loop timer's deadline (or an earlier one); one
    /// armed later since waits again, for a loop timer of its own.
    ///
    /// Not "due by now": the loop fires a timer only once everything the descriptors said
    /// before its deadline has been handled (EventLoop's `fireDueTimers(dueBy:)`), which a
    /// deadline passed during this turn has not had. Set again, even in the past, it fires
    /// on the next turn, after a wait that collects what arrived meanwhile.
    func loopTimerFired(_ timer: SceneMachine.Timer, setFor loopDeadline: LoopInstant) {
        // A replaced loop timer was cancelled on this thread, so it cannot fire; the deadline
        // check is only a guard.
        let slot = timer.slot
        guard let armed = timers[slot: slot], armed.loopDeadline == loopDeadline else { return }
        guard let token = armed.token else {
            timers[slot: slot] = nil
            return
        }
        guard armed.deadline <= armed.loopDeadline else {
            timers[slot: slot] = ArmedTimer(
                token: token,
                deadline: armed.deadline,
                loopDeadline: armed.deadline,
                loopID: scheduleLoopTimer(timer, at: armed.deadline)
            )
            return
        }
        timers[slot: slot] = nil
        apply(machine.timerFired(token, now: .now))
    }

    func scheduleLoopTimer(
        _ timer: SceneMachine.Timer,
        at deadline: LoopInstant
    ) -> EventLoopTimerID {
        EventLoop.shared.scheduleTimer(at: deadline) { [weak self] in
            self?.onLoop { $0.loopTimerFired(timer, setFor: deadline) }
        }
    }

    func armTimer(_ token: SceneMachine.TimerToken, after delay: Duration) {
        let deadline = LoopInstant.now() + delay
        // Its slot found once, for the read and the write back.
        let slot = token.timer.slot
        var armed = timers[slot: slot]
        guard case .needsLoopTimer(let replacing) = Self.rearm(&armed, token, deadline) else {
            timers[slot: slot] = armed
            return
        }
        if let replacing { EventLoop.shared.cancelTimer(replacing) }
        timers[slot: slot] = ArmedTimer(
            token: token,
            deadline: deadline,
            loopDeadline: deadline,
            loopID: scheduleLoopTimer(token.timer, at: deadline)
        )
    }

    enum Rearming {
        /// The loop timer already set fires first, and then waits again for the new deadline.
        case rearmed
        /// A loop timer must be set for the new deadline, replacing this one (if any).
        case needsLoopTimer(replacing: EventLoopTimerID?)
    }

    /// Arms `armed` for `deadline` in place when its loop timer fires first: a watchdog armed
    /// and cancelled on every transition then costs no loop timer each.
    static func rearm(
        _ armed: inout ArmedTimer?,
        _ token: SceneMachine.TimerToken,
        _ deadline: LoopInstant
    ) -> Rearming {
        guard let current = armed else { return .needsLoopTimer(replacing: nil) }
        guard current.loopDeadline <= deadline else { return .needsLoopTimer(replacing: current.loopID) }
        armed = ArmedTimer(token: token, deadline: deadline, loopDeadline: current.loopDeadline, loopID: current.loopID)
        return .rearmed
    }

    func cancelTimer(_ token: SceneMachine.TimerToken) {
        // Its slot found once, as in `armTimer`.
        let slot = token.timer.slot
        var armed = timers[slot: slot]
        guard armed != nil else { return }
        let loopID = Self.disarm(&armed, token)
        timers[slot: slot] = armed
        if let loopID { EventLoop.shared.cancelTimer(loopID) }
    }

    /// Disarms `armed` if `token` armed it. A waiter's timer is dropped, and its
    /// loop timer returned for cancelling: one per wait, never armed again, they would pile up
    /// until their timeouts. Any other is kept for its next arming (see `armTimer`).
    static func disarm(_ armed: inout ArmedTimer?, _ token: SceneMachine.TimerToken) -> EventLoopTimerID? {
        guard let current = armed, current.token == token else { return nil }
        if case .waiter = token.timer {
            armed = nil
            return current.loopID
        }
        armed!.token = nil
        return nil
    }
}

/// A machine timer as the shell keeps it: the token armed (nil once cancelled) and its
/// deadline, and the loop timer that stands for it, which may fire earlier than that
/// deadline (never later) and is then set again.
struct ArmedTimer {
    package var token: SceneMachine.TimerToken?
    package var deadline: LoopInstant
    package var loopDeadline: LoopInstant
    package var loopID: EventLoopTimerID
}
