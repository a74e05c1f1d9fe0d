import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Pure tests of the scene core: events in, actions out, a virtual clock, no processes.
@Suite struct SceneMachineTests {
    @Test func connectSpawnsSaysHelloAndCompletesAtTheReply() {
        var harness = SceneMachineHarness()
        let caller = harness.request(.connect())
        #expect(harness.spawns == 1)
        #expect(harness.machine.status.process == .launching)
        #expect(harness.pendingRequests.map(\.op.name) == ["connect"])
        #expect(harness.outcomes[caller] == nil)
        harness.ready()
        harness.reply(callbacks: [
            .willFinishLaunching, .didFinishLaunching, .willConnectTo, .sceneWillEnterForeground, .sceneDidBecomeActive,
        ])
        #expect(harness.succeeded(caller))
        #expect(harness.machine.status.activation == .foregroundActive)
        #expect(harness.machine.status.process == .running)
        #expect(harness.machine.status.pid == 100)
        // The state events come from the callbacks, right after the one that defines them.
        let states = harness.recorded.filter { $0.kind == .state }.map { $0.to }
        #expect(states == [.foregroundInactive, .foregroundActive])
    }

    /// A client's terminate is judged knowing when it was asked (`askedAfterTerminations`):
    /// another window's terminate (the host's `windowTerminate`) that ended the window since,
    /// without a failure, carried it out, and nothing is refused. Refused for want of a worker,
    /// as before: one asked after that end, one whose window another client's terminate ended,
    /// and one whose window was killed from outside.
    @Test func aTerminateThatAnotherWindowsTerminateOvertookSucceedsWithoutARefusal() {
        func windowInTheBackground() -> SceneMachineHarness {
            var harness = SceneMachineHarness()
            harness.connect(background: true)
            return harness
        }
        var overtaken = windowInTheBackground()
        let asked = overtaken.machine.windowTerminationsCompleted
        let fanOut = overtaken.request(.windowTerminate)
        overtaken.reply(callbacks: [.sceneDidDisconnect, .applicationWillTerminate])
        overtaken.exit(.exited(status: 0))
        #expect(overtaken.succeeded(fanOut))
        let client = overtaken.request(.terminate, askedAfterTerminations: asked)
        #expect(overtaken.succeeded(client))
        #expect(!overtaken.recorded.contains { $0.kind == .error })
        let late = overtaken.request(.terminate, askedAfterTerminations: overtaken.machine.windowTerminationsCompleted)
        #expect(!overtaken.succeeded(late))
        #expect(overtaken.recorded.filter { $0.kind == .error }.map(\.op) == ["terminate"])

        // Another client's terminate of the same window: a duplicate, refused.
        var duplicate = windowInTheBackground()
        let askedTwice = duplicate.machine.windowTerminationsCompleted
        let first = duplicate.request(.terminate)
        let second = duplicate.request(.terminate, askedAfterTerminations: askedTwice)
        duplicate.reply(callbacks: [.sceneDidDisconnect, .applicationWillTerminate])
        duplicate.exit(.exited(status: 0))
        #expect(duplicate.succeeded(first))
        #expect(!duplicate.succeeded(second))

        // The host's terminate of it timed out (the app hung in `applicationWillTerminate`), and
        // the host killed it: the window ended as that terminate's, and the client's outcome
        // is that terminate's.
        var hung = windowInTheBackground()
        let askedBeforeTheHang = hung.machine.windowTerminationsCompleted
        let timedOut = hung.request(.windowTerminate)
        let afterTimeout = hung.request(.terminate, askedAfterTerminations: askedBeforeTheHang)
        hung.advance(by: .seconds(6))
        hung.exit(.signaled(signal: 9))
        #expect(hung.outcomes[timedOut] != nil)
        #expect(hung.succeeded(afterTimeout) == hung.succeeded(timedOut))

        // Killed from outside, with no terminate of it: refused.
        var killed = windowInTheBackground()
        let askedBeforeTheKill = killed.machine.windowTerminationsCompleted
        killed.exit(.signaled(signal: 9))
        let afterKill = killed.request(.terminate, askedAfterTerminations: askedBeforeTheKill)
        #expect(!killed.succeeded(afterKill))
    }

