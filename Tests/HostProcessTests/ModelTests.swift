import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

// Pure tests of the lifecycle checker: traces are built by hand, no I/O.

/// Builds a trace, assigning `seq` 1, 2, 3, … in order.
struct TraceBuilder {
    var events: [TraceEvent] = []
    /// The scene of the events added without an explicit scene.
    var scene = "A"

    init(scene: String = "A") { self.scene = scene }

    mutating func add(_ event: TraceEvent) {
        var event = event
        event.seq = events.count + 1
        event.time = Double(events.count) * 0.001
        events.append(event)
    }

    mutating func callback(_ name: CallbackName, _ vc: String? = nil) {
        add(TraceEvent(kind: .callback, scene: scene, name: name.rawValue, viewController: vc))
    }

    mutating func state(_ from: ActivationState, _ to: ActivationState) {
        add(TraceEvent(kind: .state, scene: scene, from: from, to: to))
    }

    mutating func spawned(pid: Int32 = 100) {
        add(TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: pid))
    }

    mutating func suspended() { add(TraceEvent(kind: .process, scene: scene, processEvent: .suspended)) }
    mutating func resumed() { add(TraceEvent(kind: .process, scene: scene, processEvent: .resumed)) }

    mutating func exited(_ reason: TerminationReason, status: Int32? = nil, signal: String? = nil) {
        add(
            TraceEvent(
                kind: .process,
                scene: scene,
                processEvent: .exited,
                reason: reason,
                status: status,
                signal: signal
            )
        )
    }

    mutating func notification(_ name: String, _ value: JSONValue) {
        add(
            TraceEvent(
                kind: .callback,
                scene: scene,
                name: CallbackName.didReceiveNotification.rawValue,
                notification: name,
                value: value
            )
        )
    }

    // Atoms, for the tests that are not about the atoms themselves.

    mutating func launch(root: String = "Root", newSession: Bool = true) {
        spawned()
        callback(.willFinishLaunching)
        callback(.didFinishLaunching)
        if newSession { callback(.configurationForConnecting) }
        callback(.willConnectTo)
        callback(.loadView, root)
        callback(.viewDidLoad, root)
    }

    mutating func firstAppearance(from: ActivationState, top: String = "Root") {
        callback(.viewWillAppear, top)
        callback(.viewIsAppearing, top)
        callback(.traitCollectionDidChange, top)
        callback(.viewWillLayoutSubviews, top)
        callback(.viewDidLayoutSubviews, top)
        callback(.sceneWillEnterForeground)
        state(from, .foregroundInactive)
        callback(.sceneDidBecomeActive)
        state(.foregroundInactive, .foregroundActive)
        callback(.viewDidAppear, top)
    }

    mutating func connectToForeground(root: String = "Root", newSession: Bool = true) {
        launch(root: root, newSession: newSession)
        firstAppearance(from: .unattached, top: root)
    }

    mutating func toBackground(from: ActivationState = .foregroundActive) {
        if from == .foregroundActive {
            callback(.sceneWillResignActive)
            state(.foregroundActive, .foregroundInactive)
        }
        callback(.sceneDidEnterBackground)
        state(from == .unattached ? .unattached : .foregroundInactive, .background)
        callback(.stateRestorationActivity)
    }

    mutating func push(_ pushed: String, over top: String) {
        callback(.loadView, pushed)
        callback(.viewDidLoad, pushed)
        callback(.viewWillDisappear, top)
        callback(.viewWillAppear, pushed)
        callback(.viewIsAppearing, pushed)
        callback(.viewWillLayoutSubviews, pushed)
        callback(.viewDidLayoutSubviews, pushed)
        callback(.viewDidDisappear, top)
        callback(.viewDidAppear, pushed)
    }

    mutating func disconnect(stackTopFirst: [String] = ["Root"]) {
        callback(.sceneDidDisconnect)
        state(.background, .unattached)
        for vc in stackTopFirst { callback(.deinit, vc) }
        exited(.disconnected, status: 0)
    }
}

