import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// Exact callback orders with real worker processes.
@Suite struct EndToEndTests {
    /// A worker that answers its launch with an error (its app's factory named the root
    /// controller after its class) is killed as a violation: the scene is not left
    /// launching, and the next connect works.
    @Test func aLaunchTheWorkerRefusesLeavesNothingLaunching() async throws {
        var configuration = TestWorker.configuration()
        configuration.worker = [TestWorker.customWorker]
        // The refused launch is recorded as the worker's protocol error, which the helper's check refuses.
        let host = try await withSceneHost(configuration: configuration, verifiesTrace: false) { host in
            let scene = try host.scene("A")
            do {
                try await scene.connect(root: "Misnamed")
                Issue.record("a launch the worker refused succeeded")
            } catch HostError.workerError(_, let op, let error) {
                #expect(op == "connect" && error.message.contains("MisnamedViewController"), "\(op) \(error)")
            }
            let status = await scene.status()
            #expect(status.activation == .unattached && !status.process.isAlive, "\(status)")
            let exited = host.trace.history.last { $0.scene == "A" && $0.processEvent == .exited }
            #expect(exited?.reason == .protocolViolation)
            try await scene.connect(root: "Editor")
            #expect(await scene.status().activation == .foregroundActive)
            return host
        }
        #expect(host.verifyTrace() == nil)
    }

