import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// `run` and `demo` take SIGTERM, SIGINT and SIGHUP as the end of the scenario: the host
/// quits in order, and the command says so and exits 3.
@Suite struct ScenarioSignalTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRunQuitsItsHostInOrder(signal: Int32) async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/long.json"
        #expect(
            writeFile(
                scenario,
                #"{"steps":[{"op":"connect","scene":"A"},{"op":"sleep","ms":600000},{"op":"push","scene":"A","vc":"D"}]}"#
            )
        )
        let run = try Spawned([TestWorker.hostctl, "run", scenario, "--quiet", "--trace", "/dev/stdout"])
        defer { try? run.child.send(signal: SIGKILL) }
        // A is up: the run is in its ten-minute sleep.
        #expect(try await run.line { $0.contains(#""name":"viewDidAppear""#) } != nil)
        try run.child.send(signal: signal)

        #expect(try await run.exit() == .exited(status: 3), "\(run.stderr)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(
            run.stderr.hasSuffix(
                "hostctl run: interrupted by \(name) at step 2 (sleep): the host quit in order, every scene terminated\n"
            ),
            "\(run.stderr)"
        )
        // The trace is whole: the quit, A's termination, the host's stop; and it verifies.
        let trace = Array(run.stdout.utf8)
        let events = try TraceEvent.events(jsonLines: trace)
        #expect(events.contains { $0.kind == .host && $0.name == "quit" })
        #expect(events.contains { $0.scene == "A" && $0.name == "applicationWillTerminate" })
        #expect(events.last?.kind == .host && events.last?.name == "stopped")
        #expect(!events.contains { $0.viewController == "D" }, "no step after the interrupt ran")
        #expect(TraceVerifier.verify(jsonLines: trace).isValid)
    }
}

extension ScenarioSignalTests {
    /// A `--trace` FIFO without a reader holds the run in `open(2)`, before any host exists: a
    /// signal then ends it at once (exit 3). It used to be taken as a quit in order that
    /// nothing could carry out, so one SIGTERM (`timeout`'s) never ended the run.
    @Test func aSignalBeforeTheHostStartedEndsTheRunAtOnce() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/one.json"
        #expect(writeFile(scenario, #"{"steps":[{"op":"connect","scene":"A"}]}"#))
        let fifo = directory + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try Spawned([TestWorker.hostctl, "run", scenario, "--quiet", "--trace", fifo])
        defer { try? run.child.send(signal: SIGKILL) }
        // No event says that a thread waits for the FIFO's reader: its wait channel does.
        let pid = run.child.pid
        try await lookedAt(
            "run's trace thread waiting for the FIFO's reader",
            within: TestLimit.launch,
            every: .milliseconds(1)
        ) {
            Self.aThread(of: pid, waitsIn: "wait_for_partner")
        }
        try run.child.send(signal: SIGTERM)
        // A run that does not end fails the test (killed), not the suite (hung).
        let limit = killAfter(TestLimit.event, run.child)
        defer { limit.cancel() }
        #expect(try await run.exit() == .exited(status: 3), "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix("hostctl: SIGTERM before the host started: stopping, nothing ran\n"),
            "\(run.stderr)"
        )
    }

    private static func aThread(of pid: pid_t, waitsIn function: String) -> Bool {
        guard let directory = opendir("/proc/\(pid)/task") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Int(name) != nil else { continue }
            if ProcFile.text("/proc/\(pid)/task/\(name)/wchan") == function { return true }
        }
        return false
    }
}

@Suite struct QuitTwiceTests {
    /// A second `quit()` while one is under way returns when that one has ended: whoever
    /// called it finds the host stopped (an interrupted scenario's failing step quits too).
    @Test func aQuitWhileOneIsUnderWayReturnsWhenItHasEnded() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        try await host.scene("A").connect()
        try await host.scene("B").connect()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await host.quit()
                    let last = host.trace.history.last
                    #expect(last?.kind == .host && last?.name == "stopped", "\(String(describing: last))")
                }
            }
        }
        #expect(host.verifyTrace() == nil)
    }
}

@Suite struct QuitEndsWaitsTests {
    /// A `waitFor` with no timeout does not outlive the host: one waiting when the host
    /// quits fails with `shuttingDown`, and so does one asked after.
    @Test func aWaitWithNoTimeoutFailsWhenTheHostQuits() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        try await scene.background()
        let waiting = Task { try await scene.waitFor(.foregroundActive, timeout: nil) }
        await host.quit()
        // The sanitized limit under a sanitizer: in the ASan full suite on two cores a wait asked
        // after the quit once took longer than a plain 20 s to be answered.
        let waitEnded = await finishes(within: TestLimit.event) { _ = await waiting.result }
        #expect(waitEnded, "a wait outlived the host")
        guard waitEnded else { return }
        let waited = await waiting.result
        #expect(throws: HostError.shuttingDown) { try waited.get() }
        let after = Task { try await scene.waitFor(.foregroundActive, timeout: nil) }
        let afterEnded = await finishes(within: TestLimit.event) { _ = await after.result }
        #expect(afterEnded, "a wait asked after the quit hangs")
        guard afterEnded else { return }
        let askedAfter = await after.result
        #expect(throws: HostError.shuttingDown) { try askedAfter.get() }
        #expect(host.verifyTrace() == nil)
    }
}