    /// The host's terminate of an app's other window (`windowTerminate`) finds it with no
    /// worker (killed meanwhile): nothing to end and no refusal, as no client asked one. A
    /// client's terminate there is refused; a window with a worker is terminated as by a client.
    @Test func aWindowsTerminateOfASceneWithNoWorkerIsNoRefusal() {
        var harness = SceneMachineHarness()
        let window = harness.request(.windowTerminate)
        #expect(harness.succeeded(window))
        #expect(harness.recorded.isEmpty)
        let client = harness.request(.terminate)
        guard case .failure(.refused(_, "terminate", _))? = harness.outcomes[client] else {
            Issue.record("a client's terminate with no worker: \(String(describing: harness.outcomes[client]))")
            return
        }
        #expect(harness.recorded.map(\.op) == ["terminate"])

        var live = SceneMachineHarness()
        _ = live.request(.connect(background: true))
        live.ready()
        live.reply(callbacks: [.willFinishLaunching, .didFinishLaunching, .willConnectTo, .sceneDidEnterBackground])
        let terminate = live.request(.windowTerminate)
        #expect(live.pendingRequests.map(\.op.name) == ["terminate"])
        live.reply(callbacks: [.sceneDidDisconnect, .applicationWillTerminate])
        live.exit(.exited(status: 0))
        #expect(live.succeeded(terminate))
        #expect(live.machine.status.lastExit?.reason == .terminated)

        // A suspended window is ended as a terminate ends one: SIGKILLed, silently (§4).
        var suspended = SceneMachineHarness()
        suspended.connect()
        suspended.request(.background)
        suspended.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        suspended.advance(by: .milliseconds(50))
        #expect(suspended.machine.status.process == .suspended)
        let quiet = suspended.request(.windowTerminate)
        #expect(suspended.signals == [SIGKILLNumber])
        suspended.exit(.signaled(signal: SIGKILLNumber))
        #expect(suspended.succeeded(quiet))
        #expect(suspended.recorded { $0.processEvent == .exited }.map(\.silent) == [true])
    }

