import Glibc
import HostProcess
import Protocol
import Testing

/// Exact callback orders with real worker processes.
@Suite struct EndToEndTests {
    @Test func connectRunsTheLaunchSequenceInOrder() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        try await host.scene("A").connect()
        #expect(
            host.compactEvents(of: "A") == [
                "process spawned",
                "cb didFinishLaunching", "cb configurationForConnecting", "cb willConnectTo",
                "cb loadView Root", "cb viewDidLoad Root",
                "cb viewWillAppear Root", "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root",
                "cb sceneWillEnterForeground", "state unattached>foregroundInactive",
                "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                "cb viewDidAppear Root",
            ]
        )
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    @Test func interruptionBackgroundForegroundAndDisconnect() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
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
        // The suspension may follow its 50 ms delay before this line runs on a loaded machine.
        #expect(
            host.compactEvents(of: "A", after: mark).filter { $0 != "process suspended" } == [
                "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                "cb sceneDidEnterBackground", "state foregroundInactive>background",
                "cb stateRestorationActivity",
            ]
        )
        #expect(host.sessions.session("A")?.restoration != nil)
        mark = host.lastSeq
        try await scene.foreground()
        #expect(
            host.compactEvents(of: "A", after: mark).filter { !$0.hasPrefix("process") } == [
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
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    @Test func pushPopAndSizeChange() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        var mark = host.lastSeq
        try await scene.push("Detail")
        #expect(
            host.compactEvents(of: "A", after: mark) == [
                "cb loadView Detail", "cb viewDidLoad Detail", "cb viewWillDisappear Root",
                "cb viewWillAppear Detail", "cb viewWillLayoutSubviews Detail", "cb viewDidLayoutSubviews Detail",
                "cb viewDidDisappear Root", "cb viewDidAppear Detail",
            ]
        )
        mark = host.lastSeq
        try await scene.resize(width: 800, height: 600)
        #expect(
            host.compactEvents(of: "A", after: mark) == [
                "cb viewWillTransition Root", "cb viewWillTransition Detail",
                "cb viewWillLayoutSubviews Detail", "cb viewDidLayoutSubviews Detail",
            ]
        )
        mark = host.lastSeq
        try await scene.pop()
        #expect(
            host.compactEvents(of: "A", after: mark) == [
                "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewWillLayoutSubviews Root",
                "cb viewDidLayoutSubviews Root", "cb viewDidDisappear Detail", "cb viewDidAppear Root",
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
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    @Test func illegalRequestsAreRefusedWithoutChangingState() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)  // nothing but the refused requests may act
        let host = try SceneHost(configuration: configuration)
        let scene = try host.scene("A")
        await #expect(throws: HostError.self) { try await scene.activate() }
        try await scene.connect(background: true)
        let before = await scene.status()
        await #expect(throws: HostError.self) { try await scene.push("Detail") }
        await #expect(throws: HostError.self) { try await scene.pop() }
        await #expect(throws: HostError.self) { try await scene.deactivate() }
        #expect(await scene.status() == before)
        #expect(throws: HostError.self) { try host.scene("../escape") }
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    @Test func concurrentCallersNeverInterleaveTransitions() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        let operations: [SceneOperation] = [
            .deactivate, .activate, .push(viewController: "Detail"), .pop, .resize(width: 10, height: 20),
            .memoryWarning, .background, .foreground, .notify(name: "n", value: .int(1)),
        ]
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for caller in 0..<16 {
                group.addTask {
                    var generator = SplitMix64(seed: UInt64(caller))
                    var outcomes = 0
                    for _ in 0..<20 {
                        let op = operations[Int(generator.next() % UInt64(operations.count))]
                        do { try await scene.perform(op) } catch {}
                        outcomes += 1
                    }
                    return outcomes == 20
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 })
        await host.quit()
        // The model rejects any callback that is not the next one of the atom in progress,
        // so interleaved transitions would show up as a violation.
        #expect(host.verifyTrace() == nil)
        #expect(host.trace.history.filter { $0.kind == .error && $0.op == "protocol" }.isEmpty)
    }

    @Test func aWorkerWritingGarbageIsKilledAndTheHostCarriesOn() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        await #expect(throws: HostError.self) {
            try await host.scene("Bad").connect(worker: [TestWorker.hostctl, "worker", "--garbage"])
        }
        try await host.scene("Good").connect()
        let exit = await (try host.scene("Bad")).status().lastExit
        #expect(exit?.reason == .protocolViolation)
        #expect(await (try host.scene("Good")).status().activation == .foregroundActive)
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    @Test func aKilledWorkerIsSeenAndItsSessionRestores() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        try await scene.push("Detail")
        try await scene.background()
        try await scene.foreground()
        let pid = try #require(await scene.status().pid)
        #expect(Glibc.kill(pid, SIGKILL) == 0)
        try await scene.waitFor(process: .none, timeout: .seconds(5))
        #expect(await scene.status().lastExit?.reason == .killed)
        let mark = host.lastSeq
        try await scene.connect()
        let reconnect = host.trace.history.filter { $0.scene == "A" && $0.seq > mark && $0.kind == .callback }
        #expect(!reconnect.contains { $0.name == "configurationForConnecting" })
        #expect(reconnect.first { $0.name == "willConnectTo" }?.restoration != nil)
        await host.quit()
        #expect(host.verifyTrace() == nil)
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
