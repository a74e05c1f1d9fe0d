import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// A scene carries on correctly after a death it did not ask for: the next request is judged
/// against the state the death left, whatever raced with it.
///
/// The limit guards against a hang, not slowness: in the whole suite under TSan, with every
/// test started at once on two cores, these tests take 90–121 s of wall time (about 19 s
/// without a sanitizer), against 1 s alone.
@Suite(.timeLimit(.minutes(5))) struct RecoveryTests {
    @Test func aSceneWhoseFirstWorkerDiedWhileConnectingReconnectsItsSession() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            await #expect(throws: HostError.self) {
                try await scene.connect(worker: [TestWorker.hostctl, "worker", "--crash-in", "viewDidLoad"])
            }
            // The session was stored before the first launch: this is a reconnect, so the worker
            // skips `configurationForConnecting` and the live checker accepts it.
            try await scene.connect()
            let afterCrash = host.trace.history.drop { $0.processEvent != .exited }
            #expect(afterCrash.contains { $0.scene == "A" && $0.name == "willConnectTo" })
            #expect(!afterCrash.contains { $0.scene == "A" && $0.name == "configurationForConnecting" })
            #expect(await scene.status().activation == .foregroundActive)
        }
    }

    @Test func aRequestRightAfterAWatchdogKillSeesTheSceneUnattached() async throws {
        var configuration = TestWorker.configuration()
        configuration.transitionLimit = .milliseconds(100)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            // Several rounds: the failure and the death's bookkeeping used to race.
            for _ in 0..<3 {
                try await scene.connect(worker: [TestWorker.hostctl, "worker", "--hang-in", "sceneWillResignActive"])
                await #expect(throws: HostError.self) { try await scene.deactivate() }
                #expect(await scene.status().activation == .unattached)
                #expect(await scene.status().lastExit?.reason == .watchdog)
            }
            try await scene.connect()
        }
    }

    @Test func aSessionDiscardedWhileNoHostRanIsRefusedNotAViolation() async throws {
        let directory = makeTemporaryDirectory()
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: directory)) { first in
            try await first.scene("B").connect()
        }
        try SessionStore(directory: directory).markDiscarded("B")

        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: directory)) { second in
            await #expect {
                try await second.scene("B").foreground()
            } throws: { error in
                guard case HostError.refused = error else { return false }
                return true
            }
            #expect(!second.trace.history.contains { $0.processEvent == .spawned })
            // The name is free again: a connect opens a new session.
            try await second.scene("B").connect()
            #expect(second.trace.history.contains { $0.scene == "B" && $0.name == "configurationForConnecting" })
        }
    }

    @Test func aLauncherThatDoesNotExecStartsAWorkerThatBehaves() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            // `sh -c` with a command after the worker cannot exec it: the worker's parent is the shell.
            try await scene.connect(worker: ["/bin/sh", "-c", "\"$0\" worker; exit $?", TestWorker.hostctl])
            try await scene.push("Detail")
            try await scene.disconnect()
            #expect(await scene.status().lastExit?.reason == .disconnected)
        }
    }

    @Test func quitIsBoundedByTheTerminateLimitEvenBehindAHungLaunch() async throws {
        var configuration = TestWorker.configuration()
        // Far beyond the terminate limit, and beyond a sanitized worker's launch in the full
        // suite (the 30 s this had was outrun once under ASan: the launch watchdog fired first).
        configuration.launchLimit = .seconds(600)
        configuration.terminateLimit = .milliseconds(200)
        let host = try SceneHost(configuration: configuration)
        let scene = try host.scene("A")
        let connecting = Task {
            try await scene.connect(worker: [TestWorker.hostctl, "worker", "--hang-in", "viewDidLoad"])
        }
        for await event in host.trace.events() where event.scene == "A" && event.name == "loadView" { break }
        await host.quit()
        await #expect(throws: HostError.self) { try await connecting.value }
        // §4: the quit finds the worker still launching and kills it silently, at once.
        let exit = host.trace.history.first { $0.processEvent == .exited }
        #expect(exit?.reason == .killed)
        #expect(exit?.silent == true)
        #expect(host.livingWorkerPids().isEmpty)
        #expect(host.verifyTrace() == nil)
    }

    @Test func aWorkerOfAnotherProtocolVersionIsRefusedWithTheVersionCode() async throws {
        // The refused worker is recorded as a protocol error, which the helper's check refuses.
        let host = try await withSceneHost(configuration: TestWorker.configuration(), verifiesTrace: false) { host in
            let scene = try host.scene("A")
            let future = [
                "/bin/sh", "-c", #"read hello; printf '{"type":"ready","protocol":99,"pid":1}\n'; exec sleep 100"#,
            ]
            await #expect(throws: HostError.self) { try await scene.connect(worker: future) }
            let error = host.trace.history.first { $0.kind == .error && $0.scene == "A" }
            #expect(error?.code == ProtocolError.Code.versionMismatch.rawValue)
            #expect(error?.message?.contains("protocol 99") == true)
            #expect(await scene.status().lastExit?.reason == .protocolViolation)
            // The host carries on: the same scene connects with a worker of its own version.
            try await scene.connect()
            return host
        }
        #expect(host.verifyTrace() == nil)
    }

    @Test func aNotificationFarLargerThanThePipeArrivesWhole() async throws {
        try await withSceneHost(configuration: TestWorker.payloadConfiguration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            // Ten times the pipe's capacity, under the 1 MiB frame limit: the write must not stop
            // halfway and leave the worker a corrupt stream.
            let value = JSONValue.string(String(repeating: "x", count: 640 << 10))
            try await scene.notify("big", value: value)
            try await scene.push("Detail")
            let delivered = host.trace.history.first { $0.scene == "A" && $0.notification == "big" }
            #expect(delivered?.value == value)
            #expect(!host.trace.history.contains { $0.kind == .error })
        }
    }

    @Test func aConnectQueuedBehindQuitsTerminateStartsNoWorker() async throws {
        var configuration = TestWorker.configuration(["--hang-in", "applicationWillTerminate"])
        configuration.terminateLimit = .milliseconds(300)
        let host = try SceneHost(configuration: configuration)
        let scene = try host.scene("A")
        try await scene.connect()
        var events = host.trace.events().makeAsyncIterator()
        let quit = Task { await host.quit() }
        // A's terminate is in flight once its scene has disconnected.
        while let event = await events.next(), event.name != CallbackName.sceneDidDisconnect.rawValue {}
        await #expect(throws: HostError.self) { try await scene.connect() }
        await quit.value
        #expect(host.livingWorkerPids().isEmpty)
        #expect(host.trace.history.filter { $0.processEvent == .spawned }.count == 1)
    }

    @Test func overTheMemoryLimitTheHostRelievesPressureByItself() async throws {
        var configuration = TestWorker.configuration()
        configuration.memoryLimitBytes = 1
        configuration.memoryCheckInterval = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            try await host.scene("A").connect()
            for await event in host.trace.events() where event.processEvent == .exited {
                #expect(event.scene == "A")
                #expect(event.reason == .jetsam)
                break
            }
            #expect(host.trace.history.contains { $0.kind == .host && $0.name == "memoryLimitExceeded" })
        }
    }
}