    /// A worker that dies in a step of a request other than the request's own names both:
    /// the TERM a suspended worker got is delivered when `foreground` resumes it to deliver
    /// its queued notification.
    @Test func aDeathInARequestsOtherStepNamesTheRequestAndTheStep() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .zero
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            try await scene.notify("sync", value: .int(1))
            try await scene.kill(signal: SIGTERM)
            do {
                try await scene.foreground()
                Issue.record("the foreground of a worker killed while suspended succeeded")
            } catch HostError.workerExited(_, let op, let reason, _) {
                #expect(op == "foreground (its notify step)" && reason == .killed, "\(op) \(reason)")
            }
        }
    }

    /// A resize to the size the window has is no size change (LIFECYCLE.md §3): the worker
    /// refuses it, nothing runs, the worker lives on, and a pop after it lays nothing out.
    @Test func aResizeToTheWindowsSizeChangesNothing() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            let pid = await scene.status().pid
            var mark = host.lastSeq
            do {
                try await scene.resize(width: 390, height: 844)
                Issue.record("a resize to the window's size was carried out")
            } catch HostError.workerError(_, _, let error) {
                #expect(error.code == .invalidParameters && error.message.contains("already has that size"), "\(error)")
            }
            #expect(host.compactEvents(of: "A", after: mark) == ["error resize"])
            #expect(await scene.status().pid == pid)
            // Root's layout is clean: the pop lays nothing out.
            mark = host.lastSeq
            try await scene.pop()
            #expect(!host.compactEvents(of: "A", after: mark).contains("cb viewWillLayoutSubviews Root"))
        }
    }

    @Test func connectRunsTheLaunchSequenceInOrder() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            try await host.scene("A").connect()
            #expect(
                host.compactEvents(of: "A") == [
                    "process spawned",
                    "cb willFinishLaunching", "cb didFinishLaunching", "cb configurationForConnecting",
                    "cb willConnectTo",
                    "cb loadView Root", "cb viewDidLoad Root",
                    "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root", "cb sceneWillEnterForeground",
                    "state unattached>foregroundInactive",
                    "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                    "cb viewDidAppear Root",
                ]
            )
        }
    }

    @Test func interruptionBackgroundForegroundAndDisconnect() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.deactivate()
            try await scene.activate()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            mark = host.lastSeq
            try await scene.background()
            // The suspension follows 50 ms after the transition, before or after this test reads
            // the trace: wait for it, so that the list is the same whenever it came.
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidEnterBackground", "state foregroundInactive>background",
                    "cb stateRestorationActivity", "process suspended",
                ]
            )
            #expect(host.sessions.session("A")?.restoration?["stack"] == .array([.string("Root")]))
            mark = host.lastSeq
            try await scene.foreground()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "process resumed",
                    "cb sceneWillEnterForeground", "state background>foregroundInactive",
                    "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            try await scene.push("Detail")
            mark = host.lastSeq
            try await scene.disconnect()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidEnterBackground", "state foregroundInactive>background",
                    "cb stateRestorationActivity",
                    "cb sceneDidDisconnect", "state background>unattached",
                    "cb deinit Detail", "cb deinit Root",
                    "process exited disconnected",
                ]
            )
        }
    }

    @Test func pushPopAndSizeChange() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.push("Detail")
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb loadView Detail", "cb viewDidLoad Detail", "cb viewWillDisappear Root",
                    "cb viewWillAppear Detail", "cb viewIsAppearing Detail", "cb viewWillLayoutSubviews Detail",
                    "cb viewDidLayoutSubviews Detail", "cb viewDidDisappear Root", "cb viewDidAppear Detail",
                ]
            )
            mark = host.lastSeq
            try await scene.resize(width: 800, height: 600)
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb viewWillTransition Root", "cb viewWillTransition Detail",
                    "cb willTransition Root", "cb willTransition Detail",
                    "cb traitCollectionDidChange Root", "cb traitCollectionDidChange Detail", "cb windowSceneDidUpdate",
                    "cb viewWillLayoutSubviews Detail", "cb viewDidLayoutSubviews Detail",
                ]
            )
            mark = host.lastSeq
            try await scene.pop()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    // Root is dirty (the size changed while Detail covered it): it lays out (§3).
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root", "cb viewDidDisappear Detail",
                    "cb viewDidAppear Root",
                    "cb deinit Detail",
                ]
            )
            mark = host.lastSeq
            try await scene.memoryWarning()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationDidReceiveMemoryWarning", "cb didReceiveMemoryWarning Root",
                ]
            )
        }
    }

    @Test func illegalRequestsAreRefusedWithoutChangingState() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)  // nothing but the refused requests may act
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            await #expect(throws: HostError.self) { try await scene.activate() }
            try await scene.connect(background: true)
            let before = await scene.status()
            await #expect(throws: HostError.self) { try await scene.push("Detail") }
            await #expect(throws: HostError.self) { try await scene.pop() }
            await #expect(throws: HostError.self) { try await scene.deactivate() }
            #expect(await scene.status() == before)
            #expect(throws: HostError.self) { try host.scene("../escape") }
        }
    }

    @Test func aRefusalLeavesThePendingSuspensionArmed() async throws {
        var configuration = TestWorker.configuration()
        // Long enough for the refusals below to come first even on a loaded machine (a full
        // parallel suite on two cores has been seen to take over 2 s for them).
        configuration.suspendDelay = .seconds(6)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            // The delay starts after this callback. Not the history's last event: on a starved
            // machine the suspension itself has been seen to come before the test read it.
            // Outside the macro: see "Closures in macro arguments" in TestSupport.swift.
            let lastBackgrounding = host.trace.history.last { $0.scene == "A" && $0.name == "sceneDidEnterBackground" }
            let backgrounded = try #require(lastBackgrounding)
            let before = await scene.status()
            // Each is illegal in a running background scene, and none may touch its timer.
            let illegal: [SceneOperation] = [
                .pop, .activate, .deactivate, .background, .connect(background: false, root: "Root", worker: nil),
                .endBackgroundTask, .resize(width: 1, height: 1),
            ]
            for op in illegal {
                await #expect(throws: HostError.self, "\(op)") { try await scene.perform(op) }
            }
            let refusals = host.trace.history.filter { $0.scene == "A" && $0.kind == .error }
            #expect(refusals.count == illegal.count)
            #expect(refusals.allSatisfy { $0.code == ProtocolError.Code.illegalTransition.rawValue })
            let after = await scene.status()
            let suspended: TraceEvent
            do {
                suspended = try await host.trace.firstEvent(fromSeq: backgrounded.seq + 1, "the suspension") {
                    $0.scene == "A" && $0.kind == .process
                }
            } catch {
                let tail = host.trace.history.filter { $0.scene == "A" }.suffix(12).map {
                    "#\($0.seq) \($0.kind) \($0.name ?? $0.processEvent.map { "\($0)" } ?? "")"
                }
                Issue.record("no suspension: \(await scene.status()), last events: \(tail)")
                throw error
            }
            #expect(suspended.processEvent == .suspended)
            // Not early, and not cancelled by a refusal (it came at all).
            #expect(suspended.time - backgrounded.time >= 6)
            // On a loaded machine the refusals can take longer than the delay: only a run in which
            // all of them came while the suspension was pending says something about the status.
            if refusals.allSatisfy({ $0.seq < suspended.seq }) && after.process == .running {
                #expect(after == before)
            }
        }
    }

    /// The shell keeps a timer's loop timer when the machine cancels it, and reuses it when the
    /// machine arms the timer again later: that loop timer then fires before the new deadline,
    /// and must wait again instead of firing the machine's timer early.
    @Test func aTimerArmedAgainLaterFiresAtItsOwnDeadline() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(3)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()  // the suspension timer: 3 s from here
            try await scene.foreground()  // cancelled
            // 1.5 s pass on the host's own clock: a wait that times out.
            await #expect(throws: HostError.self) { try await scene.waitFor(.unattached, timeout: .milliseconds(1500)) }
            try await scene.background()  // armed again: 3 s from here, after the first loop timer
            let backgrounded = try #require(
                host.trace.history.last { $0.scene == "A" && $0.name == "sceneDidEnterBackground" }
            )
            let suspended = try await host.trace.firstEvent(fromSeq: backgrounded.seq + 1, "the suspension") {
                $0.scene == "A" && $0.kind == .process
            }
            #expect(suspended.processEvent == .suspended)
            #expect(suspended.time - backgrounded.time >= 3)
        }
    }

    @Test func aRefusalLeavesTheBackgroundTaskDeadlineArmed() async throws {
        var configuration = TestWorker.configuration()
        // Launched into the background, the task begins there: its limit races no transition.
        configuration.suspendDelay = .seconds(600)
        // The refusals come first (the expiration 2.4 s after the task began); the kill comes
        // the lead after the expiration handler's request came back.
        configuration.backgroundTaskLimit = .seconds(3)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect(background: true)
            try await scene.beginBackgroundTask()
            for op: SceneOperation in [.beginBackgroundTask, .activate, .pop, .background] {
                await #expect(throws: HostError.self, "\(op)") { try await scene.perform(op) }
            }
            // The task's expiration, then its deadline's kill, come whatever was refused meanwhile:
            // a refusal that disarmed them would leave the worker running and this wait time out.
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            let events = host.trace.history.filter { $0.scene == "A" }
            let exit = try #require(events.first { $0.processEvent == .exited })
            #expect(exit.reason == .backgroundTaskTimeout)
            let began = try #require(events.first { $0.name == "beginBackgroundTask" })
            let expiration = try #require(events.first { $0.name == "backgroundTaskExpiration" })
            #expect(began.seq < expiration.seq && expiration.seq < exit.seq)
            #expect(events.filter { $0.kind == .error }.count == 4)
        }
    }

    @Test func concurrentCallersNeverInterleaveTransitions() async throws {
        /// One request: its outcome and where the trace stood when it was made and answered.
        struct Call: Sendable {
            var op: SceneOperation
            var issuedAfter: Int
            var answeredBy: Int
            var error: HostError?
            var unexpected: String?
        }
        let (host, calls) = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let calls = await withTaskGroup(of: [Call].self, returning: [Call].self) { group in
                for caller in 0..<16 {
                    group.addTask {
                        var generator = SplitMix64(seed: UInt64(caller))
                        var calls: [Call] = []
                        for index in 0..<20 {
                            // Pushes and notifications name their request, so the trace shows whose they are.
                            let mark = caller * 100 + index
                            let operations: [SceneOperation] = [
                                .deactivate, .activate, .push(viewController: "V\(mark)"), .pop,
                                .resize(width: 10 + mark, height: 20), .memoryWarning, .background, .foreground,
                                .notify(name: "n", value: .int(mark)),
                            ]
                            let op = operations[Int(generator.next() % UInt64(operations.count))]
                            var call = Call(op: op, issuedAfter: host.lastSeq, answeredBy: 0)
                            do {
                                try await scene.perform(op)
                            } catch let error as HostError {
                                call.error = error
                            } catch {
                                call.unexpected = "\(error)"
                            }
                            call.answeredBy = host.lastSeq
                            calls.append(call)
                        }
                        return calls
                    }
                }
                var all: [Call] = []
                for await calls in group { all += calls }
                return all
            }
            return (host, calls)
        }
        #expect(calls.count == 16 * 20)
        // Every error is a refusal: a request carried out against a state another request
        // was still changing would fail in the worker, or kill it.
        for call in calls {
            guard let error = call.error else {
                #expect(call.unexpected == nil, "\(call.op): \(call.unexpected ?? "")")
                continue
            }
            guard case .refused = error else {
                Issue.record("\(call.op) failed with \(error), not a refusal")
                continue
            }
        }
        #expect(calls.contains { $0.error == nil } && calls.contains { $0.error != nil })
        // The model rejects any callback that is not the next one of the atom in progress,
        // so interleaved transitions would show up as a violation.
        #expect(host.verifyTrace() == nil)
        #expect(host.trace.history.filter { $0.kind == .error && $0.op == "protocol" }.isEmpty)

        // No two transitions overlap: each refusal comes between transitions, and each
        // push's transition, from its first callback to the end of its atom, lies between
        // its request and its answer.
        var verifier = TraceVerifier()
        var pushAtoms: [String: ClosedRange<Int>] = [:]
        var openPush: (name: String, start: Int)?
        for event in host.trace.history {
            if event.kind == .error, event.scene == "A", event.code == ProtocolError.Code.illegalTransition.rawValue {
                let checker = try #require(verifier.checker(forScene: "A"))
                #expect(!checker.isInsideAtom, "seq \(event.seq): \(event.op ?? "?") refused during a transition")
            }
            _ = verifier.check(event)
            if event.kind == .callback, event.name == CallbackName.loadView.rawValue, let name = event.viewController {
                openPush = (name, event.seq)
            }
            if let push = openPush, verifier.checker(forScene: "A")?.isInsideAtom == false {
                pushAtoms[push.name] = push.start...event.seq
                openPush = nil
            }
        }
        var acceptedPushes = 0
        for call in calls where call.error == nil {
            guard case .push(let name, _) = call.op else { continue }
            acceptedPushes += 1
            let atom = try #require(pushAtoms[name], "push \(name) was accepted but never ran")
            #expect(
                atom.lowerBound > call.issuedAfter && atom.upperBound <= call.answeredBy,
                "push \(name) ran at seq \(atom), outside its request (after \(call.issuedAfter), by \(call.answeredBy))"
            )
        }
        #expect(pushAtoms.count == acceptedPushes + 1)  // and Root's, in the launch
    }

    @Test func aWorkerWritingGarbageIsKilledAndTheHostCarriesOn() async throws {
        // The garbage is recorded as the worker's protocol error, which the helper's check refuses.
        let host = try await withSceneHost(configuration: TestWorker.configuration(), verifiesTrace: false) { host in
            await #expect(throws: HostError.self) {
                try await host.scene("Bad").connect(worker: [TestWorker.hostctl, "worker", "--garbage"])
            }
            try await host.scene("Good").connect()
            let exit = await (try host.scene("Bad")).status().lastExit
            #expect(exit?.reason == .protocolViolation)
            #expect(await (try host.scene("Good")).status().activation == .foregroundActive)
            return host
        }
        #expect(host.verifyTrace() == nil)
    }

    @Test func aKilledWorkerIsSeenAndItsSessionRestores() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.background()
            try await scene.foreground()
            let pid = try #require(await scene.status().pid)
            #expect(Glibc.kill(pid, SIGKILL) == 0)
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            #expect(await scene.status().lastExit?.reason == .killed)
            let mark = host.lastSeq
            try await scene.connect()
            let reconnect = host.trace.history.filter { $0.scene == "A" && $0.seq > mark && $0.kind == .callback }
            #expect(!reconnect.contains { $0.name == "configurationForConnecting" })
            // What the app saved is given back, and the app rebuilds the stack from it.
            let restoration = reconnect.first { $0.name == "willConnectTo" }?.restoration
            #expect(
                restoration?["stack"] == .array([.string("Root"), .string("Detail")]),
                "\(String(describing: restoration))"
            )
            #expect(reconnect.contains { $0.name == "loadView" && $0.viewController == "Detail" })
            #expect(await scene.status().stack == ["Root", "Detail"])
        }
    }
}

/// A small deterministic generator for tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
