import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// What the trace checks can catch: an event the host itself makes that the model refuses
/// is a defect that fails the trace and the tests, while a worker's protocol violation is a
/// valid, recorded outcome.
@Suite struct HostDefectTests {
    /// The recorder sequences and writes, nothing more: an event the model refuses is
    /// recorded as it is, and fails the trace's verification.
    @Test func theRecorderRecordsWhatItIsGivenAndTheVerifierFindsADefect() throws {
        let trace = try TraceRecorder()
        trace.record(TraceEvent(kind: .host, name: "started", pid: 1))
        trace.record(TraceEvent(kind: .process, scene: "A", processEvent: .spawned, pid: 100))
        // Resumed while launching: only the host makes process events.
        let recorded = trace.record(TraceEvent(kind: .process, scene: "A", processEvent: .resumed, pid: 100))
        #expect(recorded.processEvent == .resumed && recorded.seq == 3)
        #expect(trace.history.map(\.kind) == [.host, .process, .process])
        #expect(Self.verify(trace.history)?.seq == 3)
    }

    /// A scene's machine checks the host's own events for its scene before they are
    /// recorded: one the model refuses is recorded all the same, and reported as a defect.
    @Test func aSceneMachineReportsTheHostsOwnRefusedEventAsADefect() {
        var harness = SceneMachineHarness()
        harness.connect()
        let pid = harness.machine.worker?.pid ?? 0
        harness.machine.checksModel = true
        // Suspended with no process the model has seen spawned: it refuses it.
        harness.machine.record(TraceEvent(kind: .process, scene: "A", processEvent: .suspended, pid: pid))
        let actions = harness.machine.output
        guard case .hostDefect(let defect)? = actions.first, case .record(let event)? = actions.last else {
            Issue.record("expected a host defect, then the event recorded as it is: \(actions)")
            return
        }
        #expect(defect.got.contains("suspended"), "\(defect)")
        #expect(event.processEvent == .suspended)
    }

    @Test func aHostDefectFailsTheTestHelperOfARealHost() async throws {
        // The defect below is the test's own: the helper's check would throw it.
        let host = try await withSceneHost(configuration: TestWorker.configuration(), verifiesTrace: false) { host in
            try await host.scene("A").connect()
            #expect(host.verifyTrace() == nil)
            let pid = try #require(await host.scene("A").status().pid)
            // Suspended while in the foreground: the model refuses it.
            host.trace.record(TraceEvent(kind: .process, scene: "A", processEvent: .suspended, pid: pid))
            return host
        }
        let defect: LifecycleViolation? = host.verifyTrace()
        #expect(defect != nil)
        #expect(defect?.expected.contains("background scene before process suspended") == true)
    }

    // MARK: The host's stop comes after every worker's exit

    /// A host that spawned a worker for A and stopped, with the worker's exit before the
    /// stop or not.
    static func shortTrace(exited: Bool) -> [TraceEvent] {
        var events = [
            TraceEvent(kind: .host, name: "started", pid: 1),
            TraceEvent(kind: .process, scene: "A", processEvent: .spawned, pid: 100),
            TraceEvent(kind: .process, scene: "B", processEvent: .spawned, pid: 101),
            TraceEvent(kind: .process, scene: "B", processEvent: .exited, pid: 101, reason: .killed, signal: "KILL"),
            TraceEvent(kind: .host, name: "quit"),
        ]
        if exited {
            events.append(
                TraceEvent(kind: .process, scene: "A", processEvent: .exited, pid: 100, reason: .killed, signal: "KILL")
            )
        }
        events.append(TraceEvent(kind: .host, name: "stopped"))
        for index in events.indices { events[index].seq = index + 1 }
        return events
    }

    @Test func aWorkerWithoutExitBeforeTheHostStoppedIsAViolation() {
        #expect(Self.verify(Self.shortTrace(exited: true)) == nil)
        let violation = Self.verify(Self.shortTrace(exited: false))
        #expect(violation?.seq == 6)
        #expect(violation?.scene == "A")
        #expect(
            violation?.description
                == "seq 6, scene A: expected process exited (the worker is launching) before host stopped, got host stopped"
        )
    }

    @Test func hostctlVerifyRejectsAWorkerOutlivingTheHost() async throws {
        let directory = makeTemporaryDirectory()
        for exited in [true, false] {
            let path = directory + "/stopped-\(exited).jsonl"
            var bytes: [UInt8] = []
            for event in Self.shortTrace(exited: exited) { event.appendJSONLine(to: &bytes) }
            #expect(writeFile(path, String(decoding: bytes, as: UTF8.self)))
            let outcome = try await runHostctl(["verify", path])
            if exited {
                #expect(outcome.exit == .exited(status: 0))
                #expect(outcome.stdout == "valid: 7 events\n")
            } else {
                #expect(outcome.exit == .exited(status: 1))
                #expect(outcome.stderr.contains("line 6: seq 6, scene A: expected process exited"))
            }
        }
    }

    /// The first violation of `events`, checked as `hostctl verify` checks a file.
    static func verify(_ events: [TraceEvent]) -> LifecycleViolation? {
        var verifier = TraceVerifier()
        for event in events {
            if let violation = verifier.check(event) { return violation }
        }
        return nil
    }
}

