import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The machine under failures: deaths, refusals, quits and timers, with virtual time.
extension SceneMachineTests {
    /// The wedge of issue 12: a worker that dies at once (its stdin is already closed when
    /// the hello is written), then a second connect at once.
    @Test func aWorkerThatDiesAtOnceLeavesTheSceneReadyForTheNextConnect() {
        var harness = SceneMachineHarness()
        let first = harness.request(.connect(worker: ["/bin/true"]))
        let second = harness.request(.connect())
        // The write found the pipe closed: that is not yet a death, and not a failure.
        harness.feed { $0.pipeClosed(.stdin) }
        #expect(harness.outcomes[first] == nil)
        harness.exit(.exited(status: 0))
        guard case .workerExited(_, "connect", .crashed, _) = harness.error(of: first) else {
            Issue.record(
                "the first connect must fail with the death, got \(String(describing: harness.outcomes[first]))"
            )
            return
        }
        // The second connect was judged after the death: it launches a new worker.
        #expect(harness.spawns == 2)
        #expect(harness.machine.status.process == .launching)
        #expect(harness.machine.status.pid == 101)
        harness.ready()
        harness.reply(callbacks: [.willConnectTo])
        #expect(harness.succeeded(second))
        #expect(harness.machine.armedTimers.isEmpty)
    }

