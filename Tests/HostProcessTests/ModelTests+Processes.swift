import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// The model's rules for processes, restoration and app-initiated changes.
extension ModelTests {
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
            // A lifecycle notification the disconnect owes is legal right after it
            // (UIKitAppEndToEndTests); everything else is refused everywhere here.
            for name in CallbackName.allCases where !name.isLifecycleNotification {
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
        #expect(violation?.expected == "seq 11 (the one after 10)")

        var decreasing = life
        decreasing[20].seq = 5
        #expect(firstViolation(decreasing)?.seq == 5)

        // A gap is a lost event (every trace the host writes or streams is whole from its
        // start), so it is refused where it opens, even with every later seq in order.
        var gap = life
        for index in gap.indices where index >= 10 { gap[index].seq += 1 }
        let gapViolation = firstViolation(gap)
        #expect(gapViolation?.seq == 12)
        #expect(gapViolation?.expected == "seq 11 (the one after 10)")
        var spread = life
        for index in spread.indices { spread[index].seq = index * 3 + 1 }
        #expect(firstViolation(spread)?.seq == 4)
        #expect(firstViolation(life) == nil)
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
        t.callback(.viewWillLayoutSubviews, "Root")
        t.callback(.viewDidLayoutSubviews, "Root")
        t.callback(.sceneWillEnterForeground)
        t.state(.unattached, .foregroundInactive)
        t.callback(.viewDidAppear, "Root")
        let violation = firstViolation(t.events)
        #expect(
            violation?.description
                == "seq \(t.events.count), scene A: expected callback openURLContexts or callback continueUserActivity "
                + "or callback performActionFor or callback userNotificationCenterDidReceive or callback "
                + "sceneDidBecomeActive, got callback viewDidAppear (vc Root)"
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
