import Protocol

/// The queue of work in arrival order and the one piece in flight: what begins next, how it
/// completes or fails, and what the shell records in turn.
extension SceneMachine {
    /// Sessions discarded elsewhere, for this scene's running worker (or back to the mailbox).
    package mutating func deliverDiscards(_ sessions: [String]) -> [Action] {
        if isClosed {
            output.append(.returnDiscards(sessions))
        } else {
            enqueue(.deliverDiscards(sessions))
        }
        return finishEvent()
    }

    /// Records `event` once the work queued before it is done; `caller` is resumed then.
    package mutating func recordInTurn(_ event: TraceEvent, caller: CallerID?) -> [Action] {
        enqueue(.recordInTurn(event, caller))
        return finishEvent()
    }

    /// Resumes `caller` once the work queued before now is done (the host's quit waits so
    /// for what a scene without a worker still has in flight, such as an undone launch's
    /// deletion of its session, before it closes the store).
    package mutating func settle(caller: CallerID) -> [Action] {
        enqueue(.settle(caller))
        return finishEvent()
    }

    package mutating func enqueue(_ work: Work) {
        queue.append(work)
    }

    mutating func dequeue() -> Work? {
        guard queueHead < queue.count else { return nil }
        if queueHead == queue.count - 1 {
            // The last one (mostly the only one) is moved out: a copy, and the destruction
            // of the array's element, cost about 250 instructions per request.
            let work = queue.removeLast()
            if queueHead > 0 {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return work
        }
        let work = queue[queueHead]
        queueHead += 1
        if queueHead >= 64 && queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return work
    }

    /// Runs whatever can run now, then wakes the waiters whose condition holds; returns the
    /// actions the event produced.
    package mutating func finishEvent() -> [Action] {
        settle()
        let actions = output
        output = spareOutput
        spareOutput = []
        return actions
    }

    /// Carries what an event did as far as it goes (the work driven on, the background-task
    /// clock, the waiters whose condition now holds), its actions left in `output`.
    mutating func settle() {
        drive()
        if lifecycle.hasBackgroundTask || backgroundTaskClockRuns { reconcileBackgroundTaskClock() }
        if !waiters.isEmpty {
            let current = status
            var kept: [Waiter] = []
            for waiter in waiters {
                if waiter.predicate(current) {
                    cancel(.waiter(waiter.caller))
                    output.append(.resume(waiter.caller, .success(())))
                } else {
                    kept.append(waiter)
                }
            }
            waiters = kept
        }
    }

    /// Takes back an array that `finishEvent` returned, once its actions were performed and
    /// removed, so that the next event's actions reuse its storage instead of allocating.
    /// (Emptying it here instead cost more than the allocation it saves.)
    package mutating func recycle(_ actions: consuming [Action]) {
        guard actions.isEmpty, spareOutput.capacity == 0 else { return }
        spareOutput = actions
    }

    /// Carries the work forward until something must be waited for or nothing is left.
    mutating func drive() {
        while true {
            // In place: a copy of the flight would make its steps array shared, and taking a
            // step then copy it.
            if inFlight != nil {
                guard case .none = inFlight!.wait else { return }
                if inFlight!.steps.isEmpty {
                    complete()
                    continue
                }
                start(inFlight!.steps.takeFirst())
                continue
            }
            guard let work = dequeue() else { return }
            begin(work)
        }
    }

    mutating func begin(_ work: Work) {
        switch work {
        case .request(let op, let caller):
            let askedAfter = appTerminatesAskedAfter.isEmpty ? nil : appTerminatesAskedAfter.removeValue(forKey: caller)
            switch lifecycle.request(op) {
            case .refuse where op == .windowMemoryWarning || op == .windowTerminate:
                // The host's own fan-out of an app's memory warning or terminate: a window that
                // is no longer running by its turn (suspended, gone) does not hear of it, as on
                // iOS. No refusal.
                output.append(.resume(caller, .success(())))
            case .refuse
            where askedAfter.map({ windowTerminationsCompleted > $0 }) ?? false && !lifecycle.hasLiveWorker
                && !lifecycle.isDiscarded:
                // Another window's terminate, asked at the same time, ended this one first: the
                // app terminated, as this client asked (`request`). No refusal.
                output.append(.resume(caller, .success(())))
            case .refuse(let reason):
                refuse(op.name, reason: reason, caller: caller, viewController: op.child)
            case .perform(let steps):
                switch op {
                case .disconnect, .discard: worker?.endsOnPurpose = true
                case .terminate, .windowTerminate:
                    worker?.endsOnPurpose = true
                    lifecycle.userEndedTheApp()
                default: break
                }
                // Under way, a window's terminate is a terminate (what `fail` and the steps check).
                // A pattern, not `==`: every request begins here.
                let isWindowTerminate = if case .windowTerminate = op { true } else { false }
                inFlight = InFlight(work: isWindowTerminate ? .request(.terminate, caller) : work, steps: Steps(steps))
                inFlight!.isWindowTerminate = isWindowTerminate
            }
        case .restart(let background, let root):
            guard !lifecycle.hasLiveWorker, !lifecycle.isDiscarded, !isQuitting else { return }
            inFlight = InFlight(work: work, steps: [.launch(background: background, root: root)])
        case .suspend:
            guard suspendDue else { return }
            suspendDue = false
            guard lifecycle.shouldSuspend, worker?.pid != nil else { return }
            // Nothing else runs until the kernel says it is stopped: `suspended` is never
            // ahead of the kernel, and no request reaches a worker being stopped.
            inFlight = InFlight(work: work, steps: [], wait: .stop)
            output.append(.stopProcessGroup)
        case .deliverDiscards(let sessions):
            guard lifecycle.process == .running, lifecycle.activation != .unattached, worker?.pid != nil,
                !isQuitting, lifecycle.kind == .scene
            else {
                output.append(.returnDiscards(sessions))
                return
            }
            inFlight = InFlight(work: work, steps: [.send(.didDiscardSceneSessions(sessions: sessions))])
        case .recordInTurn(let event, let caller):
            record(event)
            if let caller { output.append(.resume(caller, .success(()))) }
        case .settle(let caller):
            output.append(.resume(caller, .success(())))
        case .deliverQueuedNotifications:
            guard lifecycle.process == .running, worker?.pid != nil else { return }
            inFlight = InFlight(work: work, steps: [.deliverQueuedNotifications])
        case .expireBackgroundTask:
            guard expirationDue else { return }
            expirationDue = false
            guard lifecycle.hasBackgroundTask, worker?.pid != nil else { return }
            guard lifecycle.process == .running else { return armBackgroundTaskDeadline() }
            inFlight = InFlight(work: work, steps: [.send(.expireBackgroundTask)])
        }
    }

    /// The work in flight ran all its steps.
    package mutating func complete() {
        guard let flight = inFlight.take() else { return }
        if case .expireBackgroundTask = flight.work { armBackgroundTaskDeadline() }
        let failure = flight.failure ?? flight.storeFailure
        if flight.isWindowTerminate, failure == nil { windowTerminationsCompleted += 1 }
        if let caller = flight.caller {
            if failure == nil, let result = flight.result { output.append(.deliver(caller, result)) }
            output.append(.resume(caller, failure.map { .failure($0) } ?? .success(())))
        } else if let failure {
            reportInternalFailure(of: flight.work, failure)
        }
    }

    /// The work in flight failed with `error`: its caller hears of it, nothing else of it runs.
    /// A `terminate` still ends its worker (the host's quit relies on it).
    package mutating func fail(_ error: HostError) {
        guard var flight = inFlight else { return }
        cancel(.step)
        if case .request(.terminate, _) = flight.work, flight.failure == nil, worker != nil {
            flight.failure = error
            flight.steps = []
            flight.storing = nil
            worker?.endsOnPurpose = true
            flight.wait = .exit(request: nil, failsOnRefusal: false, onTimeout: .kill(.terminateTimeout))
            inFlight = flight
            arm(.step, after: configuration.terminateLimit)
            return
        }
        inFlight = nil
        if let caller = flight.caller {
            output.append(.resume(caller, .failure(flight.failure ?? error)))
        } else {
            reportInternalFailure(of: flight.work, error)
        }
    }

    package mutating func reportInternalFailure(of work: Work, _ error: HostError) {
        guard case .restart = work else { return }
        recordError(op: "restart", .operationFailed, "restart failed: \(error)")
    }

    /// Refuses `op`: an error event and the caller's failure, and nothing else (a refusal
    /// changes nothing: not the state, not a timer).
    /// `viewController`: the child a refused `addChild` or `removeChild` names (its event's `vc`).
    package mutating func refuse(_ op: String, reason: String, caller: CallerID, viewController: String? = nil) {
        var event = TraceEvent(kind: .error, scene: id, op: op, code: ProtocolError.Code.illegalTransition.rawValue)
        event.message = reason
        event.viewController = viewController
        record(event)
        output.append(.resume(caller, .failure(.refused(scene: id, op: op, reason: reason))))
    }

    /// Records an `error` trace event for this scene.
    package mutating func recordError(op: String, _ code: ProtocolError.Code, _ message: String) {
        record(TraceEvent(kind: .error, scene: id, op: op, code: code.rawValue, message: message))
    }

    package mutating func setWait(_ wait: Wait) {
        inFlight?.wait = wait
    }
}
