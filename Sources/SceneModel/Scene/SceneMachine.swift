import Protocol

/// Everything one scene decides, as a plain value: events in, actions out, no I/O and no
/// waiting (swift-nio's state-machine style).
///
/// It owns the lifecycle (`SceneLifecycle`), the queue of requests in arrival order and the
/// one in flight with its remaining steps, the worker process's part (`WorkerProcessMachine`),
/// the restart intensity, the waiters, and every deadline (armed and cancelled through
/// actions, fired back as `timerFired`). The scene actor feeds it the events in the one order
/// they happened and performs the actions; because a death is an event like a reply, a
/// request in flight learns of it before anything queued behind it is judged.
package struct SceneMachine: Sendable {
    package let id: String
    package var configuration: Configuration
    package var lifecycle = SceneLifecycle()
    /// The stored session as the store has it (this scene is its only writer).
    package var session: SceneSession?
    package var worker: WorkerProcessMachine?
    package var lastExit: WorkerExit?
    /// How the last worker ended, for the errors of requests its death failed.
    package var lastExitDetail: WorkerExitDetail?
    /// A `stateRestorationActivity` callback held until the reply that carries its answer,
    /// so the trace records what the scene saved on it (`restoration`).
    package var heldRestorationCallback: TraceEvent?
    package var inFlight: InFlight?
    private var queue: [Work] = []
    private var queueHead = 0
    private var waiters: [Waiter] = []
    /// Callers of `kill` and of system kills, resumed at the death (or the kill grace).
    package var killWaiters: [CallerID] = []
    private var armed = TimerTable<Int>()
    private var nextTimerGeneration = 0
    package var restartIntensity = RestartIntensity()
    private var lastArgv: [String]?
    /// The argv of the last worker whose connect succeeded: what a `connect` without a
    /// worker of its own starts (one that failed to connect is not worth repeating).
    package var lastConnectedArgv: [String]?
    /// The last connect's launch parameters, for a restart.
    private var lastLaunch = LaunchParameters()
    /// The scene as it was before the launch in flight, for a spawn that fails: then no
    /// worker ran, and the launch is undone (the session it stored included).
    private var beforeLaunch: (lifecycle: SceneLifecycle, session: SceneSession?, lastArgv: [String]?)?
    /// The limit of the step whose watchdog killed the worker, for the error its death gives.
    package var watchdogLimit: String?
    /// The suspend timer fired; the suspension runs when nothing is in flight.
    package var suspendDue = false
    package var expirationDue = false
    /// The background task's clock runs: its expiration (or, after it, the kill) is armed.
    package var backgroundTaskClockRuns = false
    package private(set) var isQuitting = false
    package private(set) var isClosed = false
    package var output: [Action] = []
    /// Empty storage for the next `output` (see `recycle`).
    private var spareOutput: [Action] = []

    package init(id: String, configuration: Configuration, session: SceneSession?, discardedAtLaunch: Bool) {
        self.id = id
        self.configuration = configuration
        self.session = session
        // The app that last connected the stored session, if not the default (a host restart).
        lastConnectedArgv = session?.worker
        lifecycle.sessionExists = session != nil
        if session?.lifecycle == .app { lifecycle.kind = .app }
        if discardedAtLaunch { lifecycle.discarded() }
    }

    package var status: SceneStatus {
        SceneStatus(
            scene: id,
            activation: lifecycle.activation,
            process: lifecycle.process,
            pid: worker?.pid,
            stack: lifecycle.stack,
            hasBackgroundTask: lifecycle.hasBackgroundTask,
            isDiscarded: lifecycle.isDiscarded,
            lastExit: lastExit,
            workerArgv: worker?.argv ?? lastConnectedArgv,
            presented: lifecycle.presented?.name,
            presentation: lifecycle.presented?.style,
            lifecycle: lifecycle.kind,
            selectedTab: lifecycle.tabs.isEmpty ? nil : lifecycle.selectedTab,
            tabs: lifecycle.tabs.isEmpty ? nil : lifecycle.tabStacks,
            children: lifecycle.frontmostChildren
        )
    }

    /// Whether nothing is in flight or queued.
    package var isIdle: Bool { inFlight == nil && queueHead == queue.count }

    /// The timers armed now (for tests: a refusal must leave them alone).
    package var armedTimers: [Timer: Int] { armed.dictionary }

    // MARK: Requests

    /// A caller asks for `op`. `kill` acts at once, ahead of anything in flight or queued
    /// (the transition in flight then fails with the death); everything else is queued.
    package mutating func request(_ op: SceneOperation, caller: CallerID) -> [Action] {
        if isClosed {
            output.append(.resume(caller, .failure(.shuttingDown)))
        } else if case .kill(let signal) = op {
            kill(signal: signal, caller: caller)
        } else if case .terminate = op, lifecycle.process == .launching, worker != nil {
            terminateLaunching(caller: caller)
        } else {
            enqueue(.request(op, caller))
        }
        return finishEvent()
    }

    /// The system kills the live worker with SIGKILL and `reason`, at once and on purpose (no
    /// restart); `caller` is resumed at its death, or at once when there is no worker.
    package mutating func systemKill(reason: TerminationReason, caller: CallerID) -> [Action] {
        if lifecycle.hasLiveWorker, worker != nil {
            worker?.endsOnPurpose = true
            sendKill(SIGKILLNumber, reason: reason)
            killWaiters.append(caller)
        } else {
            output.append(.resume(caller, .success(())))
        }
        return finishEvent()
    }

    /// Waits until `predicate` holds for the status, at most `timeout`.
    package mutating func wait(
        caller: CallerID,
        what: String,
        timeout: Duration?,
        _ predicate: @escaping @Sendable (SceneStatus) -> Bool
    ) -> [Action] {
        if predicate(status) {
            output.append(.resume(caller, .success(())))
        } else if isClosed {
            // Closed by the host's quit: nothing will change any more.
            output.append(.resume(caller, .failure(.shuttingDown)))
        } else {
            waiters.append(Waiter(caller: caller, what: what, predicate: predicate))
            if let timeout { arm(.waiter(caller), after: timeout) }
        }
        return finishEvent()
    }

    /// The waiting caller went away (its task was cancelled): its waiter and its timer go.
    /// The caller is resumed by the shell, not through an action.
    package mutating func dropWaiter(caller: CallerID) -> [Action] {
        if let index = waiters.firstIndex(where: { $0.caller == caller }) {
            waiters.remove(at: index)
            cancel(.waiter(caller))
        }
        return finishEvent()
    }

    package mutating func setRestartPolicy(_ policy: RestartPolicy?) {
        configuration.restartPolicy = policy
    }

    /// The host quits: no launch and no restart from now on; a worker still alive `deadline`
    /// later is SIGKILLed with reason `terminate-timeout`.
    package mutating func beginQuit(deadline: Duration) -> [Action] {
        isQuitting = true
        // LIFECYCLE.md §4: a worker still launching is killed silently, at once (here, not
        // when the quit's terminate reaches the scene: its deadline may come first).
        if lifecycle.process == .launching, worker != nil { killLaunchingSilently() }
        if lifecycle.hasLiveWorker { arm(.quitDeadline, after: deadline) }
        return finishEvent()
    }

    /// SIGKILLs the live worker now with `reason`, ahead of everything queued.
    package mutating func killNow(reason: TerminationReason) -> [Action] {
        if worker != nil { sendKill(SIGKILLNumber, reason: reason) }
        return finishEvent()
    }

    /// No more requests: later ones fail with `shuttingDown`; the ones queued still run.
    /// The waits whose condition the end state does not meet fail with `shuttingDown` too
    /// (nothing will change any more): a `waitFor` with no timeout must not outlive the host.
    package mutating func close() -> [Action] {
        isClosed = true
        cancel(.quitDeadline)
        var actions = finishEvent()
        for waiter in waiters {
            cancel(.waiter(waiter.caller))
            output.append(.resume(waiter.caller, .failure(.shuttingDown)))
        }
        waiters = []
        actions += finishEvent()
        return actions
    }

    // MARK: Completions from the shell

    /// `discarded`: sessions the launching worker is to hear of right after launching.
    package mutating func spawnCompleted(pid: Int32, discarded: [String] = []) -> [Action] {
        guard var worker, worker.pid == nil else { return finishEvent() }
        beforeLaunch = nil
        let deferred = worker.spawned(pid: pid)
        self.worker = worker
        output.append(
            .record(TraceEvent(kind: .process, scene: id, processEvent: .spawned, pid: pid, argv: worker.argv))
        )
        for signal in deferred { output.append(.signal(signal)) }
        if var flight = inFlight, flight.wait == .spawn, let launch = flight.launch {
            let session = self.session ?? SceneSession(identifier: id)
            var options = ConnectOptions(
                session: id,
                configuration: session.configuration,
                role: session.role,
                background: launch.background,
                root: launch.root,
                reconnect: launch.reconnect,
                restoration: session.restoration
            )
            switch flight.work {
            case .request(.connect(_, _, _, let launch), _): lastLaunch = launch
            case .request(.openURL(let url), _): lastLaunch.url = url
            default: break
            }
            lastLaunch.apply(to: &options)
            // A connect that asks for no lifecycle keeps the one the session's app declared.
            let asked = lastLaunch.lifecycle ?? (lifecycle.kind == .app ? .app : nil)
            if asked == .app {
                // An app without scenes never hears of discarded sessions (§3d): kept for another.
                if !discarded.isEmpty { output.append(.returnDiscards(discarded)) }
            } else {
                options.discardedSessions = discarded.isEmpty ? nil : discarded
            }
            let operation = WorkerOperation.connect(options)
            let requestID = self.worker!.register(operation.name)
            output.append(
                .write([
                    .hello(protocolVersion: ProtocolVersion.current, lifecycle: asked),
                    .request(id: requestID, operation),
                ])
            )
            arm(.step, after: configuration.launchLimit)
            flight.wait = .reply(id: requestID, operation)
            inFlight = flight
        } else if !discarded.isEmpty {
            output.append(.returnDiscards(discarded))
        }
        return finishEvent()
    }

    /// No worker started (a path that is not there or not executable, the process limit):
    /// the launch is undone, so the failed request changes nothing. The scene is as it was
    /// (a new one has no session and no process state again, and is forgotten like any name
    /// a request only mentioned), a session the launch stored is deleted before the caller
    /// hears of the failure, and the trace says why in an `error` event.
    package mutating func spawnFailed(_ error: HostError) -> [Action] {
        guard worker?.pid == nil, worker != nil else { return finishEvent() }
        worker = nil
        // A kill asked for while the spawn was on its way has nothing left to kill.
        resumeKillWaiters()
        cancel(.quitDeadline)
        guard let flight = inFlight, flight.wait == .spawn else {
            lifecycle.processExited()
            return finishEvent()
        }
        if case .request(let op, _) = flight.work {
            recordError(op: op.name, .operationFailed, "\(error)")
        }
        undoLaunch(failing: error)
        return finishEvent()
    }

    /// Fails the launch in flight and puts the scene back as it was before it (no worker
    /// ran): the session the launch stored is deleted first, and the caller hears of the
    /// failure once that is done (`AfterStore.rollback`).
    private mutating func undoLaunch(failing error: HostError) {
        guard var flight = inFlight, let before = beforeLaunch.take() else { return fail(error) }
        lifecycle = before.lifecycle
        lastArgv = before.lastArgv
        guard session != nil, before.session == nil else { return fail(error) }
        flight.failure = error
        flight.wait = .store(.rollback)
        inFlight = flight
        output.append(.deleteSession)
    }

    package mutating func storeCompleted() -> [Action] {
        guard var flight = inFlight, case .store(let after) = flight.wait else { return finishEvent() }
        if let stored = flight.storing { session = stored }
        flight.storing = nil
        flight.wait = .none
        inFlight = flight
        switch after {
        case .launch(let background, let root, let argv):
            lifecycle.sessionSaved()
            if isQuitting {
                // The quit overtook the launch: the session stored for it goes again.
                undoLaunch(failing: .shuttingDown)
            } else {
                beginLaunch(background: background, root: root, argv: argv)
            }
        case .restoration:
            scheduleSuspension()
        case .deletion, .connectedWorker:
            break
        case .rollback:
            session = nil
            fail(flight.failure ?? .shuttingDown)
        }
        return finishEvent()
    }

    /// The process group of worker `pid` is stopped (or that worker died meanwhile). The pid
    /// tells a late answer about a dead worker from the answer about its successor.
    ///
    /// `stopped` false: the kernel did not say stopped within the stop's limit (a worker in
    /// uninterruptible sleep); the stop was undone with SIGCONT. It is not recorded suspended
    /// (never ahead of the kernel): an error says so and the suspension is tried again after
    /// the suspend delay.
    package mutating func stopCompleted(pid: Int32, stopped: Bool = true) -> [Action] {
        guard let flight = inFlight, flight.wait == .stop, worker?.pid == pid else { return finishEvent() }
        setWait(.none)
        guard stopped else {
            recordError(
                op: "suspend",
                .operationFailed,
                "worker \(pid) did not stop within the limit; it was continued and its suspension is tried again"
            )
            scheduleSuspension()
            return finishEvent()
        }
        if lifecycle.shouldSuspend {
            output.append(.record(TraceEvent(kind: .process, scene: id, processEvent: .suspended, pid: pid)))
            lifecycle.suspended()
        } else {
            // What made the suspension moot came while the kernel stopped the group: the app
            // began a background task from work it had queued. The worker runs on (it was
            // never recorded suspended), so the stop is undone.
            output.append(.signalProcessGroup(SIGCONTNumber))
        }
        return finishEvent()
    }

    package mutating func storeFailed(_ error: HostError) -> [Action] {
        guard let flight = inFlight, case .store(let after) = flight.wait else { return finishEvent() }
        // The worker is in the background whether or not its state could be stored: it is
        // suspended like any other (it would otherwise run for ever).
        if after == .restoration { scheduleSuspension() }
        // Work that ends the worker goes on without the state, so that the app still ends in
        // order; its caller hears of the failure once it has (a discard's never: the session
        // goes anyway).
        if after == .restoration, endsTheWorker(flight.work) {
            continueWithoutStoring(isDiscard(flight.work) ? nil : error)
            return finishEvent()
        }
        // The worker runs: not storing its argv is reported, not a failed connect (the next
        // save of the session stores it).
        if after == .connectedWorker {
            recordError(
                op: Self.operationName(of: flight.work),
                .operationFailed,
                "the worker that connected was not stored as the scene's: \(error)"
            )
            continueWithoutStoring(nil)
            return finishEvent()
        }
        // A session a failed launch could not delete again is still there.
        if after == .rollback { lifecycle.sessionSaved() }
        fail(error)
        return finishEvent()
    }

    /// The work in flight goes on without the session it was storing, and fails with `error`
    /// once it has run its steps (nil: it does not fail for it).
    package mutating func continueWithoutStoring(_ error: HostError?) {
        guard var flight = inFlight else { return }
        flight.storeFailure = flight.storeFailure ?? error
        flight.storing = nil
        flight.wait = .none
        inFlight = flight
    }

    /// Work whose steps end the worker: a state it cannot store does not stop it halfway.
    package func endsTheWorker(_ work: Work) -> Bool {
        switch work {
        case .request(.terminate, _), .request(.disconnect, _), .request(.discard, _): true
        default: false
        }
    }

    package func isDiscard(_ work: Work) -> Bool {
        if case .request(.discard, _) = work { return true }
        return false
    }

    // MARK: Timers

    package mutating func timerFired(_ token: TimerToken, now: ContinuousClock.Instant) -> [Action] {
        guard armed[token.timer] == token.generation else { return finishEvent() }
        armed[token.timer] = nil
        switch token.timer {
        case .step:
            stepTimedOut()
        case .killGrace:
            worker?.withdrawKillReason()
            resumeKillWaiters()
        case .suspend:
            suspendDue = true
            enqueue(.suspend)
        case .backgroundTaskExpiration:
            expirationDue = true
            enqueue(.expireBackgroundTask)
        case .backgroundTaskDeadline:
            if lifecycle.hasBackgroundTask, worker != nil {
                sendKill(SIGKILLNumber, reason: .backgroundTaskTimeout)
            }
        case .pipeClosedGrace:
            if worker?.closedPipe != nil { output.append(.probeExiting) }
        case .quitDeadline:
            if worker != nil { sendKill(SIGKILLNumber, reason: .terminateTimeout) }
        case .waiter(let caller):
            if let index = waiters.firstIndex(where: { $0.caller == caller }) {
                let waiter = waiters.remove(at: index)
                output.append(.resume(caller, .failure(.timedOut(scene: id, waitingFor: waiter.what))))
            }
        }
        return finishEvent()
    }

    // MARK: Internals

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

    private mutating func dequeue() -> Work? {
        guard queueHead < queue.count else { return nil }
        let work = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead >= 64 && queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return work
    }

    /// Runs whatever can run now, then wakes the waiters whose condition holds; returns the
    /// actions the event produced.
    package mutating func finishEvent() -> [Action] {
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
        let actions = output
        output = spareOutput
        spareOutput = []
        return actions
    }

    /// Takes back an array that `finishEvent` returned, once its actions were performed and
    /// removed, so that the next event's actions reuse its storage instead of allocating.
    /// (Emptying it here instead cost more than the allocation it saves.)
    package mutating func recycle(_ actions: consuming [Action]) {
        guard actions.isEmpty, spareOutput.capacity == 0 else { return }
        spareOutput = actions
    }

    /// Carries the work forward until something must be waited for or nothing is left.
    private mutating func drive() {
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

    private mutating func begin(_ work: Work) {
        switch work {
        case .request(let op, let caller):
            switch lifecycle.request(op) {
            case .refuse(let reason):
                refuse(op.name, reason: reason, caller: caller, viewController: op.child)
            case .perform(let steps):
                switch op {
                case .disconnect, .discard, .terminate: worker?.endsOnPurpose = true
                default: break
                }
                inFlight = InFlight(work: work, steps: Steps(steps))
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
            output.append(.record(event))
            if let caller { output.append(.resume(caller, .success(()))) }
        case .settle(let caller):
            output.append(.resume(caller, .success(())))
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
        if let caller = flight.caller {
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
        output.append(.record(event))
        output.append(.resume(caller, .failure(.refused(scene: id, op: op, reason: reason))))
    }

    /// Records an `error` trace event for this scene.
    package mutating func recordError(op: String, _ code: ProtocolError.Code, _ message: String) {
        output.append(.record(TraceEvent(kind: .error, scene: id, op: op, code: code.rawValue, message: message)))
    }

    package mutating func setWait(_ wait: Wait) {
        inFlight?.wait = wait
    }

    // MARK: Steps

    private mutating func start(_ step: SceneLifecycle.Step) {
        switch step {
        case .launch(let background, let root):
            // A quit in progress starts no worker: it would outlive the quit.
            guard !isQuitting else {
                fail(.shuttingDown)
                return
            }
            // The session's state goes to the worker in the connect frame: one too large for
            // a frame could never launch (the worker refuses the frame, and the launch watchdog
            // ends it). Refused before anything is spawned; nothing changed.
            // (A worker's state that large is not stored; this one came from a session file.)
            if let restoration = session?.restoration, lifecycle.sessionExists {
                let size = Self.encodedSize(of: restoration)
                if size > maximumRestorationBytes {
                    let op = inFlight.map { Self.operationName(of: $0.work) } ?? "connect"
                    let reason =
                        "the session's restoration state is \(size) bytes: a connect frame cannot carry "
                        + "it (the frame limit is \(configuration.frameLimit) bytes); discard the session to start afresh"
                    recordError(op: op, .invalidParameters, reason)
                    fail(.requestTooLarge(scene: id, op: op, reason: reason))
                    return
                }
            }
            // A restart runs the worker that died again. A connect runs the one it names,
            // else the last one that connected: a reconnect starts the app the scene ran
            // (the host's default worker would overwrite that app's stored state).
            var argv = lastConnectedArgv ?? configuration.worker
            switch inFlight?.work {
            case .request(.connect(_, _, let worker?, _), _): argv = worker
            case .restart, .request(.openURL, _): argv = lastArgv ?? argv
            default: break
            }
            inFlight?.launch = (background, root, lifecycle.sessionExists)
            beforeLaunch = (lifecycle, session, lastArgv)
            if !lifecycle.sessionExists {
                // Its worker is stored once it connects (`storeConnectedWorker`): one that
                // never says ready must not be what the next host starts.
                var fresh = session ?? SceneSession(identifier: id)
                if case .request(.connect(_, _, _, let launch), _)? = inFlight?.work, let kind = launch.lifecycle {
                    fresh.lifecycle = kind == .app ? .app : nil
                }
                inFlight?.storing = fresh
                setWait(.store(.launch(background: background, root: root, argv: argv)))
                output.append(.storeSession(fresh))
            } else {
                beginLaunch(background: background, root: root, argv: argv)
            }

        case .resume:
            guard let pid = worker?.pid else { return }
            output.append(.signalProcessGroup(SIGCONTNumber))
            output.append(.record(TraceEvent(kind: .process, scene: id, processEvent: .resumed, pid: pid)))
            lifecycle.resumed()

        case .deliverQueuedNotifications:
            let sends = lifecycle.takeQueuedNotifications().map {
                SceneLifecycle.Step.send(.notify(name: $0.name, value: $0.value))
            }
            inFlight?.steps.prepend(sends)

        case .send(let operation):
            guard worker?.pid != nil, lifecycle.hasLiveWorker else {
                fail(
                    .workerExited(
                        scene: id,
                        op: operation.name,
                        reason: lastExit?.reason ?? .crashed,
                        detail: lastExitDetail ?? .init()
                    )
                )
                return
            }
            let requestID = worker!.register(operation.name)
            output.append(.write([.request(id: requestID, operation)]))
            arm(.step, after: configuration.transitionLimit)
            setWait(.reply(id: requestID, operation))

        case .disconnectWorker:
            guard worker?.pid != nil else { return }
            worker!.expectCleanExit(.disconnected)
            let requestID = worker!.register(WorkerOperation.disconnect.name)
            output.append(.write([.request(id: requestID, .disconnect)]))
            arm(.step, after: configuration.transitionLimit)
            setWait(.exit(request: requestID, failsOnRefusal: true, onTimeout: .kill(.watchdog)))

        case .terminateWorker:
            guard worker?.pid != nil else { return }
            worker!.expectCleanExit(.terminated)
            let requestID = worker!.register(WorkerOperation.terminate.name)
            output.append(.write([.request(id: requestID, .terminate)]))
            arm(.step, after: configuration.terminateLimit)
            setWait(.exit(request: requestID, failsOnRefusal: false, onTimeout: .kill(.terminateTimeout)))

        case .signal(let signal, let reason):
            guard worker != nil else { return }
            if case .request(.terminate, _) = inFlight?.work { worker!.killedSilently = true }
            if signal == SIGKILLNumber {
                sendKill(signal, reason: reason)
                setWait(.exit(request: nil, failsOnRefusal: false, onTimeout: .giveUp))
            } else if lifecycle.process == .suspended {
                // Stays stopped: the signal is delivered when the scene resumes.
                output.append(.signal(signal))
            } else {
                sendKill(signal, reason: reason)
                arm(.step, after: configuration.terminateLimit)
                setWait(.exit(request: nil, failsOnRefusal: false, onTimeout: .giveUp))
            }

        case .discardSession:
            output.append(
                .record(TraceEvent(kind: .callback, scene: id, name: CallbackName.didDiscardSceneSessions.rawValue))
            )
            output.append(.deleteSession)
            output.append(.announceDiscard)
            session = nil
            // The next session under this name is a new one, whose app has declared no kind yet
            // (§3d): the last launch's lifecycle is not asked for again (its root and tabs are
            // the app's, and stay).
            lastLaunch.lifecycle = nil
            lifecycle.discarded()
            setWait(.store(.deletion))

        case .queueNotification(let name, let value):
            lifecycle.queue(notification: name, value: value)
        }
    }

    /// What a connect frame holds besides the restoration state, at most (its names, its
    /// launch parameters), with room to spare.
    package static let connectFrameRoom = 8192

    /// The largest restoration state, in bytes of JSON, that a connect frame gives back.
    package var maximumRestorationBytes: Int { configuration.frameLimit - Self.connectFrameRoom }

    package static func encodedSize(of value: JSONValue) -> Int {
        var encoded: [UInt8] = []
        JSONWriter.write(value, into: &encoded)
        return encoded.count
    }

    package static func operationName(of work: Work) -> String {
        if case .request(let op, _) = work { return op.name }
        return "restart"
    }

    /// What a session stores of the worker `argv`: nothing for the host's default.
    package func storedWorker(_ argv: [String]?) -> [String]? {
        argv == configuration.worker ? nil : argv
    }

    private mutating func beginLaunch(background: Bool, root: String, argv: [String]) {
        lifecycle.launching(root: root)
        lastArgv = argv
        worker = WorkerProcessMachine(argv: argv)
        setWait(.spawn)
        output.append(.spawn(argv: argv))
    }

    /// The step watchdog fired.
    private mutating func stepTimedOut() {
        guard let flight = inFlight else { return }
        switch flight.wait {
        case .reply(_, let operation):
            guard worker != nil else { return }
            if case .connect = operation {
                watchdogLimit = Self.describe("launch limit", configuration.launchLimit, setting: "launchLimit")
            } else {
                watchdogLimit = Self.describe(
                    "transition limit",
                    configuration.transitionLimit,
                    setting: "transitionLimit"
                )
            }
            sendKill(SIGKILLNumber, reason: .watchdog)
        case .exit(_, _, .kill(let reason)):
            guard worker != nil else { return }
            if reason == .watchdog {
                // A disconnect: the worker did not exit within the transition limit.
                watchdogLimit = Self.describe(
                    "transition limit",
                    configuration.transitionLimit,
                    setting: "transitionLimit"
                )
            }
            sendKill(SIGKILLNumber, reason: reason)
        case .exit(_, _, .giveUp):
            worker?.withdrawKillReason()
            setWait(.none)
        case .none, .store, .spawn, .stop:
            break
        }
    }

    /// `the launch limit of 500 ms (HostConfiguration.launchLimit)`. The names the command
    /// line gives it are the command line's to say (`hostctl run --help`).
    private static func describe(_ name: String, _ limit: Duration, setting: String) -> String {
        let (seconds, attoseconds) = limit.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "the \(name) of \(milliseconds) ms (HostConfiguration.\(setting))"
    }

    /// Signals the worker, recording `reason` for its death (the first reason set wins).
    package mutating func sendKill(_ signal: Int32, reason: TerminationReason?) {
        guard var worker else { return }
        let now = worker.kill(signal: signal, reason: reason)
        self.worker = worker
        if now { output.append(.signal(signal)) }
    }

    /// A `kill` request, carried out at once (LIFECYCLE.md: a kill does not wait behind a
    /// transition in flight; that transition fails with the death).
    private mutating func kill(signal: Int32, caller: CallerID) {
        switch lifecycle.request(.kill(signal: signal)) {
        case .refuse(let reason):
            refuse("kill", reason: reason, caller: caller)
        case .perform:
            if signal == SIGKILLNumber {
                sendKill(signal, reason: .killed)
                killWaiters.append(caller)
            } else if lifecycle.process == .suspended {
                // A stopped worker stays stopped (the trace and `ps` keep saying suspended):
                // the signal is delivered when it resumes.
                output.append(.signal(signal))
                output.append(.resume(caller, .success(())))
            } else if Self.signalsThatEndNoProcess.contains(signal) {
                // No death to wait for (SIGSTOP to make a worker hang, say): delivered, and
                // answered at once. A stopped worker then ends at its next watchdog.
                output.append(.signal(signal))
                output.append(.resume(caller, .success(())))
            } else {
                sendKill(signal, reason: .killed)
                killWaiters.append(caller)
                arm(.killGrace, after: configuration.terminateLimit)
            }
        }
    }

    /// The signals whose default action stops, continues or ignores a process: a `kill`
    /// with one of them does not wait for a death.
    package static let signalsThatEndNoProcess: Set<Int32> = Set(
        ["STOP", "TSTP", "TTIN", "TTOU", "CONT", "CHLD", "URG", "WINCH"].compactMap(SignalNames.number(named:))
    )

    /// LIFECYCLE.md §4: a worker still launching is killed silently (SIGKILL, no callback)
    /// by a terminate, and at once, as a kill is: waiting behind its launch would let it
    /// finish launching (and get the running worker's callbacks), or hold the terminate, and
    /// the host's quit, until the launch watchdog. The launch in flight fails with the death;
    /// `caller` is resumed at the death.
    private mutating func terminateLaunching(caller: CallerID) {
        killLaunchingSilently()
        killWaiters.append(caller)
    }

    /// SIGKILLs the launching worker on purpose (no restart), its exit marked silent.
    private mutating func killLaunchingSilently() {
        worker!.endsOnPurpose = true
        worker!.killedSilently = true
        sendKill(SIGKILLNumber, reason: .killed)
    }

    package mutating func resumeKillWaiters() {
        for caller in killWaiters { output.append(.resume(caller, .success(()))) }
        killWaiters = []
    }

    // MARK: Timers

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

/// SIGCONT's number, spelled once.
package let SIGCONTNumber: Int32 = 18
