import Protocol

/// A scene in a process it shares with the other scenes of its app (`connect`'s `app`,
/// real-ios-orders-3 c13–c15): leaving the process while it runs on, and hearing of what the
/// app's other scenes did to the process (a stop, a continue, a kill).
extension SceneMachine {
    /// What a worker of an app process answers a `disconnect` or `terminate` with when the
    /// scene leaves and the process runs on (`detached`), instead of exiting.
    package static let detachedReply = WorkerOperation.detachedReply

    /// The scene's disconnect ended in its app's process, which runs on: the scene has no
    /// process from now on (a later connect joins the app's process again, or starts one).
    mutating func detach() {
        guard let pid = worker?.pid else { return }
        cancel(.step)
        setWait(.none)
        record(TraceEvent(kind: .process, scene: id, processEvent: .detached, pid: pid))
        worker = nil
        workerGone()
        output.append(.leaveAppProcess(endsProcess: scenelessApp != nil))
        scenelessApp = nil
    }

    /// Whether the worker was told to terminate (the app's process ends with it when this
    /// scene is the last in it).
    package var terminatesItsWorker: Bool { worker?.cleanExitReason == .terminated }

    /// Whether a launch waits for its worker (a spawn, or the app's process to join).
    package var awaitsWorker: Bool { inFlight?.wait == .spawn && worker != nil && worker?.pid == nil }

    /// Whether the launch under way was given up while it waited for its worker: a kill (a
    /// terminate of a launching scene is one) waits for the spawn, or the host quits.
    package var launchGivenUp: Bool { isQuitting || worker?.signalsAwaitingSpawn.isEmpty == false }

    /// The launch waiting for its app's process was given up (`launchGivenUp`): it started no
    /// process, and is undone as a launch whose worker was killed (or with the quit).
    package mutating func abandonLaunch() -> [Action] {
        var op = LifecycleOperation.connect.rawValue
        if case .request(let asked, _)? = inFlight?.work { op = asked.name }
        let error: HostError =
            isQuitting ? .shuttingDown : .workerExited(scene: id, op: op, reason: worker?.killReason ?? .killed)
        return spawnFailed(error)
    }

    /// Whether the app's process may be stopped as far as this scene goes: it is suspended
    /// already, or it would be suspended now and nothing of it is in flight.
    package var canJoinSuspension: Bool {
        guard worker?.pid != nil else { return true }
        return lifecycle.process == .suspended || (lifecycle.shouldSuspend && isIdle)
    }

    /// The stop this scene asked for did not happen: another scene of the app is not ready to
    /// be suspended. The scene runs on in the background; the app's last scene to be ready
    /// stops the process for all of them. `retrying`: no other scene is in front or has a
    /// background task, only busy (a request in flight), so none may come to stop it: this
    /// scene tries again after the suspend delay.
    package mutating func stopDeferred(retrying: Bool = false) -> [Action] {
        guard let flight = inFlight, flight.wait == .stop else { return finishEvent() }
        setWait(.none)
        if retrying, lifecycle.shouldSuspend { scheduleSuspension() }
        return finishEvent()
    }

    /// Another scene left the app's process, which runs on: a stop this scene deferred for it
    /// may happen now (after the delay, as any suspension).
    package mutating func siblingLeftProcess() -> [Action] {
        guard worker?.pid != nil, lifecycle.process == .running, lifecycle.shouldSuspend, isIdle else {
            return finishEvent()
        }
        scheduleSuspension()
        return finishEvent()
    }

    /// Another scene of the app stopped the app's process `pid`: this scene is suspended with it.
    package mutating func processStoppedBySibling(pid: Int32) -> [Action] {
        guard worker?.pid == pid, lifecycle.shouldSuspend, isIdle else { return finishEvent() }
        record(TraceEvent(kind: .process, scene: id, processEvent: .suspended, pid: pid))
        lifecycle.suspended()
        cancelSuspension()
        return finishEvent()
    }

    /// Another scene of the app continued the app's process `pid`: this scene runs again, in
    /// the background, gets what was queued for it, and is suspended again after the delay
    /// (with the rest of the app, once all of it may be).
    package mutating func processContinuedBySibling(pid: Int32) -> [Action] {
        guard worker?.pid == pid, lifecycle.process == .suspended else { return finishEvent() }
        record(TraceEvent(kind: .process, scene: id, processEvent: .resumed, pid: pid))
        lifecycle.resumed()
        enqueue(.deliverQueuedNotifications)
        scheduleSuspension()
        return finishEvent()
    }

    /// Another scene of the app killed the app's process with `reason`: its death here has
    /// that reason (and is no reason to restart when it was on purpose).
    package mutating func processKilledBySibling(reason: TerminationReason, onPurpose: Bool) -> [Action] {
        // Another scene's background task outlived its limit: for this scene (which began
        // none) the system simply killed the app.
        worker?.adoptKillReason(reason == .backgroundTaskTimeout ? .killed : reason, onPurpose: onPurpose)
        return finishEvent()
    }

    /// Why this scene's worker was just signalled, for the app's other scenes.
    package var killReason: (reason: TerminationReason, onPurpose: Bool)? {
        guard let worker, let reason = worker.killReason else { return nil }
        return (reason, worker.endsOnPurpose)
    }
}
