import Protocol

/// The steps of a plan (`SceneLifecycle.Step`), each started as actions, and the kills and
/// watchdogs that cut them short.
extension SceneMachine {
    mutating func start(_ step: SceneLifecycle.Step) {
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
            // So must the launch's URL or activity besides it: the worker's `willConnectTo`
            // echoes both, and one that passes the frame limit would get a healthy worker
            // killed.
            let restorationSize =
                lifecycle.sessionExists ? session?.restoration.map(Self.encodedSize(of:)) ?? 0 : 0
            let launchSize = inFlight.map { Self.encodedSize(of: launchParameters(for: $0.work).echoedValue) } ?? 0
            if restorationSize + launchSize > maximumRestorationBytes {
                let op = inFlight.map { Self.operationName(of: $0.work) } ?? "connect"
                let reason =
                    launchSize > 2
                    ? "the session's restoration state (\(restorationSize) bytes) and what the scene is opened with "
                        + "(\(launchSize) bytes) cannot fit a connect frame (the frame limit is "
                        + "\(configuration.frameLimit) bytes); open it with less, or discard the session"
                    : "the session's restoration state is \(restorationSize) bytes: a connect frame cannot carry "
                        + "it (the frame limit is \(configuration.frameLimit) bytes); discard the session to start afresh"
                recordError(op: op, .invalidParameters, reason)
                fail(.requestTooLarge(scene: id, op: op, reason: reason))
                return
            }
            // A restart runs the worker that died again. A connect runs the one it names,
            // else the last one that connected: a reconnect starts the app the scene ran
            // (the host's default worker would overwrite that app's stored state).
            var argv = lastConnectedArgv ?? configuration.worker
            switch inFlight?.work {
            case .request(.connect(_, _, let worker?, _), _): argv = worker
            case .restart, .request(.openURL, _), .request(.continueUserActivity, _), .request(.quickAction, _),
                .request(.openNotification, _), .request(.remoteNotification, _):
                argv = lastArgv ?? argv
            default: break
            }
            inFlight?.launch = (background, root, lifecycle.sessionExists)
            beforeLaunch = (lifecycle, session, lastArgv)
            // A launch for a silent push connects no scene: it stores no session.
            if case .request(.remoteNotification, _)? = inFlight?.work {
                beginLaunch(background: background, root: root, argv: argv)
            } else if !lifecycle.sessionExists {
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
            record(TraceEvent(kind: .process, scene: id, processEvent: .resumed, pid: pid))
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
            output.append(.write(HostCommands(.request(id: requestID, operation))))
            arm(.step, after: configuration.transitionLimit)
            setWait(.reply(id: requestID, operation))

        case .disconnectWorker:
            guard worker?.pid != nil else { return }
            worker!.expectCleanExit(.disconnected)
            let requestID = worker!.register(WorkerOperation.disconnect.name)
            output.append(.write(HostCommands(.request(id: requestID, .disconnect))))
            arm(.step, after: configuration.transitionLimit)
            setWait(.exit(request: requestID, failsOnRefusal: true, onTimeout: .kill(.watchdog)))

        case .terminateWorker:
            guard worker?.pid != nil else { return }
            worker!.expectCleanExit(.terminated)
            let requestID = worker!.register(WorkerOperation.terminate.name)
            output.append(.write(HostCommands(.request(id: requestID, .terminate))))
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
            // Deleted first, reported once gone (`sessionDeleted`): a session whose file could
            // not be deleted stays as it was, and the discard fails.
            output.append(.deleteSession)
            setWait(.store(.deletion))

        case .queueNotification(let name, let value):
            lifecycle.queue(notification: name, value: value)
        }
    }

    /// The discarded session's file is gone: the discard is reported, here and to the app's
    /// other workers, and every later request is refused.
    mutating func sessionDeleted() {
        record(TraceEvent(kind: .callback, scene: id, name: CallbackName.didDiscardSceneSessions.rawValue))
        output.append(.announceDiscard)
        session = nil
        // The next session under this name is a new one, whose app has declared no kind yet
        // (§3d): the last launch's lifecycle is not asked for again (its root and tabs are the
        // app's, and stay).
        lastLaunch.lifecycle = nil
        lifecycle.discarded()
    }

    /// What a connect frame holds besides the restoration state, at most (its names, its
    /// launch parameters), with room to spare.
    package static let connectFrameRoom = SceneLimits.restorationRoom

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

    mutating func beginLaunch(background: Bool, root: String, argv: [String]) {
        lifecycle.launching(root: root)
        lastArgv = argv
        worker = WorkerProcessMachine(argv: argv)
        // A connect that names no app joins the one its session last ran in (§4a).
        let launch = inFlight.map { launchParameters(for: $0.work) } ?? lastLaunch
        appName = launch.app ?? (launch.lifecycle == .app ? nil : session?.app)
        scenelessApp = nil
        if case .request(.remoteNotification, _)? = inFlight?.work, lastLaunch.app == nil, session?.app == nil {
            scenelessApp = appName
        }
        worker!.isShared = appName != nil
        setWait(.spawn)
        output.append(.spawn(argv: argv, app: appName))
    }

    /// The step watchdog fired.
    mutating func stepTimedOut() {
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
    static func describe(_ name: String, _ limit: Duration, setting: String) -> String {
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
    mutating func kill(signal: Int32, caller: CallerID) {
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
    mutating func terminateLaunching(caller: CallerID) {
        killLaunchingSilently()
        killWaiters.append(caller)
    }

    /// SIGKILLs the launching worker on purpose (no restart), its exit marked silent.
    mutating func killLaunchingSilently() {
        worker!.endsOnPurpose = true
        worker!.killedSilently = true
        sendKill(SIGKILLNumber, reason: .killed)
    }

    package mutating func resumeKillWaiters() {
        for caller in killWaiters { output.append(.resume(caller, .success(()))) }
        killWaiters = []
    }
}