/// What `verify` used to accept of a real trace edited by hand (a reviewer's edits of a
/// `connect`, `kill`, `quit` run): each breaks the model and is now a violation.
@Suite struct EditedTraceTests {
    /// A's connect, kill and the host's quit, as the host recorded them.
    static func killedRun() async throws -> [TraceEvent] {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect and kill") {
                try await scene.connect()
                try await scene.kill()
            }
            return host
        }
        return host.trace.history
    }

    @Test func anExitOfAnotherPidIsAViolation() async throws {
        var events = try await Self.killedRun()
        let exit = try #require(events.firstIndex { $0.processEvent == .exited })
        let spawned = try #require(events.first { $0.processEvent == .spawned }?.pid)
        events[exit].pid = spawned + 1
        let violation = HostDefectTests.verify(events)
        #expect(violation?.seq == events[exit].seq)
        #expect(violation?.expected == "process exited of pid \(spawned), the worker spawned last")
    }

    @Test func anExitWithAnUnknownSignalIsAViolation() async throws {
        var events = try await Self.killedRun()
        let exit = try #require(events.firstIndex { $0.processEvent == .exited })
        #expect(events[exit].signal == "KILL")
        #expect(HostDefectTests.verify(events) == nil)
        for signal in ["BOGUS", "SIGKILL", "9", "65"] {
            events[exit].signal = signal
            let violation = HostDefectTests.verify(events)
            #expect(violation?.seq == events[exit].seq, "\(signal)")
            #expect(violation?.expected.hasPrefix("process exited with a signal named as the host names it") == true)
        }
        events[exit].signal = "34"
        #expect(HostDefectTests.verify(events) == nil, "a real-time signal has no name")
    }

    @Test func anExitWithoutItsStateEventBeforeTheHostStoppedIsAViolation() async throws {
        var events = try await Self.killedRun()
        let exit = try #require(events.firstIndex { $0.processEvent == .exited })
        #expect(events[exit + 1].kind == .state && events[exit + 1].to == .unattached)
        events.remove(at: exit + 1)
        // Renumbered: the state event is missing, not a seq (a gap is a violation of its own).
        for index in events.indices where index > exit { events[index].seq -= 1 }
        let violation = HostDefectTests.verify(events)
        #expect(violation?.scene == "A")
        #expect(violation?.got.hasPrefix("host stopped") == true, "\(String(describing: violation))")
        #expect(violation?.expected.contains("owed since the exit") == true, "\(String(describing: violation))")
    }

    /// The host kills for memory only after it recorded the pressure, and for a background
    /// task's deadline only a process that began one.
    @Test func anExitForMemoryOrABackgroundTaskWithoutItsCauseIsAViolation() async throws {
        var events = try await Self.killedRun()
        let exit = try #require(events.firstIndex { $0.processEvent == .exited })
        events[exit].reason = .jetsam
        var violation = HostDefectTests.verify(events)
        #expect(violation?.seq == events[exit].seq)
        #expect(violation?.expected.hasPrefix("a host event memoryPressure or memoryLimitExceeded") == true)
        var pressure = TraceEvent(kind: .host, name: "memoryPressure")
        pressure.time = events[exit - 1].time
        var relieved = events
        relieved.insert(pressure, at: exit)
        for index in relieved.indices { relieved[index].seq = index + 1 }
        #expect(HostDefectTests.verify(relieved) == nil)

        events[exit].reason = .backgroundTaskTimeout
        violation = HostDefectTests.verify(events)
        #expect(violation?.seq == events[exit].seq)
        #expect(
            violation?.expected == "callback beginBackgroundTask before process exited (reason background-task-timeout)"
        )
    }

    @Test func anEventAfterTheHostStoppedIsAViolation() async throws {
        var events = try await Self.killedRun()
        let last = try #require(events.last)
        #expect(last.kind == .host && last.name == "stopped")
        var spawned = TraceEvent(kind: .process, scene: "B", processEvent: .spawned, pid: 4242)
        spawned.seq = last.seq + 1
        spawned.time = last.time
        events.append(spawned)
        let violation = HostDefectTests.verify(events)
        #expect(violation?.seq == spawned.seq)
        #expect(violation?.expected == "no event after host stopped")
    }
}

extension EditedTraceTests {
    /// A quit host records nothing more of its own: a `memoryPressure` after `stopped` used to
    /// be recorded, which `verify` now refuses.
    @Test func aMemoryPressureAfterTheQuitRecordsNothing() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            try await within(TestLimit.launch, "connect") { try await host.scene("A").connect() }
            return host
        }
        await host.memoryPressure()
        let last = host.trace.history.last
        #expect(last?.kind == .host && last?.name == "stopped", "\(String(describing: last))")
        #expect(host.verifyTrace() == nil)
    }
}
