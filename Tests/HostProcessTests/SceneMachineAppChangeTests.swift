import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Pure tests of the app-initiated path (LIFECYCLE.md §3b): the host checks each change the
/// worker reports with the rules of its own requests, follows a legal one, and treats an
/// illegal one as a protocol violation.
@Suite struct SceneMachineAppChangeTests {
    private func appCallback(_ name: CallbackName, _ viewController: String? = nil) -> WorkerMessage {
        .callback(CallbackEvent(name, viewController: viewController, origin: .app))
    }

    @Test func aLegalPushIsFollowedAndItsCallbacksCarryTheOrigin() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.change(.push(viewController: "Detail"))) }
        harness.feed { $0.received(appCallback(.viewDidLoad, "Detail")) }
        harness.feed { $0.received(appCallback(.viewDidAppear, "Detail")) }
        #expect(harness.signals.isEmpty)
        #expect(harness.machine.status.stack == ["Root", "Detail"])
        let origins = harness.recorded.filter { $0.viewController == "Detail" }.map(\.origin)
        #expect(origins == ["app", "app"])
        // The host's own pop now sees the app's stack.
        let pop = harness.request(.pop)
        harness.reply()
        #expect(harness.succeeded(pop))
        #expect(harness.machine.status.stack == ["Root"])
    }

    @Test func anIllegalChangeIsAProtocolViolationAndChangesNothing() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.change(.pop)) }
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.machine.status.stack == ["Root"])
        #expect(harness.recorded.last?.op == "protocol")
    }

    /// `popToViewController`: the index must name a controller above the root and below the
    /// top; a legal one is followed, its callbacks carrying `op: "popTo"` and the index.
    @Test(arguments: [(0, false), (1, true), (2, true), (3, false), (4, false)])
    func aPopToAControllerNeedsOneAboveTheRootAndBelowTheTop(index: Int, legal: Bool) {
        var harness = SceneMachineHarness()
        harness.connect()
        for name in ["A", "B", "C"] {
            let push = harness.request(.push(viewController: name))
            harness.reply()
            #expect(harness.succeeded(push))
        }
        harness.feed { $0.received(.change(.popTo(index: index))) }
        if legal {
            harness.feed { $0.received(appCallback(.viewWillDisappear, "C")) }
            #expect(harness.signals.isEmpty)
            #expect(harness.machine.status.stack == Array(["Root", "A", "B", "C"].prefix(index + 1)))
            #expect(harness.recorded.last?.op == "popTo" && harness.recorded.last?.value == .int(index))
        } else {
            #expect(harness.signals == [SIGKILLNumber])
            #expect(harness.machine.status.stack == ["Root", "A", "B", "C"])
        }
    }

    /// A background task the app begins inside its own pop to a controller (UIKit runs it at
    /// once) carries none of the pop's marks, and the pop's later callbacks keep them.
    @Test func aBackgroundTaskInsideAnAppPopLeavesThePopsMarks() {
        var harness = SceneMachineHarness()
        harness.connect()
        for name in ["A", "B", "C"] {
            harness.request(.push(viewController: name))
            harness.reply()
        }
        harness.feed { $0.received(.change(.popTo(index: 1))) }
        harness.feed { $0.received(appCallback(.viewWillDisappear, "C")) }
        harness.feed { $0.received(.change(.beginBackgroundTask)) }
        harness.feed { $0.received(appCallback(.beginBackgroundTask)) }
        harness.feed { $0.received(appCallback(.viewWillAppear, "A")) }
        #expect(harness.signals.isEmpty)
        let app = harness.recorded.filter { $0.origin == "app" }
        #expect(app.map(\.name) == ["viewWillDisappear", "beginBackgroundTask", "viewWillAppear"])
        #expect(app.map(\.op) == ["popTo", nil, "popTo"])
        #expect(app.map(\.value) == [.int(1), nil, .int(1)])
    }

    @Test func aPushDuringAHostRequestIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.push(viewController: "B"))
        harness.feed { $0.received(.callback(CallbackEvent(.loadView, viewController: "B"))) }
        harness.feed { $0.received(.change(.push(viewController: "C"))) }
        #expect(harness.signals == [SIGKILLNumber])
    }

    /// The worker runs a deferred push right after reply N, before it reads request N+1; the
    /// host may have written N+1 before it reads that push.
    @Test func aPushSeenBeforeTheNextRequestStartedIsLegal() {
        var harness = SceneMachineHarness()
        harness.connect()
        let memoryWarning = harness.request(.memoryWarning)
        harness.feed { $0.received(.change(.push(viewController: "C"))) }
        harness.feed { $0.received(appCallback(.viewDidLoad, "C")) }
        #expect(harness.signals.isEmpty)
        harness.reply(callbacks: [.applicationDidReceiveMemoryWarning])
        #expect(harness.succeeded(memoryWarning))
        #expect(harness.machine.status.stack == ["Root", "C"])
    }

    @Test func anAppCallbackWithoutAChangeIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(appCallback(.viewDidLoad, "Detail")) }
        #expect(harness.signals == [SIGKILLNumber])
    }

    /// The most common background pattern: beginBackgroundTask inside sceneDidEnterBackground.
    @Test func aBackgroundTaskBegunInsideEnterBackgroundPreventsTheSuspension() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(30) }
        harness.connect()
        let background = harness.request(.background)
        harness.feed { $0.received(.callback(CallbackEvent(.sceneWillResignActive))) }
        harness.feed { $0.received(.callback(CallbackEvent(.sceneDidEnterBackground))) }
        harness.feed { $0.received(.change(.beginBackgroundTask)) }
        harness.feed { $0.received(appCallback(.beginBackgroundTask)) }
        harness.reply()
        #expect(harness.succeeded(background))
        #expect(harness.signals.isEmpty)
        #expect(harness.machine.status.hasBackgroundTask)
        harness.advance(by: .seconds(10))
        #expect(harness.stops == 0)
        // The app ends it itself: the suspension follows after the delay.
        harness.feed { $0.received(.change(.endBackgroundTask)) }
        harness.feed { $0.received(appCallback(.endBackgroundTask)) }
        #expect(harness.machine.status.hasBackgroundTask == false)
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
        #expect(harness.machine.armedTimers.isEmpty)
    }

    /// Work the app queued (a task that slept) may begin a background task while the host
    /// stops the worker's group: the worker then runs on, continued, and is never recorded
    /// suspended.
    @Test func aBackgroundTaskBegunWhileTheGroupStopsUndoesTheStop() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        harness.autoStop = false
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
        harness.feed { $0.received(.change(.beginBackgroundTask)) }
        harness.feed { $0.received(appCallback(.beginBackgroundTask)) }
        harness.feed { $0.stopCompleted(pid: $0.worker?.pid ?? -1) }
        #expect(harness.processGroupSignals == [SIGCONTNumber])
        #expect(harness.machine.status.process == .running)
        #expect(!harness.recorded.contains { $0.processEvent == .suspended })
        #expect(harness.machine.isIdle)
    }

    @Test func anAppBackgroundTaskExpiresAndIsKilledLikeAHostOne() {
        var harness = SceneMachineHarness { $0.backgroundTaskLimit = .seconds(10) }
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        harness.feed { $0.received(.change(.beginBackgroundTask)) }
        harness.advance(by: .seconds(8))
        #expect(harness.pendingRequests.map(\.op) == [.expireBackgroundTask])
        harness.reply(callbacks: [.backgroundTaskExpiration])
        harness.advance(by: .seconds(2))
        #expect(harness.signals == [SIGKILLNumber])
        harness.exit(.signaled(signal: SIGKILLNumber))
        #expect(harness.machine.status.lastExit?.reason == .backgroundTaskTimeout)
    }

    @Test func theStackRebuiltInWillConnectToIsFollowed() {
        var harness = SceneMachineHarness()
        let connect = harness.request(.connect())
        harness.ready()
        harness.feed { $0.received(.callback(CallbackEvent(.willConnectTo))) }
        harness.feed { $0.received(.change(.setStack(["Root", "List", "Detail"]))) }
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(harness.succeeded(connect))
        #expect(harness.signals.isEmpty)
        #expect(harness.machine.status.stack == ["Root", "List", "Detail"])
    }

    @Test func theTabBarMadeInWillConnectToIsFollowed() {
        var harness = SceneMachineHarness()
        let connect = harness.request(.connect())
        harness.ready()
        harness.feed { $0.received(.callback(CallbackEvent(.willConnectTo))) }
        harness.feed { $0.received(.change(.setTabs(["List", "Settings"], selected: 1))) }
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(harness.succeeded(connect))
        #expect(harness.signals.isEmpty)
        #expect(harness.machine.status.stack == ["Settings"])
        #expect(harness.machine.status.selectedTab == 1)
        #expect(harness.machine.status.tabs == [["List"], ["Settings"]])
        let select = harness.request(.selectTab(index: 0))
        harness.reply(callbacks: [])
        #expect(harness.succeeded(select))
        #expect(harness.machine.status.stack == ["List"])
    }

    @Test func aTabBarMadeOutsideWillConnectToOrOverTheHostsTabsIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.change(.setTabs(["List"], selected: 0))) }
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.machine.status.tabs == nil)

        var tabbed = SceneMachineHarness()
        _ = tabbed.request(.connect(launch: LaunchParameters(tabs: ["A", "B"])))
        tabbed.ready()
        tabbed.feed { $0.received(.callback(CallbackEvent(.willConnectTo))) }
        tabbed.feed { $0.received(.change(.setTabs(["List"], selected: 0))) }
        #expect(tabbed.signals == [SIGKILLNumber])
    }

    @Test func aStackRebuiltOutsideWillConnectToIsAProtocolViolation() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.change(.setStack(["Root", "List"]))) }
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.machine.status.stack == ["Root"])
    }

    /// The app's names obey the client's limit (SceneLimits): a worker that sends a longer
    /// one, which the worker library never does, broke the protocol, and nothing is stored.
    @Test(arguments: [
        AppChange.push(viewController: String(repeating: "X", count: 300)),
        .present(viewController: String(repeating: "X", count: 300), style: .pageSheet),
        .addChild(viewController: String(repeating: "X", count: 300)),
    ])
    func aNameOverTheClientsLimitIsAProtocolViolation(_ change: AppChange) {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.feed { $0.received(.change(change)) }
        #expect(harness.signals == [SIGKILLNumber])
        #expect(harness.machine.status.stack == ["Root"])
        #expect(harness.machine.status.children.isEmpty)
    }

    @Test func aRebuiltStackOrTabBarWithANameOverTheLimitIsAProtocolViolation() {
        let long = String(repeating: "é", count: 200)
        for change in [AppChange.setStack(["Root", long]), .setTabs(["List", long], selected: 0)] {
            var harness = SceneMachineHarness()
            _ = harness.request(.connect())
            harness.ready()
            harness.feed { $0.received(.callback(CallbackEvent(.willConnectTo))) }
            harness.feed { $0.received(.change(change)) }
            #expect(harness.signals == [SIGKILLNumber], "\(change.name)")
            #expect(harness.machine.status.stack == ["Root"], "\(change.name)")
            #expect(harness.machine.status.tabs == nil, "\(change.name)")
        }
    }
}