    @Test func queuedRequestsRunInArrivalOrderOneAtATime() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let pop = harness.request(.pop)
        // pop is judged only after push completed: with push in flight it waits.
        #expect(harness.pendingRequests.map(\.op.name) == ["push"])
        harness.reply(callbacks: [.viewDidLoad])
        #expect(harness.succeeded(push))
        #expect(harness.pendingRequests.map(\.op.name) == ["pop"])
        harness.reply()
        #expect(harness.succeeded(pop))
        #expect(harness.machine.status.stack == ["Root"])
    }

    // MARK: Timers

    /// An event from outside the scene's queue (the host refusing its app's request) waits
    /// for the transition in flight: it is recorded after the transition's last event, and
    /// before the next queued request begins.
    @Test func anEventRecordedInTurnWaitsForTheTransitionInFlight() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let refusal = TraceEvent(kind: .error, scene: "A", op: "requestSceneSessionActivation", code: 1)
        let recorder = harness.nextCaller
        harness.nextCaller += 1
        let mark = harness.actions.count
        harness.feed { $0.recordInTurn(refusal, caller: recorder) }
        let pop = harness.request(.pop)
        #expect(harness.outcomes[recorder] == nil)
        #expect(!harness.recorded.contains { $0.op == "requestSceneSessionActivation" })
        harness.reply(callbacks: [.viewDidLoad])
        #expect(harness.succeeded(push) && harness.succeeded(recorder))
        let after = harness.actions[mark...].compactMap { action -> String? in
            switch action {
            case .record(let event) where event.kind == .error: "refusal"
            case .resume(let caller, _) where caller == push: "push done"
            case .write: "pop written"
            default: nil
            }
        }
        #expect(after == ["push done", "refusal", "pop written"])
        harness.reply()
        #expect(harness.succeeded(pop))
    }

    /// The host's own refusal of a request its app made in a callback (its line was full) has
    /// no caller: it is recorded after the transition in flight and resumes nobody.
    @Test func anEventRecordedInTurnWithNoCallerResumesNobody() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let refusal = TraceEvent(kind: .error, scene: "A", op: "requestSceneSessionActivation", code: -32005)
        let mark = harness.actions.count
        harness.feed { $0.recordInTurn(refusal, caller: nil) }
        #expect(!harness.recorded.contains { $0.op == "requestSceneSessionActivation" })
        harness.reply(callbacks: [.viewDidLoad])
        let after = harness.actions[mark...].compactMap { action -> String? in
            switch action {
            case .record(let event) where event.kind == .error: "refusal"
            case .resume(let caller, _): caller == push ? "push done" : "other resumed"
            default: nil
            }
        }
        #expect(after == ["push done", "refusal"])
    }

    @Test func aBackgroundSceneIsSuspendedAfterTheDelay() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        #expect(harness.machine.status.activation == .background)
        harness.advance(by: .milliseconds(49))
        #expect(harness.stops == 0)
        harness.advance(by: .milliseconds(1))
        #expect(harness.stops == 1)
        #expect(harness.machine.status.process == .suspended)
        #expect(harness.recorded.last?.processEvent == .suspended)
    }

    @Test func aRequestWaitsForTheStopInProgressAndADeathCancelsIt() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.autoStop = false
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
        // Not suspended until the kernel says so; a foreground meanwhile waits for it.
        #expect(harness.machine.status.process == .running)
        let foreground = harness.request(.foreground)
        #expect(harness.pendingRequests.isEmpty)
        harness.feed { $0.stopCompleted(pid: $0.worker?.pid ?? -1) }
        #expect(harness.recorded.last?.processEvent == .resumed)
        #expect(harness.processGroupSignals == [SIGCONTNumber])
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(harness.succeeded(foreground))
        // A worker that dies while being stopped is never reported suspended.
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .milliseconds(50))
        harness.exit(.signaled(signal: SIGKILLNumber))
        harness.feed { $0.stopCompleted(pid: $0.worker?.pid ?? -1) }
        #expect(harness.recorded.filter { $0.processEvent == .suspended }.count == 1)
        #expect(harness.machine.isIdle)
    }

    @Test func aForegroundCancelsThePendingSuspension() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .milliseconds(20))
        let foreground = harness.request(.foreground)
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(harness.succeeded(foreground))
        harness.advance(by: .seconds(10))
        #expect(harness.stops == 0)
        #expect(harness.machine.status.process == .running)
    }

    @Test func aSuspendTimerFiringMidTransitionWaitsForIt() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        let notify = harness.request(.notify(name: "n", value: .int(1)))
        harness.advance(by: .milliseconds(50))
        // The notify is in flight: the worker is not stopped under it.
        #expect(harness.stops == 0)
        harness.reply(callbacks: [.didReceiveNotification])
        #expect(harness.succeeded(notify))
        #expect(harness.stops == 1)
    }

    @Test func theSuspensionDelayStartsOnceTheStateIsStored() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.autoStore = false
        let background = harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: .object(["stack": .array([.string("Root")])]))
        // The transition counts as done only once its state is durable.
        #expect(harness.outcomes[background] == nil)
        harness.advance(by: .seconds(1))
        #expect(harness.stops == 0)
        harness.feed { $0.storeCompleted() }
        #expect(harness.succeeded(background))
        #expect(harness.machine.session?.restoration != nil)
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
    }

    @Test func aBackgroundWhoseStateCannotBeStoredFailsButIsStillSuspended() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.failNextStore = .io("disk full")
        let background = harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: .object([:]))
        #expect(harness.error(of: background) == .io("disk full"))
        #expect(harness.machine.session?.restoration == nil)
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
    }

    /// A terminate whose state cannot be stored still ends the app in order: the worker is
    /// asked to terminate (not left to the terminate limit and killed), and the caller hears
    /// of the failure once it has exited.
    @Test func aTerminateWhoseStateCannotBeStoredStillEndsTheAppInOrder() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.failNextStore = .io("disk full")
        let terminate = harness.request(.terminate)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: .object([:]))
        #expect(harness.machine.session?.restoration == nil)
        #expect(harness.outcomes[terminate] == nil, "the terminate goes on")
        #expect(harness.pendingRequests.map(\.op) == [.terminate])
        harness.exit(.exited(status: 0))
        #expect(harness.error(of: terminate) == .io("disk full"))
        #expect(harness.machine.status.lastExit?.reason == .terminated)
        #expect(harness.signals.isEmpty)
    }

    /// The worker runs whether or not its argv could be stored: a failed store of it is an
    /// `error` event, not a failed connect (the session's next save stores it).
    @Test func aConnectedWorkerThatCannotBeStoredStillConnects() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.kill(signal: SIGKILLNumber))
        harness.exit(.signaled(signal: SIGKILLNumber))
        harness.failNextStore = .io("disk full")
        let connect = harness.request(.connect(worker: ["custom"]))
        harness.ready()
        harness.reply(callbacks: [
            .willFinishLaunching, .didFinishLaunching, .willConnectTo, .sceneWillEnterForeground,
            .sceneDidBecomeActive,
        ])
        #expect(harness.succeeded(connect))
        let report = harness.recorded { $0.kind == .error }.last
        #expect(report?.message?.contains("was not stored as the scene's") == true, "\(String(describing: report))")
        #expect(harness.machine.session?.worker == nil)
        #expect(harness.machine.status.workerArgv == ["custom"])
    }

    /// A disconnect or a discard whose state cannot be stored still ends its worker in order;
    /// the disconnect fails once it has, the discard (whose session goes anyway) does not.
    @Test(arguments: [SceneOperation.disconnect, .discard])
    func aDisconnectOrDiscardWhoseStateCannotBeStoredStillEndsTheWorker(op: SceneOperation) {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.failNextStore = .io("disk full")
        let caller = harness.request(op)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground], result: .object([:]))
        #expect(harness.outcomes[caller] == nil, "it goes on")
        #expect(harness.pendingRequests.map(\.op) == [.disconnect], "\(harness.pendingRequests)")
        harness.exit(.exited(status: 0))
        if op == .discard {
            #expect(harness.succeeded(caller), "\(String(describing: harness.outcomes[caller]))")
        } else {
            #expect(harness.error(of: caller) == .io("disk full"))
        }
        #expect(harness.signals.isEmpty)
    }

    @Test func aRefusalChangesNothingNotEvenATimer() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        let timers = harness.machine.armedTimers
        let status = harness.machine.status
        let actionsBefore = harness.actions.count
        for op: SceneOperation in [
            .activate, .deactivate, .background, .pop, .push(viewController: "B"), .endBackgroundTask,
        ] {
            let caller = harness.request(op)
            guard case .refused = harness.error(of: caller) else {
                Issue.record("\(op.name) must be refused in the background")
                continue
            }
        }
        #expect(harness.machine.armedTimers == timers)
        #expect(harness.machine.status == status)
        // Only the refusals' error events and the callers' resumptions.
        for action in harness.actions[actionsBefore...] {
            switch action {
            case .record(let event): #expect(event.kind == .error)
            case .resume: break
            default: Issue.record("a refusal produced \(action)")
            }
        }
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
    }

    @Test func aBackgroundTaskExpiresThenItsDeadlineKillsTheWorker() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(10) }
        harness.connect()
        harness.request(.beginBackgroundTask)
        harness.reply(callbacks: [.beginBackgroundTask])
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        // A running background task holds the worker running.
        harness.advance(by: .seconds(7))
        #expect(harness.stops == 0)
        harness.advance(by: .seconds(1))
        #expect(harness.pendingRequests.map(\.op) == [.expireBackgroundTask])
        harness.reply(callbacks: [.backgroundTaskExpiration])
        #expect(harness.signals.isEmpty)
        harness.advance(by: .seconds(2))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.machine.status.lastExit?.reason == .backgroundTaskTimeout)
        #expect(harness.machine.status.activation == .unattached)
        #expect(harness.machine.armedTimers.isEmpty)
    }

    @Test func aLoopHeldBackPastTheDeadlineStillLetsTheExpirationHandlerAnswer() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(10) }
        harness.connect()
        harness.request(.beginBackgroundTask)
        harness.reply(callbacks: [.beginBackgroundTask])
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        // The expiration's request is answered only 1.5 s after the limit (a loop held back):
        // nothing is killed before the handler has had the lead (2 s here) to end the task.
        harness.advance(by: .milliseconds(11_500))
        #expect(harness.pendingRequests.map(\.op) == [.expireBackgroundTask])
        #expect(harness.signals.isEmpty)
        harness.reply(callbacks: [.backgroundTaskExpiration])
        harness.advance(by: .milliseconds(1_999))
        #expect(harness.signals.isEmpty)
        harness.advance(by: .milliseconds(1))
        #expect(harness.signals == [SIGKILLNumber])
    }

    /// As UIKit's `backgroundTimeRemaining`: a task begun in the foreground is not expired
    /// there; its clock runs in the background only, and starts afresh each time.
    @Test func aBackgroundTasksClockRunsInTheBackgroundOnly() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(10) }
        harness.connect()
        harness.request(.beginBackgroundTask)
        harness.reply(callbacks: [.beginBackgroundTask])
        harness.advance(by: .seconds(60))
        #expect(harness.pendingRequests.isEmpty && harness.signals.isEmpty)
        // In the background: the expiration 8 s later (the limit less its 2 s lead).
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.advance(by: .seconds(7))
        #expect(harness.pendingRequests.isEmpty)
        // Back in the foreground before it: the clock stops.
        harness.request(.foreground)
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(harness.machine.status.activation == .foregroundActive)
        harness.advance(by: .seconds(60))
        #expect(harness.pendingRequests.isEmpty && harness.signals.isEmpty)
        // The next background period starts afresh: 8 s again, then the kill 2 s after.
        harness.request(.background)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        #expect(harness.machine.status.activation == .background)
        harness.advance(by: .seconds(7))
        #expect(harness.pendingRequests.isEmpty)
        harness.advance(by: .seconds(1))
        #expect(harness.pendingRequests.map(\.op) == [.expireBackgroundTask])
        harness.reply(callbacks: [.backgroundTaskExpiration])
        #expect(harness.signals.isEmpty)
        harness.advance(by: .seconds(2))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.machine.status.lastExit?.reason == .backgroundTaskTimeout)
    }

    @Test func anEndedBackgroundTaskLetsTheSceneSuspend() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.request(.beginBackgroundTask)
        harness.reply(callbacks: [.beginBackgroundTask])
        harness.advance(by: .seconds(1))
        #expect(harness.stops == 0)
        harness.request(.endBackgroundTask)
        harness.reply(callbacks: [.endBackgroundTask])
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
        #expect(harness.machine.armedTimers.keys.contains(.backgroundTaskDeadline) == false)
    }

    @Test func aWaiterTimesOutOnTheClockAndAnotherIsWokenByTheState() {
        var harness = SceneMachineHarness()
        let late = harness.waitFor("state background", timeout: .seconds(1)) { $0.activation == .background }
        let woken = harness.waitFor("state foregroundActive", timeout: .seconds(5)) {
            $0.activation == .foregroundActive
        }
        harness.connect()
        #expect(harness.succeeded(woken))
        #expect(harness.outcomes[late] == nil)
        harness.advance(by: .seconds(1))
        guard case .timedOut = harness.error(of: late) else {
            Issue.record("the wait must time out")
            return
        }
        #expect(harness.machine.armedTimers.isEmpty)
    }

    // MARK: Deaths

    @Test func aDeathMidTransitionFailsItAndTheNextRequestSeesTheNewState() {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "B"))
        let pop = harness.request(.pop)
        harness.feed { $0.received(.callback(CallbackEvent(.viewDidLoad, viewController: "B"))) }
        harness.exit(.signaled(signal: SIGKILLNumber))
        guard case .workerExited(_, "push", .killed, _) = harness.error(of: push) else {
            Issue.record("push must fail with the death, got \(String(describing: harness.outcomes[push]))")
            return
        }
        #expect(harness.machine.status.activation == .unattached)
        #expect(harness.machine.status.pid == nil)
        guard case .refused = harness.error(of: pop) else {
            Issue.record("pop must be judged against the unattached scene")
            return
        }
        // The exit is recorded, with the state event the callbacks had implied.
        let exited = harness.recorded.first { $0.processEvent == .exited }
        #expect(exited?.reason == .killed)
        let afterExit = harness.recorded.drop { $0.processEvent != .exited }.dropFirst().first
        #expect(afterExit?.kind == .state)
        #expect(afterExit?.to == .unattached)
    }
}

extension SceneMachineTests {
    /// A second `beginBackgroundTask` while one runs is refused and changes nothing: the running
    /// task's clock keeps its start, so the expiration comes at the limit counted from then.
    @Test func aRefusedSecondBackgroundTaskLeavesTheRunningTasksClockAlone() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(10) }
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        harness.request(.beginBackgroundTask)
        harness.reply(callbacks: [.beginBackgroundTask])
        harness.advance(by: .seconds(6))
        let refused = harness.request(.beginBackgroundTask)
        #expect(harness.error(of: refused) != nil)
        #expect(harness.pendingRequests.isEmpty)
        // The expiration is asked for 2 s before the limit (the handler's lead): at 8 s from
        // the task's start, not from the refusal.
        harness.advance(by: .milliseconds(1_900))
        #expect(harness.pendingRequests.isEmpty)
        harness.advance(by: .milliseconds(100))
        #expect(harness.pendingRequests.map(\.op) == [.expireBackgroundTask])
    }
}
