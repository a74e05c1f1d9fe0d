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
    var queue: [Work] = []
    var queueHead = 0
    var waiters: [Waiter] = []
    /// Callers of `kill` and of system kills, resumed at the death (or the kill grace).
    package var killWaiters: [CallerID] = []
    var armed = TimerTable<Int>()
    var nextTimerGeneration = 0
    package var restartIntensity = RestartIntensity()
    var lastArgv: [String]?
    /// The argv of the last worker whose connect succeeded: what a `connect` without a
    /// worker of its own starts (one that failed to connect is not worth repeating).
    package var lastConnectedArgv: [String]?
    /// The last connect's launch parameters, for a restart.
    package internal(set) var lastLaunch = LaunchParameters()
    /// The app whose process the current (or last) worker is (`LaunchParameters.app`); nil: a
    /// process of the scene's own.
    package internal(set) var appName: String?
    /// The process of its own a silent push launched this scene's app in, with no scene
    /// connected (c20): a scene that names no app ends it once the push is handled, as the
    /// system would reclaim it, and its next launch is a launch.
    var scenelessApp: String?
    /// The scene as it was before the launch in flight, for a spawn that fails: then no
    /// worker ran, and the launch is undone (the session it stored included).
    var beforeLaunch: (lifecycle: SceneLifecycle, session: SceneSession?, lastArgv: [String]?)?
    /// The limit of the step whose watchdog killed the worker, for the error its death gives.
    package var watchdogLimit: String?
    /// The suspend timer fired; the suspension runs when nothing is in flight.
    package var suspendDue = false
    package var expirationDue = false
    /// The background task's clock runs: its expiration (or, after it, the kill) is armed.
    package var backgroundTaskClockRuns = false
    package private(set) var isQuitting = false
    /// How many of the host's window terminates (`windowTerminate`, its fan-out of another
    /// window's terminate) ended this scene's worker, each without a failure (see `request`'s
    /// `askedAfterTerminations`).
    package internal(set) var windowTerminationsCompleted = 0
    /// The queued terminates of `request`'s `askedAfterTerminations`, by caller, each until it
    /// begins (every queued request does, so this holds at most the queue's).
    var appTerminatesAskedAfter: [CallerID: Int] = [:]
    package private(set) var isClosed = false
    package var output: [Action] = []
    /// Empty storage for the next `output` (see `recycle`).
    var spareOutput: [Action] = []
    /// The model's view of this scene's trace: every event the machine records is checked
    /// here first, a worker's callbacks before they are recorded at all.
    package var checker = SceneTraceChecker()
    /// Whether events are checked against the model at all: always in a host; a unit test's
    /// scripted worker that reports only the callbacks the test is about turns it off.
    package var checksModel = true

    package init(id: String, configuration: Configuration, session: SceneSession?, discardedAtLaunch: Bool) {
        self.id = id
        self.configuration = configuration
        self.session = session
        // The app that last connected the stored session, if not the default (a host restart).
        lastConnectedArgv = session?.worker
        lifecycle.sessionExists = session != nil
        if session?.lifecycle == .app { lifecycle.kind = .app }
        if discardedAtLaunch {
            lifecycle.discarded()
            // The host recorded the discard before this machine existed.
            _ = checker.check(
                TraceEvent(kind: .callback, scene: id, name: CallbackName.didDiscardSceneSessions.rawValue)
            )
        }
    }

    /// Records `event`, one of the host's own for this scene: the model checks it first,
    /// and one it refuses is a defect of the host (recorded all the same).
    package mutating func record(_ event: TraceEvent) {
        let isSceneEvent =
            event.kind == .callback || event.kind == .state || event.kind == .process
            || event.name == TraceEvent.tabBarName
        if checksModel, isSceneEvent, let violation = checker.check(event, callback: nil) {
            output.append(.hostDefect(violation))
        }
        output.append(.record(event))
    }

    /// Records a callback the worker reported, if the model accepts it, with the state
    /// events it defines; one the model refuses is the worker's protocol violation, recorded
    /// as an `error` event in its place.
    mutating func recordWorkerCallback(_ event: TraceEvent, _ name: CallbackName) {
        if checksModel, let refusal = checker.check(event, callback: name) {
            output.append(
                .record(
                    TraceEvent(
                        kind: .error,
                        scene: id,
                        name: event.name,
                        viewController: event.viewController,
                        op: "protocol",
                        code: ProtocolError.Code.invalidMessage.rawValue,
                        message: "model violation: expected \(refusal.expected), got \(refusal.got)"
                    )
                )
            )
            violation("callback \(name) breaks the lifecycle model")
            return
        }
        output.append(.record(event))
        guard worker != nil else { return }
        for next in StateDerivation.states(after: name, current: worker!.tracedActivation) {
            record(TraceEvent(kind: .state, scene: id, from: worker!.tracedActivation, to: next))
            worker!.tracedActivation = next
        }
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
            children: lifecycle.frontmostChildren,
            app: worker == nil ? nil : appName
        )
    }

    /// Whether nothing is in flight or queued.
    package var isIdle: Bool { inFlight == nil && queueHead == queue.count }

    /// The timers armed now (for tests: a refusal must leave them alone).
    package var armedTimers: [Timer: Int] { armed.dictionary }

    // MARK: Requests

    /// A caller asks for `op`. `kill` acts at once, ahead of anything in flight or queued
    /// (the transition in flight then fails with the death); everything else is queued.
    ///
    /// `askedAfterTerminations`: a client's terminate, asked when `windowTerminationsCompleted`
    /// was this count. Another window's terminate asked at the same time may end this window
    /// (its fan-out reaches it first) before its turn; the app then terminated, as asked, and
    /// the request succeeds instead of being refused for want of a worker (LIFECYCLE.md §4a).
    /// A window ended otherwise (killed, a terminate that failed, another client's terminate
    /// of it), or before the ask, refuses it as before.
    package mutating func request(
        _ op: SceneOperation,
        caller: CallerID,
        askedAfterTerminations: Int? = nil
    ) -> [Action] {
        if isClosed {
            output.append(.resume(caller, .failure(.shuttingDown)))
        } else if case .kill(let signal) = op {
            kill(signal: signal, caller: caller)
        } else if case .terminate = op, lifecycle.process == .launching, worker != nil {
            terminateLaunching(caller: caller)
        } else {
            if let askedAfterTerminations { appTerminatesAskedAfter[caller] = askedAfterTerminations }
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

    /// What a launch for `work` starts the worker with: a connect's parameters, else the last
    /// connect's, with what the system opens the scene for this once (§3f, not kept for a
    /// restart).
    package func launchParameters(for work: Work) -> LaunchParameters {
        var launch = lastLaunch
        switch work {
        case .request(.connect(_, _, _, let parameters), _): launch = parameters
        case .request(.openURL(let url), _): launch.url = url
        case .request(.continueUserActivity(let activityType, let userInfo), _):
            launch.activityType = activityType
            launch.userInfo = userInfo
        case .request(.quickAction(let type, let userInfo), _):
            launch.shortcutItem = .object(["type": .string(type), "userInfo": userInfo ?? .null])
        case .request(.openNotification(let userInfo, let actionIdentifier), _):
            launch.notificationResponse = .object([
                "actionIdentifier": .string(actionIdentifier), "userInfo": userInfo ?? .null,
            ])
        case .request(.remoteNotification(let userInfo), _):
            // The app's process outlives the scene it has not got (an app process): the
            // scene's app's, else one of its own, which ends once the push is handled.
            launch.remoteNotification = userInfo ?? .object([:])
            launch.app = launch.app ?? session?.app ?? id
        default: break
        }
        return launch
    }

    /// `discarded`: sessions the launching worker is to hear of right after launching.
    package mutating func spawnCompleted(pid: Int32, discarded: [String] = []) -> [Action] {
        guard var worker, worker.pid == nil else { return finishEvent() }
        beforeLaunch = nil
        let deferred = worker.spawned(pid: pid)
        self.worker = worker
        record(
            TraceEvent(kind: .process, scene: id, processEvent: .spawned, pid: pid, argv: worker.argv, app: appName)
        )
        for signal in deferred { output.append(.signal(signal)) }
        writeConnect(handshake: true, discarded: discarded)
        return finishEvent()
    }

    /// The scene joined its app's running process `pid` (the `spawn` found it running): the
    /// scene connects there, with no handshake and no launch (real-ios-orders-3 c13, c15).
    package mutating func attachCompleted(pid: Int32) -> [Action] {
        guard var worker, worker.pid == nil else { return finishEvent() }
        beforeLaunch = nil
        let deferred = worker.spawned(pid: pid)
        worker.attachedToRunningProcess()
        self.worker = worker
        // No `ready` here: an app process is scene-based (its launch refused anything else).
        lifecycle.kind = .scene
        record(TraceEvent(kind: .process, scene: id, processEvent: .attached, pid: pid, app: appName))
        for signal in deferred { output.append(.signal(signal)) }
        writeConnect(handshake: false, discarded: [])
        return finishEvent()
    }

    /// Writes the launch's `connect` (after the `hello` of a new process, when `handshake`).
    private mutating func writeConnect(handshake: Bool, discarded: [String]) {
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
            launchParameters(for: flight.work).apply(to: &options)
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
            let request = HostCommand.request(id: requestID, operation)
            output.append(
                .write(
                    handshake
                        ? HostCommands(
                            .hello(protocolVersion: ProtocolVersion.current, lifecycle: asked, foldedReplies: true),
                            request
                        )
                        : HostCommands(request)
                )
            )
            arm(.step, after: configuration.launchLimit)
            flight.wait = .reply(id: requestID, operation)
            inFlight = flight
        } else if !discarded.isEmpty {
            output.append(.returnDiscards(discarded))
        }
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
        cancel(.killGrace)
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
    mutating func undoLaunch(failing error: HostError) {
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
        case .deletion:
            sessionDeleted()
        case .connectedWorker:
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
            record(TraceEvent(kind: .process, scene: id, processEvent: .suspended, pid: pid))
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
        // A session a failed launch could not delete again is still there: said so, and the
        // caller hears of what failed the launch.
        if after == .rollback {
            lifecycle.sessionSaved()
            recordError(
                op: Self.operationName(of: flight.work),
                .operationFailed,
                "the session the failed launch stored could not be deleted again: \(error)"
            )
            fail(flight.failure ?? error)
            return finishEvent()
        }
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
                // Where the scene is instead: the first thing whoever waited wants to know.
                let now = status
                let waitingFor = "\(waiter.what) (the scene is \(now.activation), its worker \(now.process))"
                output.append(.resume(caller, .failure(.timedOut(scene: id, waitingFor: waitingFor))))
            }
        }
        return finishEvent()
    }
}

/// SIGCONT's number, spelled once.
package let SIGCONTNumber: Int32 = 18