@Suite struct SceneMachineAppChangeRaceTests {
    /// The app presents on its own while the host's push is on its way: the worker refuses the
    /// push (a controller is presented), and the host refuses it too, as it would have after
    /// the change, with a refusal in the trace. Not a worker failure: nothing changed.
    @Test func aRequestOvertakenByTheAppsChangeIsRefused() throws {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "Detail"))
        let requestID = try #require(harness.pendingRequests.first?.id)
        harness.feed { $0.received(.change(.present(viewController: "Sheet", style: .pageSheet))) }
        harness.feed {
            $0.received(
                .failure(
                    id: requestID,
                    ProtocolError(.illegalTransition, "cannot push: a view controller is presented")
                )
            )
        }
        guard case .refused(_, let op, _)? = harness.error(of: push) else {
            Issue.record("the push was not refused: \(String(describing: harness.error(of: push)))")
            return
        }
        #expect(op == "push")
        #expect(harness.recorded.last?.kind == .error && harness.recorded.last?.op == "push")
        #expect(harness.recorded.last?.code == ProtocolError.Code.illegalTransition.rawValue)
        #expect(harness.machine.status.stack == ["Root"])
        #expect(harness.machine.status.presented == "Sheet")
    }

    /// With no app change in between, a worker's failure stays a failure.
    @Test func aFailureWithNoAppChangeStaysAFailure() throws {
        var harness = SceneMachineHarness()
        harness.connect()
        let push = harness.request(.push(viewController: "Detail"))
        let requestID = try #require(harness.pendingRequests.first?.id)
        harness.feed { $0.received(.failure(id: requestID, ProtocolError(.operationFailed, "no"))) }
        guard case .workerError? = harness.error(of: push) else {
            Issue.record("not a worker error: \(String(describing: harness.error(of: push)))")
            return
        }
    }
}