    @Test func aWorkerThatClosesItsStdinButLivesIsKilledAfterTheGrace() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        harness.feed { $0.pipeClosed(.stdin) }
        harness.advance(by: .milliseconds(999))
        #expect(harness.signals.isEmpty)
        harness.advance(by: .milliseconds(1))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        guard case .workerExited(_, "push", .protocolViolation, _) = harness.error(of: push) else {
            Issue.record("push must fail with the violation's death")
            return
        }
    }

    /// CI, under load: a worker that exited at once closed its stdin, and the rest of its exit
    /// took over a second. Exiting is not living on: it gets more grace, and its death is
    /// what the request fails with.
    @Test func aWorkerStillExitingAfterTheGraceIsWaitedForNotKilled() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        harness.feed { $0.pipeClosed(.stdin) }
        harness.workerIsExiting = true
        // Three graces, within the push's 5 s watchdog.
        harness.advance(by: .milliseconds(3500))
        #expect(harness.signals.isEmpty)
        #expect(harness.outcomes[push] == nil)
        harness.exit(.exited(status: 0))
        guard case .workerExited(_, "push", .crashed, _) = harness.error(of: push) else {
            Issue.record("push must fail with the death, got \(String(describing: harness.outcomes[push]))")
            return
        }
        #expect(harness.machine.armedTimers.isEmpty)
    }

    @Test func aSpawnThatFailsFailsTheConnect() {
        var harness = SceneMachineHarness()
        harness.autoSpawn = false
        let connect = harness.request(.connect())
        harness.feed { $0.spawnFailed(.spawnFailed(scene: "A", message: "no such file")) }
        guard case .spawnFailed = harness.error(of: connect) else {
            Issue.record("connect must fail with the spawn's error")
            return
        }
        #expect(harness.machine.status.activation == .unattached)
        #expect(harness.machine.isIdle)
    }

    /// No worker ran, so the failed connect changes nothing: the session it stored is deleted
    /// before the caller hears of the failure, the process state is still `none`, and the
    /// trace has the failure as an `error` event.
    @Test func aSpawnThatFailsUndoesTheLaunch() {
        var harness = SceneMachineHarness()
        harness.autoSpawn = false
        let connect = harness.request(.connect())
        #expect(harness.machine.session != nil, "the first connect stores the session before it spawns")
        harness.feed { $0.spawnFailed(.spawnFailed(scene: "A", message: "no such file")) }
        let deletions = harness.actions.filter {
            if case .deleteSession = $0 { return true }
            return false
        }
        #expect(deletions.count == 1)
        #expect(harness.machine.session == nil)
        #expect(harness.machine.lifecycle.sessionExists == false)
        #expect(harness.machine.status.process == .none)
        #expect(harness.machine.status.activation == .unattached)
        let errors = harness.recorded { $0.kind == .error }
        #expect(errors.map(\.op) == ["connect"])
        #expect(errors.first?.message?.contains("no such file") == true)
        guard case .spawnFailed = harness.error(of: connect) else {
            Issue.record("connect must fail with the spawn's error")
            return
        }
        // The deletion came before the caller's failure.
        let deleted = harness.actions.firstIndex {
            if case .deleteSession = $0 { return true }
            return false
        }
        let resumed = harness.actions.firstIndex {
            if case .resume(connect, _) = $0 { return true }
            return false
        }
        #expect(deleted! < resumed!)
    }

    /// A discard whose session file cannot be deleted fails and changes nothing: no
    /// `didDiscardSceneSessions`, the session kept, the scene not discarded (its next connect
    /// restores), the worker ended in order as the discard's steps before the deletion did.
    @Test func aDiscardWhoseSessionCannotBeDeletedFailsAndKeepsTheSession() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.failNextDelete = .sessionNotStored(scene: "A", reason: "cannot delete sessions/A.json")
        let discard = harness.request(.discard)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground], result: .object([:]))
        harness.reply(callbacks: [.sceneDidDisconnect])
        harness.exit(.exited(status: 0))
        #expect(harness.error(of: discard) == .sessionNotStored(scene: "A", reason: "cannot delete sessions/A.json"))
        #expect(harness.recorded { $0.name == CallbackName.didDiscardSceneSessions.rawValue }.isEmpty)
        #expect(harness.machine.session?.restoration == .object([:]), "the state the discard's background saved")
        #expect(harness.machine.lifecycle.sessionExists)
        #expect(!harness.actions.contains { if case .announceDiscard = $0 { true } else { false } })
        let connect = harness.request(.connect())
        #expect(harness.error(of: connect) == nil, "a scene whose discard failed is not discarded")
    }

    /// A failed launch whose session cannot be deleted again keeps it (said in an `error`
    /// event), and its caller hears of what failed the launch, not of the deletion.
    @Test func aSpawnThatFailsAndASessionThatCannotBeDeletedAgain() {
        var harness = SceneMachineHarness()
        harness.autoSpawn = false
        harness.failNextDelete = .sessionNotStored(scene: "A", reason: "cannot delete sessions/A.json")
        let connect = harness.request(.connect())
        harness.feed { $0.spawnFailed(.spawnFailed(scene: "A", message: "no such file")) }
        guard case .spawnFailed = harness.error(of: connect) else {
            Issue.record("connect must fail with the spawn's error: \(String(describing: harness.error(of: connect)))")
            return
        }
        #expect(harness.machine.session != nil)
        #expect(harness.machine.lifecycle.sessionExists)
        let errors = harness.recorded { $0.kind == .error }.compactMap(\.message)
        #expect(errors.contains { $0.contains("could not be deleted again") }, "\(errors)")
    }

    /// A stop an app's other window held back only by being busy (none in front) is tried
    /// again after the suspend delay: nothing else would stop the app. One held back by a
    /// window in front is not (that window stops them all once it is in the background).
    @Test func aStopDeferredForABusySiblingIsTriedAgain() {
        for retrying in [true, false] {
            var harness = SceneMachineHarness()
            harness.autoStop = false
            harness.connect()
            harness.request(.background)
            harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground], result: .object([:]))
            harness.advance(by: .milliseconds(60))
            #expect(harness.stops == 1)
            harness.feed { $0.stopDeferred(retrying: retrying) }
            harness.advance(by: .milliseconds(60))
            #expect(harness.stops == (retrying ? 2 : 1), "retrying: \(retrying)")
        }
    }

    /// A reconnect whose worker cannot start leaves the scene as the last worker left it:
    /// the session kept, the process still `terminated`.
    @Test func aReconnectWhoseSpawnFailsKeepsTheSessionAndTheEndedProcess() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.kill(signal: SIGKILLNumber))
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.machine.status.process == .terminated)
        harness.autoSpawn = false
        let before = harness.actions.count
        let reconnect = harness.request(.connect(worker: ["/no/such/worker"]))
        harness.feed { $0.spawnFailed(.spawnFailed(scene: "A", message: "no such file")) }
        #expect(harness.error(of: reconnect) != nil)
        #expect(harness.machine.session != nil)
        #expect(harness.machine.status.process == .terminated)
        let deleted = harness.actions[before...].contains {
            if case .deleteSession = $0 { return true }
            return false
        }
        #expect(!deleted)
        // The next plain connect runs the worker that last connected, not the one that failed.
        harness.autoSpawn = true
        let again = harness.request(.connect())
        #expect(harness.error(of: again) == nil)
        #expect(harness.machine.worker?.argv == ["worker"])
    }

    /// A kill asked for while the spawn was on its way ends when the spawn fails: there is
    /// nothing to kill (its caller waited for ever before).
    @Test func aKillWaitingForASpawnThatFailsIsAnswered() {
        var harness = SceneMachineHarness()
        harness.autoSpawn = false
        let connect = harness.request(.connect())
        let kill = harness.request(.kill(signal: SIGKILLNumber))
        #expect(harness.outcomes[kill] == nil)
        harness.feed { $0.spawnFailed(.spawnFailed(scene: "A", message: "no such file")) }
        #expect(harness.succeeded(kill))
        #expect(harness.error(of: connect) != nil)
        #expect(harness.machine.isIdle)
    }

    /// A quit that overtakes a first launch after its session was stored deletes that session
    /// again before the connect fails; a `settle` queued behind (what the quit waits on before
    /// it closes the store) is answered only after that.
    @Test func aQuitOvertakingALaunchDeletesTheSessionItStored() {
        var harness = SceneMachineHarness()
        harness.autoStore = false
        let connect = harness.request(.connect())
        harness.feed { $0.beginQuit(deadline: .seconds(5)) }
        let settle = harness.nextCaller
        harness.nextCaller += 1
        harness.feed { $0.settle(caller: settle) }
        harness.feed { $0.storeCompleted() }
        #expect(harness.spawns == 0)
        #expect(harness.error(of: connect) == .shuttingDown)
        #expect(harness.machine.session == nil)
        #expect(harness.machine.lifecycle.sessionExists == false)
        #expect(harness.succeeded(settle))
        let order = harness.actions.compactMap { action -> String? in
            switch action {
            case .deleteSession: "delete"
            case .resume(connect, _): "connect"
            case .resume(settle, _): "settle"
            default: nil
            }
        }
        #expect(order == ["delete", "connect", "settle"])
    }

    @Test func aFailedFirstStoreChangesNothing() {
        var harness = SceneMachineHarness()
        harness.failNextStore = .io("disk full")
        let connect = harness.request(.connect())
        #expect(harness.error(of: connect) == .io("disk full"))
        #expect(harness.spawns == 0)
        #expect(harness.machine.lifecycle.sessionExists == false)
        #expect(harness.machine.session == nil)
    }

    // MARK: Kills

    /// A signal that ends no process (SIGSTOP to make a worker hang, SIGCONT) is delivered and
    /// answered at once: there is no death to wait for. It used to wait out the terminate
    /// limit (5 s) and then answer all the same.
    @Test func aKillWithASignalThatEndsNoProcessAnswersAtOnce() {
        var harness = SceneMachineHarness()
        harness.connect()
        let stop = SignalNames.number(named: "STOP")!
        let kill = harness.request(.kill(signal: stop))
        #expect(harness.succeeded(kill))
        #expect(harness.signals == [stop])
        #expect(harness.timers[.killGrace] == nil, "nothing to wait for")
        #expect(harness.machine.status.process == .running)
        // A terminating signal still waits for the death.
        let term = harness.request(.kill(signal: SignalNames.number(named: "TERM")!))
        #expect(harness.outcomes[term] == nil)
        #expect(harness.timers[.killGrace] != nil)
    }

    @Test func aKillDoesNotWaitBehindATransitionInFlight() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let kill = harness.request(.kill(signal: SIGKILLNumber))
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.outcomes[kill] == nil)
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(kill))
        guard case .workerExited(_, "push", .killed, _) = harness.error(of: push) else {
            Issue.record("the transition in flight must fail with the kill")
            return
        }
    }

    @Test func aKillDuringTheSpawnIsDeliveredOnceSpawned() {
        var harness = SceneMachineHarness()
        harness.autoSpawn = false
        let connect = harness.request(.connect())
        let kill = harness.request(.kill(signal: SIGKILLNumber))
        #expect(harness.signals.isEmpty)
        harness.feed { $0.spawnCompleted(pid: 7) }
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(kill))
        #expect(harness.error(of: connect) != nil)
    }

    /// SIGCONT to a suspended scene is refused, with nothing sent: it would resume the worker
    /// while the status and the trace say suspended. Foreground resumes it.
    @Test func sigcontToASuspendedSceneIsRefused() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .milliseconds(50))
        #expect(harness.machine.status.process == .suspended)
        let kill = harness.request(.kill(signal: SIGCONTNumber))
        guard case .refused(_, _, let reason) = harness.error(of: kill) else {
            Issue.record("SIGCONT to a suspended scene must be refused: \(String(describing: harness.error(of: kill)))")
            return
        }
        #expect(reason.contains("foreground"))
        #expect(harness.signals.isEmpty && harness.processGroupSignals.isEmpty)
        #expect(harness.machine.status.process == .suspended)
    }

    /// Issue 13 item 21: a signal other than SIGKILL leaves a suspended worker stopped.
    @Test func aSignalToASuspendedSceneDoesNotResumeIt() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .milliseconds(50))
        #expect(harness.machine.status.process == .suspended)
        let kill = harness.request(.kill(signal: 28))
        #expect(harness.succeeded(kill))
        #expect(harness.signals == [28])
        #expect(!harness.processGroupSignals.contains(SIGCONTNumber))
        #expect(harness.machine.status.process == .suspended)
    }

    @Test func aSignalTheWorkerSurvivesIsForgotten() {
        var harness = SceneMachineHarness()
        harness.connect()
        let kill = harness.request(.kill(signal: 15))
        #expect(harness.outcomes[kill] == nil)
        harness.advance(by: .seconds(5))
        #expect(harness.succeeded(kill))
        // A later death gets its own reason.
        harness.exit(.signaled(signal: 11))
        #expect(harness.machine.status.lastExit?.reason == .crashed)
    }

    // MARK: Restarts

    @Test func restartsStopAtTheIntensityLimit() {
        var harness = SceneMachineHarness {
            $0.restartPolicy = RestartPolicy(maximumRestarts: 2, window: .seconds(60))
        }
        harness.connect()
        for round in 1...2 {
            harness.exit(.signaled(signal: SIGKILLNumber))
            #expect(harness.spawns == round + 1, "restart \(round)")
            harness.ready()
            harness.reply(callbacks: [.willConnectTo])
            #expect(harness.machine.status.activation == .foregroundActive)
        }
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.spawns == 3)
        #expect(harness.recorded.last?.message?.hasPrefix("gave up") == true)
        // Outside the window, restarts are allowed again.
        harness.advance(by: .seconds(61))
        harness.request(.connect())
        harness.ready()
        harness.reply()
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.spawns == 5)
    }

    @Test func aDeathOnPurposeIsNoReasonToRestart() {
        var harness = SceneMachineHarness {
            $0.restartPolicy = RestartPolicy(maximumRestarts: 5, window: .seconds(60))
        }
        harness.connect()
        let caller = 99
        harness.feed { $0.systemKill(reason: .jetsam, caller: caller) }
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(caller))
        #expect(harness.machine.status.lastExit?.reason == .jetsam)
        #expect(harness.spawns == 1)
    }

    // MARK: The worker's word

    /// Issue 13 item 20: a callback nobody asked for is a protocol violation, not a state change.
    @Test func anUnsolicitedCallbackIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.callback(CallbackEvent(.beginBackgroundTask))) }
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.machine.status.hasBackgroundTask == false)
        #expect(harness.recorded.last?.op == "protocol")
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.machine.status.lastExit?.reason == .protocolViolation)
    }

    @Test func aReplyToAnUnknownRequestIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.reply(id: 42, result: nil)) }
        #expect(harness.signals == [SIGKILLNumber])
    }

    /// The machine checks its worker's callbacks against the model before anything is
    /// recorded: one out of order becomes an `error` event in its place, and the worker dies
    /// of its protocol violation.
    @Test func aCallbackTheModelRejectsIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.push(viewController: "B"))
        harness.machine.checksModel = true
        let before = harness.recorded.count
        harness.feed { $0.received(.callback(CallbackEvent(.sceneDidDisconnect))) }
        #expect(harness.signals == [SIGKILLNumber])
        let after = harness.recorded.dropFirst(before)
        #expect(!after.contains { $0.name == CallbackName.sceneDidDisconnect.rawValue && $0.kind == .callback })
        #expect(after.first?.kind == .error && after.first?.message?.hasPrefix("model violation") == true)
        #expect(harness.hostDefects.isEmpty)
    }

    @Test func aWorkerErrorFailsTheRequestAndKeepsTheWorker() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let request = harness.pendingRequests[0]
        harness.feed { $0.received(.failure(id: request.id, ProtocolError(.illegalTransition, "no"))) }
        guard case .workerError = harness.error(of: push) else {
            Issue.record("push must fail with the worker's error")
            return
        }
        #expect(harness.machine.status.stack == ["Root"])
        #expect(harness.machine.status.process == .running)
        #expect(harness.signals.isEmpty)
    }

    @Test func aWatchdogKillsAWorkerThatDoesNotAnswer() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        harness.advance(by: .seconds(5))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        guard case .workerExited(_, "push", .watchdog, _) = harness.error(of: push) else {
            Issue.record("push must fail with the watchdog's death")
            return
        }
    }

    // MARK: Ending

    @Test func disconnectBackgroundsThenWaitsForTheCleanExit() {
        var harness = SceneMachineHarness()
        harness.connect()
        let disconnect = harness.request(.disconnect)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        #expect(harness.pendingRequests.map(\.op) == [.disconnect])
        harness.reply(callbacks: [.sceneDidDisconnect])
        #expect(harness.outcomes[disconnect] == nil)
        harness.exit(.exited(status: 0))
        #expect(harness.succeeded(disconnect))
        #expect(harness.machine.status.lastExit?.reason == .disconnected)
    }

    @Test func terminateOfASuspendedWorkerKillsItSilently() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .milliseconds(50))
        let terminate = harness.request(.terminate)
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(terminate))
        #expect(harness.machine.status.lastExit?.reason == .killed)
    }

    /// §4: a terminate finds the worker still launching: SIGKILL at once, silently, not after
    /// the launch (which would give it the running worker's callbacks, or hold the terminate
    /// until the launch watchdog).
    @Test func terminateOfALaunchingWorkerKillsItSilentlyAtOnce() {
        var harness = SceneMachineHarness()
        let connect = harness.request(.connect())
        #expect(harness.machine.status.process == .launching)
        let terminate = harness.request(.terminate)
        #expect(harness.signals == [SIGKILLNumber], "the kill waited behind the launch")
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(terminate))
        #expect(harness.error(of: connect) != nil)
        #expect(harness.machine.status.lastExit?.reason == .killed)
        let exited = harness.recorded { $0.processEvent == .exited }
        #expect(exited.map(\.silent) == [true])
        #expect(harness.machine.status.process == .terminated)
        #expect(harness.machine.isIdle)
    }

    /// The quit itself kills a worker still launching (silently, at once): its deadline must
    /// not come first and make it a terminate-timeout.
    @Test func aQuitKillsALaunchingWorkerSilentlyAtOnce() {
        var harness = SceneMachineHarness()
        let connect = harness.request(.connect())
        harness.feed { $0.beginQuit(deadline: .milliseconds(200)) }
        #expect(harness.signals == [SIGKILLNumber])
        harness.advance(by: .milliseconds(200))
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.error(of: connect) != nil)
        #expect(harness.machine.status.lastExit?.reason == .killed)
        let exited = harness.recorded { $0.processEvent == .exited }
        #expect(exited.map(\.silent) == [true])
    }

    @Test func aQuitStartsNoWorkerAndBoundsTheLiveOne() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.beginQuit(deadline: .seconds(5)) }
        let terminate = harness.request(.terminate)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        // The worker hangs in applicationWillTerminate: the quit's deadline kills it.
        harness.advance(by: .seconds(5))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.succeeded(terminate))
        #expect(harness.machine.status.lastExit?.reason == .terminateTimeout)
        let connect = harness.request(.connect())
        #expect(harness.error(of: connect) == .shuttingDown)
        #expect(harness.spawns == 1)
    }
}
