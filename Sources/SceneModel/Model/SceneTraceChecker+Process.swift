import Protocol

/// The process events of one scene's trace: a worker spawned for it or the app's process it
/// attached to, its suspensions, and how it ended (an exit, or the scene leaving the app's
/// process).
extension SceneTraceChecker {
    mutating func applyProcessEvent(_ event: TraceEvent) throws(LifecycleViolation) {
        guard let processEvent = event.processEvent else {
            throw violation(
                event,
                expected: "a process event (spawned, attached, suspended, resumed, detached or exited)"
            )
        }
        if processEvent != .spawned, let pid = event.pid, let livePid, pid != livePid {
            throw violation(event, expected: "process \(processEvent) of pid \(livePid), the worker spawned last")
        }
        switch processEvent {
        case .spawned:
            guard !processState.isAlive else {
                throw violation(event, expected: "process exited before another spawned")
            }
            guard activation == .unattached else {
                throw violation(
                    event,
                    expected: ExpectedStep.state(from: activation, to: .unattached).summary(stack: stack)
                )
            }
            processState = .launching
            livePid = event.pid
            lifecycle = .scene
            inAppProcess = event.app != nil
        case .attached:
            guard !processState.isAlive else {
                throw violation(event, expected: "process exited or detached before the scene attached again")
            }
            guard activation == .unattached, event.app != nil else {
                throw violation(event, expected: "an unattached scene attaching to a named app's process")
            }
            processState = .launching
            livePid = event.pid
            lifecycle = .scene
            hasLaunched = true
            inAppProcess = true
        case .detached:
            guard inAppProcess, processState.isAlive, shutdown == .disconnected, !isInsideAtom else {
                throw violation(
                    event,
                    expected:
                        "callback sceneDidDisconnect and every deinit of a scene in an app process before process detached"
                )
            }
            forgetProcess()
        case .suspended:
            // Mid-atom first: the steps still owed say most about what went wrong.
            guard !isInsideAtom else {
                throw violation(
                    event,
                    expected: ExpectedStep.describeNext(progress.remaining, stack: stack, afterwards: nil)
                )
            }
            guard processState == .running else {
                throw violation(event, expected: "a running worker before process suspended (it is \(processState))")
            }
            guard activation == .background else {
                throw violation(event, expected: "a background scene before process suspended (it is \(activation))")
            }
            guard backgroundTask == .none else {
                throw violation(event, expected: "callback endBackgroundTask before process suspended")
            }
            processState = .suspended
        case .resumed:
            guard processState == .suspended else {
                throw violation(
                    event,
                    expected: "process suspended before process resumed (the worker is \(processState))"
                )
            }
            processState = .running
        case .exited:
            try checkExit(event)
            // The process is gone with everything in it; the session (and `sessionExists`)
            // stays, and the activation waits for the host's state event to `unattached`.
            forgetProcess()
        }
    }

    /// The scene has no process any more (it exited, or the scene left its app's process):
    /// everything the process held of it is gone.
    mutating func forgetProcess() {
        processState = .terminated
        livePid = nil
        progress = AtomProgress()
        appOrigin.reset()
        stack = []
        needsLayout = []
        presentations = []
        tabCount = 0
        selectedTab = 0
        tabStacks = []
        tabNeedsLayout = []
        children = []
        tabChildren = []
        isAddingChild = false
        pendingChildDeinits = 0
        hasLaunched = false
        hasAppeared = false
        backgroundTask = .none
        hasBegunBackgroundTask = false
        shutdown = .none
        inAppProcess = false
    }

    /// Any reason may cut an atom short, except the two clean exits, which must follow
    /// their complete disconnect.
    func checkExit(_ event: TraceEvent) throws(LifecycleViolation) {
        guard processState.isAlive else {
            throw violation(event, expected: "process spawned before process exited")
        }
        guard (event.status == nil) != (event.signal == nil) else {
            throw violation(event, expected: "process exited with either a status or a signal")
        }
        // As the host names signals: `KILL`, not `SIGKILL` or `9`; a number only for a signal
        // without a name (a real-time one).
        if let signal = event.signal {
            guard let number = SignalNames.number(named: signal), SignalNames.name(of: number) == signal else {
                throw violation(
                    event,
                    expected:
                        "process exited with a signal named as the host names it (KILL, TERM, …; 1–64 for one without a name)"
                )
            }
        }
        switch event.reason {
        case nil:
            throw violation(event, expected: "process exited with a reason")
        case .disconnected:
            if shutdown == .disconnected && !isInsideAtom { return }
            let owed =
                isInsideAtom
                ? ExpectedStep.describeNext(progress.remaining, stack: stack, afterwards: nil)
                : "callback sceneDidDisconnect and every deinit before process exited (reason disconnected)"
            throw violation(event, expected: owed)
        case .backgroundTaskTimeout:
            // Not "a task still running": the app may end it just as the host's deadline kills.
            guard hasBegunBackgroundTask else {
                throw violation(
                    event,
                    expected: "callback beginBackgroundTask before process exited (reason background-task-timeout)"
                )
            }
        case .terminated:
            if shutdown == .terminating { return }
            let owed =
                isInsideAtom
                ? ExpectedStep.describeNext(progress.remaining, stack: stack, afterwards: nil)
                : "callback applicationWillTerminate before process exited (reason terminated)"
            throw violation(event, expected: owed)
        default:
            return
        }
    }
}
