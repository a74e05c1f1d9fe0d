import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// Issue 16: which worker a scene runs is visible and stable. A reconnect without a worker
/// of its own starts the scene's last one (as a restart does); `spawned` events and `ps`
/// show the argv; `serve` and `stress` take `--worker`; a client's relative `--worker` is
/// resolved where the client runs. The trace also records what a scene saved for
/// restoration and tells a silent kill from a test's.
@Suite struct WorkerArgvTests {
    private func spawnedArgvs(_ host: SceneHost, _ scene: String) -> [[String]?] {
        host.trace.history.filter { $0.scene == scene && $0.processEvent == .spawned }.map(\.argv)
    }

    @Test func aReconnectWithoutAWorkerRunsTheScenesLastOne() async throws {
        let custom = [TestWorker.customWorker]
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(worker: custom) }
            #expect(await scene.status().workerArgv == custom)
            try await scene.kill()
            #expect(await scene.status().workerArgv == custom, "the last worker, while none runs")
            try await within(TestLimit.launch, "reconnect") { try await scene.connect() }
            // Another scene, never given a worker, runs the host's.
            let other = try host.scene("B")
            try await within(TestLimit.launch, "connect B") { try await other.connect() }
            return host
        }
        #expect(spawnedArgvs(host, "A") == [custom, custom])
        #expect(spawnedArgvs(host, "B") == [[TestWorker.hostctl, "worker"]])
        #expect(host.verifyTrace() == nil)
    }

    /// A worker that never says ready is not the scene's: neither `ps` nor a later host
    /// (which reads the stored session) starts it for a connect without a worker of its own.
    /// One that connects is stored at once, before any background entry saves the session.
    @Test func onlyAWorkerThatConnectedIsStoredAndShown() async throws {
        let state = makeTemporaryDirectory()
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let scene = try host.scene("A")
            await #expect(throws: HostError.self) { try await scene.connect(worker: ["/bin/true"]) }
            #expect(await scene.status().workerArgv == nil, "a connect would start the host's worker")
            #expect(host.sessions.session("A")?.worker == nil)
        }
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let scene = try host.scene("A")
            #expect(await scene.status().workerArgv == nil)
            try await within(TestLimit.launch, "connect") { try await scene.connect() }
            #expect(spawnedArgvs(host, "A") == [[TestWorker.hostctl, "worker"]])
            try await within(TestLimit.launch, "kill") { try await scene.kill() }
            let custom = [TestWorker.customWorker]
            try await within(TestLimit.launch, "connect") { try await scene.connect(worker: custom) }
            #expect(host.sessions.session("A")?.worker == custom, "stored as soon as it connected")
        }
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let scene = try host.scene("A")
            #expect(await scene.status().workerArgv == [TestWorker.customWorker])
        }
    }

    @Test func theTraceRecordsWhatASceneSavedAndASilentKill() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let a = try host.scene("A")
            let b = try host.scene("B")
            try await within(TestLimit.launch, "setup") {
                try await a.connect()
                try await a.push("Detail")
                try await a.background()
                try await a.waitFor(process: .suspended, timeout: TestLimit.event)
                try await b.connect()
                try await b.kill()
            }
            return host
        }
        let saved = host.trace.history.filter {
            $0.scene == "A" && $0.name == CallbackName.stateRestorationActivity.rawValue
        }
        #expect(saved.count == 1)
        let restoration = try #require(saved.first?.restoration, "no restoration on \(saved)")
        #expect(host.sessions.session("A")?.restoration == restoration)
        guard case .object(let object) = restoration else {
            Issue.record("restoration \(restoration)")
            return
        }
        #expect(object["stack"] == ["Root", "Detail"])

        let exits = host.trace.history.filter { $0.processEvent == .exited }
        // A, suspended at the quit, was killed silently; B's kill was a test's.
        let exitOfA = try #require(exits.first { $0.scene == "A" })
        let exitOfB = try #require(exits.first { $0.scene == "B" })
        #expect(exitOfA.reason == .killed && exitOfA.silent == true, "\(exitOfA)")
        #expect(exitOfB.reason == .killed && exitOfB.silent == nil, "\(exitOfB)")
        #expect(host.verifyTrace() == nil)

        // Both fields survive the JSON Lines round trip, as does the spawned argv.
        for event in host.trace.history where event.silent != nil || event.argv != nil || event.restoration != nil {
            var line: [UInt8] = []
            event.appendJSONLine(to: &line)
            var decoded = try TraceEvent(jsonLine: line)
            decoded.time = event.time  // written to the microsecond
            #expect(decoded == event)
        }
    }

    @Test func serveTakesAWorkerAndPsShowsIt() async throws {
        let server = try await TestServer.start(extra: ["--worker", TestWorker.customWorker])
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        let row = try #require(try await server.scenes()["A"])
        #expect(row.worker == [TestWorker.customWorker])
        let table = try await server.run("ps")
        #expect(
            table.stdout.split(separator: "\n").first?.hasSuffix("UPTIME  PRESENTED  TAB  LIFECYCLE  WORKER") == true,
            "\(table.stdout)"
        )
        #expect(table.stdout.contains(TestWorker.customWorker), "\(table.stdout)")
        try await server.quit()
    }

    @Test func aRelativeWorkerPathIsTheClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let directory = String(TestWorker.customWorker.dropLast("/custom-worker-fixture".count))
        // The client runs in the build directory; the host does not (nor does its PATH help).
        let client = try Spawned([
            "/bin/sh", "-c", #"cd "$0" && exec "$1" connect A --worker ./custom-worker-fixture --socket "$2""#,
            directory, TestWorker.hostctl, server.socket,
        ])
        #expect(try await client.status() == 0, "\(client.stderr)")
        #expect(try await server.scenes()["A"]?.worker == [directory + "/custom-worker-fixture"])
        try await server.quit()
    }

    @Test func stressTakesAWorker() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/stress.jsonl"
        let outcome = try await runHostctl(
            [
                "stress", "--scenes", "2", "--ops", "20", "--trace", trace,
                "--worker", TestWorker.hostctl, "--worker-arg", "worker", "--worker-arg", "--ignore-sigterm",
            ] + StressOptions.flagsInTests
        )
        #expect(outcome.exit == .exited(status: 0), "\(outcome.stderr)")
        let spawned = HardeningProbe.readLines(trace).compactMap { try? TraceEvent(jsonLine: Array($0.utf8)) }
            .filter { $0.processEvent == .spawned }
        #expect(!spawned.isEmpty)
        #expect(spawned.allSatisfy { $0.argv == [TestWorker.hostctl, "worker", "--ignore-sigterm"] })
    }
}
