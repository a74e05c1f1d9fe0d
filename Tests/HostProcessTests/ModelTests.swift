import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

// Pure tests of the lifecycle checker: traces are built by hand, no I/O.

@Suite struct ModelTests {
    // MARK: Valid lives

    @Test func fullLifeIsAccepted() {
        var checker = SceneTraceChecker()
        for event in fullLife() {
            let violation = checker.check(event)
            #expect(violation == nil, "\(violation?.description ?? "")")
        }
        #expect(checker.activation == .unattached)
        #expect(checker.processState == .terminated)
        #expect(checker.stack.isEmpty)
        #expect(!checker.isInsideAtom)
        #expect(firstViolation(fullLife()) == nil)
    }

    @Test func checkerTracksStateThroughTheLife() {
        var checker = SceneTraceChecker()
        let events = fullLife()
        for event in events.prefix(1) { #expect(checker.check(event) == nil) }
        #expect(checker.processState == .launching)
        // Up to viewDidLoad Root: inside the launch atom.
        for event in events[1..<7] { #expect(checker.check(event) == nil) }
        #expect(checker.stack == ["Root"])
        #expect(checker.isInsideAtom)
        #expect(checker.processState == .launching)
        for event in events[7..<16] { #expect(checker.check(event) == nil) }
        #expect(checker.activation == .foregroundActive)
        #expect(checker.processState == .running)
        #expect(!checker.isInsideAtom)
        // Through the push.
        for event in events[16..<29] { #expect(checker.check(event) == nil) }
        #expect(checker.stack == ["Root", "Detail"])
    }

    @Test func connectToBackgroundThenFirstAppearanceLater() {
        var t = TraceBuilder()
        t.launch()
        t.toBackground(from: .unattached)
        t.suspended()
        t.resumed()
        t.firstAppearance(from: .background)
        t.toBackground()
        // Now the controllers have appeared: the plain enter-foreground atom.
        t.callback(.sceneWillEnterForeground)
        t.state(.background, .foregroundInactive)
        t.callback(.sceneDidBecomeActive)
        t.state(.foregroundInactive, .foregroundActive)
        t.toBackground()
        t.disconnect()
        #expect(firstViolation(t.events) == nil)
    }

    @Test func backgroundLaunchNeedsFirstAppearanceNotEnterForeground() {
        var t = TraceBuilder()
        t.launch()
        t.toBackground(from: .unattached)
        t.callback(.sceneWillEnterForeground)
        let violation = firstViolation(t.events)
        #expect(violation?.seq == t.events.count)
        #expect(violation?.expected.contains("callback viewWillAppear (vc Root)") == true)
    }

    @Test func appearedControllersDoNotReappearOnForeground() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.callback(.viewWillAppear, "Root")
        #expect(firstViolation(t.events)?.seq == t.events.count)
    }

    @Test func terminatePathIsAccepted() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.push("Detail", over: "Root")
        t.toBackground()
        t.callback(.sceneDidDisconnect)
        t.state(.background, .unattached)
        t.callback(.applicationWillTerminate)
        t.exited(.terminated, status: 0)
        #expect(firstViolation(t.events) == nil)
    }

    @Test func terminatedExitNeedsApplicationWillTerminate() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.callback(.sceneDidDisconnect)
        t.state(.background, .unattached)
        t.exited(.terminated, status: 0)
        let violation = firstViolation(t.events)
        #expect(violation?.seq == t.events.count)
        #expect(violation?.expected == "callback deinit (vc Root) or callback applicationWillTerminate")
        #expect(violation?.hint == nil, "not only a deinit was allowed")
    }

    @Test func disconnectedExitNeedsEveryDeinit() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.push("Detail", over: "Root")
        t.toBackground()
        t.callback(.sceneDidDisconnect)
        t.state(.background, .unattached)
        t.callback(.deinit, "Detail")
        t.exited(.disconnected, status: 0)
        let violation = firstViolation(t.events)
        #expect(violation?.seq == t.events.count)
        #expect(violation?.expected == "callback deinit (vc Root)")
        // The usual cause is the app's: its message says what to look for.
        #expect(violation?.description.hasSuffix("scenehost's model needs its deinit here") == true)
    }