/// Runs `events` through a fresh verifier; returns the first violation.
func firstViolation(_ events: [TraceEvent]) -> LifecycleViolation? {
    var verifier = TraceVerifier()
    for event in events {
        if let violation = verifier.check(event) { return violation }
    }
    return nil
}

/// The full valid life of one scene, written out event by event (the model's example).
func fullLife(scene: String = "A") -> [TraceEvent] {
    var t = TraceBuilder(scene: scene)
    t.spawned(pid: 4242)
    // Launch to foreground.
    t.callback(.willFinishLaunching)
    t.callback(.didFinishLaunching)
    t.callback(.configurationForConnecting)
    t.callback(.willConnectTo)
    t.callback(.loadView, "Root")
    t.callback(.viewDidLoad, "Root")
    t.callback(.viewWillAppear, "Root")
    t.callback(.viewIsAppearing, "Root")
    t.callback(.traitCollectionDidChange, "Root")
    t.callback(.viewWillLayoutSubviews, "Root")
    t.callback(.viewDidLayoutSubviews, "Root")
    t.callback(.sceneWillEnterForeground)
    t.state(.unattached, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    t.callback(.viewDidAppear, "Root")
    // Deactivate, activate.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    // Push Detail.
    t.callback(.loadView, "Detail")
    t.callback(.viewDidLoad, "Detail")
    t.callback(.viewWillDisappear, "Root")
    t.callback(.viewWillAppear, "Detail")
    t.callback(.viewIsAppearing, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    t.callback(.viewDidDisappear, "Root")
    t.callback(.viewDidAppear, "Detail")
    // Resize, with the layout pass running twice.
    t.callback(.viewWillTransition, "Root")
    t.callback(.viewWillTransition, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    // Pop.
    t.callback(.viewWillDisappear, "Detail")
    t.callback(.viewWillAppear, "Root")
    t.callback(.viewIsAppearing, "Root")
    t.callback(.viewWillLayoutSubviews, "Root")
    t.callback(.viewDidLayoutSubviews, "Root")
    t.callback(.viewDidDisappear, "Detail")
    t.callback(.viewDidAppear, "Root")
    t.callback(.deinit, "Detail")
    // Memory warning.
    t.callback(.applicationDidReceiveMemoryWarning)
    t.callback(.didReceiveMemoryWarning, "Root")
    // Background, saving state.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidEnterBackground)
    t.state(.foregroundInactive, .background)
    t.callback(.stateRestorationActivity)
    // Suspended, resumed, a queued notification.
    t.suspended()
    t.resumed()
    t.notification("refresh", .int(3))
    // Foreground (controllers already appeared: no VC callbacks).
    t.callback(.sceneWillEnterForeground)
    t.state(.background, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    // Background again, then disconnect.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidEnterBackground)
    t.state(.foregroundInactive, .background)
    t.callback(.stateRestorationActivity)
    t.callback(.sceneDidDisconnect)
    t.state(.background, .unattached)
    t.callback(.deinit, "Root")
    t.exited(.disconnected, status: 0)
    return t.events
}

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
        for event in events[7..<17] { #expect(checker.check(event) == nil) }
        #expect(checker.activation == .foregroundActive)
        #expect(checker.processState == .running)
        #expect(!checker.isInsideAtom)
        // Through the push.
        for event in events[17..<30] { #expect(checker.check(event) == nil) }
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
        // (or the root's loadView of an app without scenes, §3d).
        #expect(
            violation?.expected
                == "callback didDiscardSceneSessions or callback willConnectTo or callback initWithCoder (vc: a new controller) "
                + "or callback loadView (vc: a new controller)"
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

    @Test func sizeChangeWithOneLayoutPassAndMemoryWarningRootFirst() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.push("Detail", over: "Root")
        t.callback(.viewWillTransition, "Root")
        t.callback(.viewWillTransition, "Detail")
        t.callback(.viewWillLayoutSubviews, "Detail")
        t.callback(.viewDidLayoutSubviews, "Detail")
        t.callback(.applicationDidReceiveMemoryWarning)
        t.callback(.didReceiveMemoryWarning, "Root")
        t.callback(.didReceiveMemoryWarning, "Detail")
        #expect(firstViolation(t.events) == nil)

        var topFirst = TraceBuilder()
        topFirst.connectToForeground()
        topFirst.push("Detail", over: "Root")
        topFirst.callback(.applicationDidReceiveMemoryWarning)
        topFirst.callback(.didReceiveMemoryWarning, "Detail")
        #expect(firstViolation(topFirst.events)?.expected == "callback didReceiveMemoryWarning (vc Root)")
    }

    @Test func unknownCallbackIsRejected() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.add(TraceEvent(kind: .callback, scene: "A", name: "viewIsAppearing", viewController: "Root"))
        #expect(firstViolation(t.events)?.got == "callback viewIsAppearing (vc Root)")
    }

    // MARK: The key property: order matters

    @Test func swappingAnyTwoDifferentCallbacksIsRejected() {
        let life = fullLife()
        let callbacks = life.indices.filter { life[$0].kind == .callback }
        var pairs = 0
        for (n, i) in callbacks.enumerated() {
            for j in callbacks[(n + 1)...] {
                let a = life[i]
                let b = life[j]
                guard a.name != b.name || a.viewController != b.viewController else { continue }
                var swapped = life
                // Swap the payloads, keeping each position's seq and time.
                swapped[i] = b
                swapped[i].seq = a.seq
                swapped[i].time = a.time
                swapped[j] = a
                swapped[j].seq = b.seq
                swapped[j].time = b.time
                pairs += 1
                let violation = firstViolation(swapped)
                #expect(
                    violation != nil,
                    "swap of seq \(a.seq) \(a.name ?? "") \(a.viewController ?? "") and seq \(b.seq) \(b.name ?? "") \(b.viewController ?? "") accepted"
                )
            }
        }
        #expect(pairs > 1_000)
    }

    @Test func callbackInsertedAfterDisconnectIsRejected() {
        let life = fullLife()
        guard let disconnect = life.firstIndex(where: { $0.name == CallbackName.sceneDidDisconnect.rawValue }),
            let exit = life.lastIndex(where: { $0.processEvent == .exited })
        else {
            Issue.record("the full life has no disconnect")
            return
        }
        for position in (disconnect + 1)...exit {
            for name in CallbackName.allCases {
                for vc in name.isViewControllerCallback ? ["Root", "Detail"] : [nil] {
                    var trace = life
                    trace.insert(
                        TraceEvent(kind: .callback, scene: "A", name: name.rawValue, viewController: vc),
                        at: position
                    )
                    for index in trace.indices {
                        trace[index].seq = index + 1
                        trace[index].time = Double(index) * 0.001
                    }
                    #expect(firstViolation(trace) != nil, "\(name) \(vc ?? "") inserted at \(position) accepted")
                }
            }
        }
    }

    @Test func afterDisconnectOnlyTheExitMayCome() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.callback(.sceneDidDisconnect)
        t.state(.background, .unattached)
        t.callback(.deinit, "Root")
        t.notification("late", .null)
        let violation = firstViolation(t.events)
        #expect(violation?.expected == "process exited (reason disconnected)")
    }

    // MARK: seq order

    @Test func seqMustStartAtOneAndStrictlyIncrease() {
        let life = fullLife()

        var startsAtTwo = life
        for index in startsAtTwo.indices { startsAtTwo[index].seq += 1 }
        #expect(firstViolation(startsAtTwo)?.expected == "seq 1 (the first event)")

        var repeated = life
        repeated[10].seq = repeated[9].seq
        let violation = firstViolation(repeated)
        #expect(violation?.seq == 10)
        #expect(violation?.expected == "seq greater than 10")

        var decreasing = life
        decreasing[20].seq = 5
        #expect(firstViolation(decreasing)?.seq == 5)

        // Gaps are allowed.
        var gaps = life
        for index in gaps.indices { gaps[index].seq = index * 3 + 1 }
        #expect(firstViolation(gaps) == nil)
    }

    @Test func timeMustNotGoBackwards() {
        var backwards = fullLife()
        backwards[12].time = backwards[11].time - 0.0005
        let violation = firstViolation(backwards)
        #expect(violation?.seq == 13)
        #expect(violation?.expected.hasPrefix("t of at least") == true)

        // Equal times are fine: two events may share a clock reading.
        var equal = fullLife()
        equal[12].time = equal[11].time
        #expect(firstViolation(equal) == nil)
    }

    @Test func anExitCarriesEitherAStatusOrASignal() {
        for (status, signal) in [(nil, nil), (Int32(0), "KILL")] as [(Int32?, String?)] {
            var t = TraceBuilder()
            t.connectToForeground()
            t.exited(.killed, status: status, signal: signal)
            #expect(firstViolation(t.events)?.expected == "process exited with either a status or a signal")
        }
    }

    /// A hand-made trace may name a scene no host would (a path, markup) or give a worker a
    /// pid no process has: both are violations, not a valid trace.
    @Test func aSceneNoHostWouldNameAndANonPositivePidAreViolations() {
        let badScene = fullLife(scene: "../../etc/<script>")
        #expect(firstViolation(badScene)?.expected.contains("scene identifier") == true)
        var badPid = fullLife()
        badPid[0].pid = -1
        #expect(firstViolation(badPid)?.expected == "a positive `pid` on a process event")
        #expect(firstViolation(fullLife()) == nil)
    }

    @Test func verifierStateDoesNotChangeOnViolation() {
        var verifier = TraceVerifier()
        let life = fullLife()
        for event in life.prefix(14) { #expect(verifier.check(event) == nil) }
        let before = verifier.checker(forScene: "A")
        var wrong = life[40]
        wrong.seq = 15
        #expect(verifier.check(wrong) != nil)
        #expect(verifier.checker(forScene: "A") == before)
        #expect(verifier.eventCount == 14)
        // The correct event still goes through with the seq the refused one had.
        #expect(verifier.check(life[14]) == nil)
    }

    @Test func checkerStateDoesNotChangeOnViolation() {
        var checker = SceneTraceChecker()
        let life = fullLife()
        for event in life.prefix(20) { #expect(checker.check(event) == nil) }
        let before = checker
        for event in life[21...] where event.kind != .process {
            if checker.check(event) != nil { #expect(checker == before) }
            checker = before
        }
    }

    @Test func sceneEventsNeedAScene() {
        var t = TraceBuilder()
        t.add(TraceEvent(kind: .host, name: "started"))
        t.add(TraceEvent(kind: .process, processEvent: .spawned, pid: 1))
        #expect(firstViolation(t.events)?.seq == 2)
    }

    // MARK: Several scenes, discard

    @Test func twoInterleavedScenesAreValid() {
        let a = fullLife(scene: "A")
        var bBuilder = TraceBuilder(scene: "B")
        bBuilder.launch()
        bBuilder.toBackground(from: .unattached)
        bBuilder.firstAppearance(from: .background)
        bBuilder.push("Settings", over: "Root")
        bBuilder.toBackground()
        bBuilder.callback(.sceneDidDisconnect)
        bBuilder.state(.background, .unattached)
        bBuilder.callback(.applicationWillTerminate)
        bBuilder.exited(.terminated, status: 0)
        let b = bBuilder.events

        // Deterministic interleavings: alternate runs of k events of each scene.
        for k in 1...5 {
            var merged: [TraceEvent] = []
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                merged += a[i..<min(i + k, a.count)]
                i = min(i + k, a.count)
                merged += b[j..<min(j + k + 1, b.count)]
                j = min(j + k + 1, b.count)
            }
            for index in merged.indices {
                merged[index].seq = index + 1
                merged[index].time = Double(index) * 0.001
            }
            let violation = firstViolation(merged)
            #expect(violation == nil, "k=\(k): \(violation?.description ?? "")")
        }

        // The checkers stay separate: B's state event cannot answer A's callback.
        var cross = TraceBuilder()
        cross.connectToForeground()
        cross.scene = "B"
        cross.connectToForeground()
        cross.scene = "A"
        cross.callback(.sceneWillResignActive)
        cross.scene = "B"
        cross.state(.foregroundActive, .foregroundInactive)
        #expect(firstViolation(cross.events)?.scene == "B")
    }

    @Test func eventAfterDiscardIsRejected() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.toBackground()
        t.disconnect()
        t.callback(.didDiscardSceneSessions)
        // Refusals are recorded as error events: still accepted.
        t.add(TraceEvent(kind: .error, scene: "A", op: "activate", code: 1, message: "discarded"))
        #expect(firstViolation(t.events) == nil)
        var late = t
        late.callback(.sceneDidBecomeActive)
        let violation = firstViolation(late.events)
        #expect(violation?.seq == late.events.count)
        #expect(violation?.expected == "no further event but process spawned (the session was discarded)")
        // A new session under the same name: a new launch, with configurationForConnecting.
        t.connectToForeground(newSession: true)
        #expect(firstViolation(t.events) == nil)
    }

    @Test func discardNeedsNoWorkerAndUnattached() {
        var live = TraceBuilder()
        live.connectToForeground()
        // With a live worker it is the app delegate's callback (sessions discarded elsewhere),
        // not a discard of this scene: the scene carries on.
        live.callback(.didDiscardSceneSessions)
        live.callback(.sceneWillResignActive)
        live.state(.foregroundActive, .foregroundInactive)
        #expect(firstViolation(live.events) == nil)

        var owed = TraceBuilder()
        owed.connectToForeground()
        owed.exited(.killed, signal: "KILL")
        owed.callback(.didDiscardSceneSessions)
        #expect(firstViolation(owed.events)?.expected == "state foregroundActive -> unattached")

        // A session discarded while the host was not running: reported for an unseen scene.
        var unseen = TraceBuilder()
        unseen.callback(.didDiscardSceneSessions)
        #expect(firstViolation(unseen.events) == nil)
    }

    // MARK: Messages

    @Test func violationDescriptionNamesExpectedAndGot() {
        var t = TraceBuilder()
        t.launch()
        t.callback(.viewWillAppear, "Root")
        t.callback(.viewIsAppearing, "Root")
        t.callback(.traitCollectionDidChange, "Root")
        t.callback(.viewWillLayoutSubviews, "Root")
        t.callback(.viewDidLayoutSubviews, "Root")
        t.callback(.sceneWillEnterForeground)
        t.state(.unattached, .foregroundInactive)
        t.callback(.viewDidAppear, "Root")
        let violation = firstViolation(t.events)
        #expect(
            violation?.description
                == "seq \(t.events.count), scene A: expected callback sceneDidBecomeActive, got callback viewDidAppear (vc Root)"
        )
        #expect(
            LifecycleViolation(seq: 3, scene: nil, expected: "seq 1", got: "seq 3").description
                == "seq 3: expected seq 1, got seq 3"
        )
    }

    @Test func idleViolationListsWhatMayStart() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.callback(.viewDidAppear, "Root")
        let expected = firstViolation(t.events)?.expected ?? ""
        #expect(expected.contains("callback sceneWillResignActive"))
        #expect(expected.contains("callback loadView (vc: a new controller)"))
        #expect(expected.contains("callback viewWillTransition (vc Root)"))
        #expect(expected.contains("callback beginBackgroundTask"))
    }
}
