import Glibc
import Protocol
import SceneModel

/// A scene whose worker is its app's process, shared with the app's other scenes
/// (`AppProcess`): joining it, and what the process's stops and continues mean for the others.
extension SceneController {
    /// What the app process's connection did, for this scene (called on the loop thread).
    nonisolated func appProcessEvent(_ event: WorkerConnection.Event, from sender: WorkerConnection) {
        workerEventOnLoop(event, from: sender)
    }

    /// This scene started its app's process: the app's scenes that waited for it join it.
    func startAppProcess(_ app: String, _ connection: WorkerConnection) {
        let process = AppProcess(app: app, connection: connection, owner: self)
        appProcess = process
        let apps = context.apps
        process.start { process in
            // The scenes that waited for the process to end launch again, each in a loop job
            // of its own: the first starts the app's next process, the others wait for it.
            for waiting in apps.exited(process) {
                EventLoop.shared.execute { waiting.onLoop { $0.launchAgain() } }
            }
        }
        for waiting in apps.spawned(process) {
            // Each in a loop job of its own, after this scene's handshake and connect are written.
            EventLoop.shared.execute {
                waiting.onLoop { $0.apply($0.feedAttached(process)) }
            }
        }
    }

    private func feedAttached(_ process: AppProcess) -> [SceneMachine.Action] {
        // A wait given up meanwhile (`abandonAppWait`) has nothing left to join.
        guard machine.awaitsWorker, let argv = argvWaitingForApp.take() else { return [] }
        // It ended, or began to, while this scene waited for it to start: the launch starts
        // over, and waits for or starts the app's next process.
        guard process.takesScenes else { return launch(argv: argv, app: process.app).map(feed) ?? [] }
        joinAppProcess(process)
        return machine.attachCompleted(pid: process.pid)
    }

    /// This scene's app's process could not be started: the scenes that waited for it fail too.
    func appProcessSpawnFailed(_ app: String, _ error: HostError) {
        for waiting in context.apps.spawnFailed(app) where waiting !== self {
            EventLoop.shared.execute {
                waiting.onLoop { waiting in
                    waiting.argvWaitingForApp = nil
                    waiting.apply(waiting.machine.spawnFailed(error))
                }
            }
        }
    }

    func joinAppProcess(_ process: AppProcess) {
        // A scene connecting in a suspended app's process resumes it, for every scene in it.
        if process.isStopped {
            try? process.connection.child.sendToProcessGroup(signal: SIGCONT)
            process.connection.signal(SIGCONT)
            appProcessContinued(process)
        }
        process.add(self)
        context.apps.noLongerIdle(process)
        appProcess = process
        connection = process.connection
    }

    /// Whether each of `scenes` told the worker to terminate: the last of them ends the process.
    func allTerminate(_ scenes: [SceneController]) -> Bool {
        scenes.allSatisfy { other in
            var terminates = false
            other.onLoop { terminates = $0.machine.terminatesItsWorker }
            return terminates
        }
    }

    /// Whether every other scene of the app may be suspended now, with the process.
    func othersMayBeSuspended(_ process: AppProcess) -> Bool {
        process.others(than: self).allSatisfy { other in
            var may = false
            other.onLoop { may = $0.machine.canJoinSuspension }
            return may
        }
    }

    /// Whether another scene of the app will stop the process itself: one in the foreground
    /// once it has gone to the background, one with a background task once the task ends (or
    /// the task's limit kills the app). A stop deferred for it need not be retried; only one
    /// held back by a sibling that is merely busy is, since no scene would come to stop it.
    func siblingStopsTheProcessLater(_ process: AppProcess) -> Bool {
        process.others(than: self).contains { other in
            var later = false
            other.onLoop {
                later = $0.machine.lifecycle.activation.isForeground || $0.machine.lifecycle.hasBackgroundTask
            }
            return later
        }
    }

    /// The stop this scene asked of its app's process ended. Another scene may have become
    /// busy meanwhile (a request on its way to the stopped process): then the stop is undone,
    /// and nothing was suspended.
    func appProcessStopFinished(_ process: AppProcess, pid: Int32, stopped: Bool) {
        guard stopped, othersMayBeSuspended(process) else {
            if stopped { try? process.connection.child.sendToProcessGroup(signal: SIGCONT) }
            if stopped { process.connection.signal(SIGCONT) }
            apply(
                stopped
                    ? machine.stopDeferred(retrying: !siblingStopsTheProcessLater(process))
                    : machine.stopCompleted(pid: pid, stopped: false)
            )
            return
        }
        process.noteStopped(true)
        apply(machine.stopCompleted(pid: pid, stopped: true))
        for other in process.others(than: self) {
            other.onLoop { $0.apply($0.machine.processStoppedBySibling(pid: pid)) }
        }
    }

    /// This scene continued its app's process: the others run again too (in loop jobs of their
    /// own, after this scene's turn).
    func appProcessContinued(_ process: AppProcess) {
        process.noteStopped(false)
        let pid = process.pid
        for other in process.others(than: self) {
            EventLoop.shared.execute {
                other.onLoop { $0.apply($0.machine.processContinuedBySibling(pid: pid)) }
            }
        }
    }
}

extension SceneController {
    /// A `memoryWarning` or `terminate` of a scene in an app process is the app's: a memory
    /// warning reaches the app delegate once, then every window of the app (c14); a terminate
    /// lets the app's other running scenes leave first, so that the app's last scene ends the
    /// process with one `applicationWillTerminate` (c13), or SIGKILLs a suspended app whole.
    nonisolated(nonsending) func performInApp(_ op: SceneOperation) async throws {
        // Read as the client asks: another window's terminate may end this window before its
        // turn, even one that has left the app's process already (SceneMachine.request).
        let terminationsBefore = op == .terminate ? await windowTerminationsCompleted : nil
        let siblings = await appSiblings()
        guard !siblings.isEmpty else { return try await performAlone(op, askedAfterTerminations: terminationsBefore) }
        switch op {
        case .terminate:
            // Windows still running leave first (c13). A suspended app's windows are suspended
            // with its process: the scene asked SIGKILLs it (§4), and they end with it.
            for sibling in siblings {
                let process = await sibling.status.process
                guard process.isAlive, process != .suspended else { continue }
                try? await sibling.performAlone(.windowTerminate)
            }
            // Judged at its turn knowing when it was asked: another window's terminate asked at
            // the same time may have ended this window meanwhile (SceneMachine.request).
            try await performAlone(.terminate, askedAfterTerminations: terminationsBefore)
        default:
            try await performAlone(op)
            for sibling in siblings {
                let status = await sibling.status
                guard status.activation != .unattached, status.process == .running else { continue }
                // The request asked was carried out: a window that dies meanwhile changes nothing of it.
                try? await sibling.performAlone(.windowMemoryWarning)
            }
        }
    }

    /// `SceneMachine.windowTerminationsCompleted`.
    private var windowTerminationsCompleted: Int { machine.windowTerminationsCompleted }

    /// The other scenes in this scene's app process, none when it has a process of its own.
    private func appSiblings() -> [SceneController] {
        appProcess?.others(than: self) ?? []
    }
}