    @Test func disconnectDeinitsTopFirst() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.push("Detail", over: "Root")
        t.toBackground()
        var valid = t
        valid.disconnect(stackTopFirst: ["Detail", "Root"])
        #expect(firstViolation(valid.events) == nil)
        var rootFirst = t
        rootFirst.disconnect(stackTopFirst: ["Root", "Detail"])
        #expect(firstViolation(rootFirst.events)?.seq == t.events.count + 3)
    }

    @Test func killedMidAtomIsAccepted() {
        // Killed halfway through a push, restored, killed again halfway through the launch.
        var t = TraceBuilder()
        t.connectToForeground()
        t.callback(.loadView, "Detail")
        t.callback(.viewDidLoad, "Detail")
        t.exited(.killed, signal: "KILL")
        t.state(.foregroundActive, .unattached)
        t.spawned(pid: 101)
        t.callback(.willFinishLaunching)
        t.callback(.didFinishLaunching)
        t.callback(.willConnectTo)
        t.exited(.watchdog, signal: "KILL")
        t.launch(newSession: false)
        t.firstAppearance(from: .unattached)
        #expect(firstViolation(t.events) == nil)
    }

    @Test func killedWhileSuspendedIsAccepted() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.suspended()
        t.add(TraceEvent(kind: .host, name: "memoryPressure"))
        t.exited(.jetsam, signal: "KILL")
        t.state(.background, .unattached)
        #expect(firstViolation(t.events) == nil)
    }

    @Test func reconnectAfterExitSkipsConfigurationForConnecting() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.disconnect()
        t.connectToForeground(newSession: false)
        #expect(firstViolation(t.events) == nil)

        // Asking for a configuration again on reconnect is refused (choice).
        var again = TraceBuilder()
        again.connectToForeground()
        again.exited(.crashed, status: 1)
        again.state(.foregroundActive, .unattached)
        again.spawned()
        again.callback(.willFinishLaunching)
        again.callback(.didFinishLaunching)
        again.callback(.configurationForConnecting)
        let violation = firstViolation(again.events)
        #expect(violation?.seq == again.events.count)
        // (or the root's loadView of an app without scenes, §3d, or a silent push the app was
        // launched for with no scene, c20).
        #expect(
            violation?.expected
                == "callback didDiscardSceneSessions or callback willConnectTo or callback initWithCoder (vc: a new controller) "
                + "or callback loadView (vc: a new controller) or callback didReceiveRemoteNotification"
        )
    }

    @Test func firstConnectMayOmitConfigurationForConnecting() {
        // A session restored from an earlier host run reconnects without it.
        var t = TraceBuilder()
        t.connectToForeground(newSession: false)
        #expect(firstViolation(t.events) == nil)
    }

    @Test func exitNeedsTheStateEventToUnattachedBeforeAnythingElse() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.exited(.crashed, signal: "SEGV")
        t.spawned()
        let violation = firstViolation(t.events)
        #expect(violation?.seq == t.events.count)
        #expect(violation?.expected == "state foregroundActive -> unattached")

        // Host and error events, and other scenes, may come between.
        var late = TraceBuilder()
        late.connectToForeground()
        late.exited(.crashed, signal: "SEGV")
        late.add(TraceEvent(kind: .host, name: "tick"))
        late.scene = "B"
        late.launch()
        late.scene = "A"
        late.add(TraceEvent(kind: .error, scene: "A", op: "push", code: 1, message: "no worker"))
        late.state(.foregroundActive, .unattached)
        late.launch(newSession: false)
        #expect(firstViolation(late.events) == nil)
    }

    @Test func noStateEventAfterExitWhenAlreadyUnattached() {
        var t = TraceBuilder()
        t.launch()
        t.exited(.watchdog, signal: "KILL")
        t.state(.foregroundInactive, .unattached)
        #expect(firstViolation(t.events)?.seq == t.events.count)
    }

    @Test func backgroundTasks() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.callback(.beginBackgroundTask)
        t.toBackground()
        t.callback(.backgroundTaskExpiration)
        t.callback(.endBackgroundTask)
        t.suspended()
        t.resumed()
        t.callback(.beginBackgroundTask)
        t.callback(.endBackgroundTask)
        #expect(firstViolation(t.events) == nil)

        var twice = TraceBuilder()
        twice.connectToForeground()
        twice.callback(.beginBackgroundTask)
        twice.callback(.beginBackgroundTask)
        #expect(firstViolation(twice.events)?.seq == twice.events.count)

        var endWithoutBegin = TraceBuilder()
        endWithoutBegin.connectToForeground()
        endWithoutBegin.callback(.endBackgroundTask)
        #expect(firstViolation(endWithoutBegin.events)?.seq == endWithoutBegin.events.count)
    }

    @Test func suspensionRules() {
        var foreground = TraceBuilder()
        foreground.connectToForeground()
        foreground.suspended()
        #expect(firstViolation(foreground.events)?.seq == foreground.events.count)

        var withTask = TraceBuilder()
        withTask.connectToForeground()
        withTask.callback(.beginBackgroundTask)
        withTask.toBackground()
        withTask.suspended()
        #expect(firstViolation(withTask.events)?.expected == "callback endBackgroundTask before process suspended")

        var midAtom = TraceBuilder()
        midAtom.launch()
        midAtom.callback(.sceneDidEnterBackground)
        midAtom.state(.unattached, .background)
        midAtom.suspended()
        #expect(firstViolation(midAtom.events)?.expected == "callback stateRestorationActivity")

        var resumeRunning = TraceBuilder()
        resumeRunning.connectToForeground()
        resumeRunning.resumed()
        #expect(firstViolation(resumeRunning.events)?.seq == resumeRunning.events.count)
    }

    @Test func callbackWhileSuspendedIsRejected() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.suspended()
        t.notification("refresh", .bool(true))
        let violation = firstViolation(t.events)
        #expect(violation?.seq == t.events.count)
        #expect(violation?.expected == "process resumed (the worker is suspended)")
    }

    @Test func spawnedNeedsNoLiveWorker() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.spawned(pid: 7)
        #expect(firstViolation(t.events)?.expected == "process exited before another spawned")
    }

    @Test func callbackWithoutWorkerIsRejected() {
        var t = TraceBuilder()
        t.callback(.willFinishLaunching)
        t.callback(.didFinishLaunching)
        #expect(firstViolation(t.events)?.expected == "process spawned or callback didDiscardSceneSessions")
    }

    @Test func stateEventMustMatchItsCallback() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.callback(.sceneWillResignActive)
        t.state(.foregroundActive, .background)
        let violation = firstViolation(t.events)
        #expect(violation?.expected == "state foregroundActive -> foregroundInactive")
        #expect(violation?.got == "state foregroundActive -> background")

        var bare = TraceBuilder()
        bare.connectToForeground()
        bare.state(.foregroundActive, .foregroundInactive)
        #expect(firstViolation(bare.events)?.seq == bare.events.count)
    }

    /// A push to a controller without children: the top's `viewWillDisappear` comes before
    /// the pushed one's `viewWillAppear` (`LifecycleOrderTests.pushAndPop` in the worker);
    /// swapped, the checker refuses the trace at the first of the pair, not only the worker's
    /// own order test.
    @Test func aChildlessPushWithItsWillPairSwappedIsRejected() {
        var good = TraceBuilder()
        good.connectToForeground()
        good.push("Detail", over: "Root")
        #expect(firstViolation(good.events) == nil)

        var swapped = TraceBuilder()
        swapped.connectToForeground()
        swapped.callback(.loadView, "Detail")
        swapped.callback(.viewDidLoad, "Detail")
        swapped.callback(.viewWillAppear, "Detail")
        let firstOfThePair = swapped.events.count
        swapped.callback(.viewWillDisappear, "Root")
        swapped.callback(.viewIsAppearing, "Detail")
        swapped.callback(.viewWillLayoutSubviews, "Detail")
        swapped.callback(.viewDidLayoutSubviews, "Detail")
        swapped.callback(.viewDidDisappear, "Root")
        swapped.callback(.viewDidAppear, "Detail")
        #expect(good.events.map(\.compact).sorted() == swapped.events.map(\.compact).sorted(), "the same events")
        let violation = firstViolation(swapped.events)
        #expect(violation?.seq == firstOfThePair, "\(violation?.description ?? "accepted")")
    }

    @Test func navigationOnlyInForeground() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.callback(.loadView, "Detail")
        #expect(firstViolation(t.events)?.seq == t.events.count)

        var resize = TraceBuilder()
        resize.connectToForeground()
        resize.toBackground()
        resize.callback(.viewWillTransition, "Root")
        #expect(firstViolation(resize.events)?.seq == resize.events.count)

        var popRoot = TraceBuilder()
        popRoot.connectToForeground()
        popRoot.callback(.viewWillDisappear, "Root")
        #expect(firstViolation(popRoot.events)?.seq == popRoot.events.count)
    }
}
