import Glibc
import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// The testing library as a user's package uses it: real workers, public API only.
@Suite struct SceneHostTestingTests {
    static let hostctl = (try? WorkerExecutable.builtProduct(named: "hostctl")) ?? "hostctl"

    static func configuration(_ worker: [String] = [hostctl, "worker"]) -> HostConfiguration {
        var configuration = HostConfiguration.forTesting(worker: worker)
        configuration.forwardsWorkerStderr = false
        // Safety nets only: under a sanitizer, with the whole suite starting workers on two
        // cores, a healthy worker's launch, transition or exit has passed the defaults (20 s
        // once under ThreadSanitizer, 5 s, 2 s), as HostProcessTests' configuration allows.
        configuration.launchLimit = .seconds(60)
        configuration.transitionLimit = .seconds(30)
        configuration.terminateLimit = .seconds(10)
        return configuration
    }

    struct Boom: Error, Equatable {}

    /// Every worker the host spawned has exited and the host stopped.
    static func expectNoWorkerLeft(_ host: SceneHost) {
        let events = host.trace.history
        let spawned = Set(events.filter { $0.processEvent == .spawned }.compactMap(\.pid))
        let exited = Set(events.filter { $0.processEvent == .exited }.compactMap(\.pid))
        #expect(!spawned.isEmpty)
        #expect(spawned == exited)
        #expect(events.last?.kind == .host && events.last?.name == "stopped")
        for pid in spawned { #expect(kill(pid, 0) != 0 && errno == ESRCH, "pid \(pid) still exists") }
    }

    @Test func theLocatorFindsProductsBuiltBesideTheTestsAndExplainsAMissingOne() throws {
        let hostctl = try WorkerExecutable.builtProduct(named: "hostctl")
        #expect(hostctl.hasSuffix("/hostctl") && access(hostctl, X_OK) == 0)
        let fixture = try WorkerExecutable.builtProduct(named: "custom-worker-fixture")
        #expect(fixture == String(hostctl.dropLast("hostctl".count)) + "custom-worker-fixture")
        let error = try #require(throws: WorkerExecutableNotFound.self) {
            try WorkerExecutable.builtProduct(named: "no-such-worker")
        }
        #expect(error.searched.first == String(hostctl.dropLast("hostctl".count)) + "no-such-worker")
        #expect(error.description.contains("add \"no-such-worker\" to the dependencies of your .testTarget"))
    }

    @Test func aThrowingBodyStillQuitsTheHostAndItsErrorComesThrough() async throws {
        var captured: SceneHost?
        await #expect(throws: Boom.self) {
            try await withSceneHost(configuration: Self.configuration()) { host in
                captured = host
                try await host.scene("A").connect()
                try await host.scene("B").connect(background: true)
                throw Boom()
            }
        }
        let host = try #require(captured)
        Self.expectNoWorkerLeft(host)
    }

    @Test func cancellingTheCallerQuitsTheHostWhileTheBodyStillRuns() async throws {
        let (connected, signal) = AsyncStream<SceneHost>.makeStream()
        let run = Task {
            try await withSceneHost(configuration: Self.configuration()) { host in
                try await host.scene("A").connect()
                signal.yield(host)
                // Not cancellation-aware: only the host's quit ends this wait.
                await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
                    Task.detached {
                        for await event in host.trace.events() where event.name == "stopped" { break }
                        done.resume()
                    }
                }
            }
        }
        var iterator = connected.makeAsyncIterator()
        let host = try #require(await iterator.next())
        run.cancel()
        _ = await run.result
        Self.expectNoWorkerLeft(host)
    }

    @Test func moveToStateTakesTheLegalPathBetweenEveryState() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            let route: [(ActivationState, [SceneOperation])] = [
                (.foregroundInactive, [.connect(background: false, root: "Root", worker: nil), .deactivate]),
                (.background, [.background]),
                (.foregroundActive, [.foreground]),
                (.foregroundInactive, [.deactivate]),
                (.foregroundActive, [.activate]),
                (.unattached, [.disconnect]),
                (.background, [.connect(background: true, root: "Root", worker: nil)]),
                (.foregroundInactive, [.foreground, .deactivate]),
                (.unattached, [.disconnect]),
                (.foregroundActive, [.connect(background: false, root: "Root", worker: nil)]),
                (.foregroundActive, []),
            ]
            for (state, operations) in route {
                let performed = try await scene.move(to: state)
                #expect(performed == operations, "to \(state)")
                let status = await scene.status()
                #expect(status.activation == state, "to \(state): \(status), after \(performed)")
            }
        }
    }

    @Test func callbacksAreCompactAndAMismatchPrintsADiff() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try host.expectCallbacks(
                of: "A",
                [
                    "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                    "Root.loadView",
                    "Root.viewDidLoad", "Root.viewWillAppear", "Root.viewIsAppearing",
                    "Root.viewWillLayoutSubviews", "Root.viewDidLayoutSubviews",
                    "sceneWillEnterForeground", "sceneDidBecomeActive",
                    "Root.viewDidAppear",
                ]
            )
            let push = try await host.callbacks(of: "A") { try await scene.push("Detail") }
            let expected = [
                "Detail.loadView", "Detail.viewDidLoad", "Root.viewWillDisappear", "Detail.viewWillAppear",
                "Detail.viewIsAppearing", "Detail.viewWillLayoutSubviews", "Detail.viewDidLayoutSubviews",
                "Root.viewDidDisappear",
                "Detail.viewDidAppear",
            ]
            #expect(push == expected)
            var wrong = expected
            wrong.swapAt(2, 3)
            wrong[0] = "Detail.init"
            let line = #line + 1  // inside a macro's closure, #line is the macro's
            let mismatch = try #require(throws: CallbackOrderMismatch.self) {
                try expectCallbacks(push, wrong, scene: "A")
            }
            #expect(
                mismatch.description == """
                    callbacks of scene A differ from the expected ones at \(#fileID):\(line) (- expected, + actual):
                    - Detail.init
                    + Detail.loadView
                      Detail.viewDidLoad
                    - Detail.viewWillAppear
                      Root.viewWillDisappear
                    + Detail.viewWillAppear
                      Detail.viewIsAppearing
                      Detail.viewWillLayoutSubviews
                      Detail.viewDidLayoutSubviews
                      Root.viewDidDisappear
                      Detail.viewDidAppear
                    """
            )
        }
    }

    @Test func theDiffHandlesEmptyAndDisjointSides() throws {
        try expectCallbacks([], [])
        let missing = try #require(throws: CallbackOrderMismatch.self) {
            try expectCallbacks([], ["a", "b"], fileID: "Tests/File.swift", line: 7)
        }
        #expect(
            missing.description
                == "callbacks differ from the expected ones at Tests/File.swift:7 (- expected, + actual):\n- a\n- b"
        )
        let extra = try #require(throws: CallbackOrderMismatch.self) {
            try expectCallbacks(["a"], [], scene: "S", fileID: "Tests/File.swift", line: 8)
        }
        #expect(
            extra.description
                == "callbacks of scene S differ from the expected ones at Tests/File.swift:8 (- expected, + actual):\n+ a"
        )
        let swapped = try #require(throws: CallbackOrderMismatch.self) { try expectCallbacks(["b", "a"], ["a", "b"]) }
        #expect(swapped.description.hasSuffix("\n- a\n  b\n+ a"))
    }

    struct Draft: Decodable, Equatable {
        var draft: String
    }

    @Test func recreateKillsReconnectsAndRestoresIntoTheSameState() async throws {
        let worker = try WorkerExecutable.builtProduct(named: "custom-worker-fixture")
        try await withSceneHost(configuration: Self.configuration([worker])) { host in
            let notes = try host.scene("Notes")
            try await notes.connect()
            try await notes.push("Editor")
            #expect(host.restoration(of: "Notes") == nil)
            let before = await notes.status()
            let mark = host.lastEventSeq

            try await notes.recreate()

            #expect(try host.restoration(of: "Notes", as: Draft.self) == Draft(draft: "loaded at Editor"))
            let after = await notes.status()
            #expect(after.activation == .foregroundActive && after.stack == ["Root"])
            #expect(after.pid != before.pid)
            let events = host.trace.history.filter { $0.seq > mark && $0.scene == "Notes" }
            #expect(events.contains { $0.processEvent == .exited && $0.reason == .killed })
            let willConnect = events.last { $0.name == "willConnectTo" }
            #expect(willConnect?.restoration == ["draft": "loaded at Editor"])

            try await notes.move(to: .background)
            try await notes.recreate()
            #expect(await notes.status().activation == .background)
        }
    }

    /// A scene launched with tabs, dark and at a size comes back so, from `recreate` and from
    /// `move(to:)` after a disconnect: not as a plain, light scene of the default size.
    @Test func recreateAndMoveLaunchTheSceneAsItLastLaunched() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(
                root: "Inbox",
                launch: LaunchParameters(width: 1024, height: 768, tabs: ["Inbox", "Settings"], style: .dark)
            )
            try await scene.selectTab(1)
            try await scene.recreate()
            var status = await scene.status()
            #expect(status.tabs?.map(\.first) == ["Inbox", "Settings"], "\(status)")
            #expect(status.activation == .foregroundActive)
            try await scene.move(to: .unattached)
            try await scene.move(to: .foregroundActive)
            status = await scene.status()
            #expect(status.tabs?.map(\.first) == ["Inbox", "Settings"], "\(status)")
            let launch = await scene.lastLaunch()
            #expect(launch.style == .dark && launch.width == 1024 && launch.height == 768, "\(launch)")
        }
    }

    @Test func recreateRefusesASceneWithoutAWorker() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            await #expect(throws: SceneRecreateError.notAttached(scene: "A", state: .unattached, process: .none)) {
                try await scene.recreate()
            }
        }
    }

    /// A worker that answers a push with garbage (Tests/Fixtures/HostileWorkers/garbage.sh).
    static func garbageWorker(_ record: String) -> [String] {
        var path = String(#filePath)
        for _ in 0..<2 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return [path + "/Fixtures/HostileWorkers/garbage.sh", record]
    }

    @Test(arguments: [true, false])
    func aRunWhoseWorkerBrokeTheProtocolFailsVerificationUnlessTurnedOff(_ verifies: Bool) async throws {
        let record = "/tmp/scenehost-testing-\(getpid())-\(verifies).pipes"
        defer { unlink(record) }
        let run = {
            try await withSceneHost(
                configuration: Self.configuration(Self.garbageWorker(record)),
                verifiesTrace: verifies
            ) {
                host in
                let scene = try host.scene("A")
                try await scene.connect()
                await #expect(throws: HostError.self) { try await scene.push("Detail") }
            }
        }
        if verifies {
            let violation = try await #require(throws: LifecycleViolation.self) { try await run() }
            #expect(violation.scene == "A" && violation.got.hasPrefix("protocol violation by pid"))
        } else {
            try await run()
        }
    }

    @Test func theVerifierRejectsAnEventOutOfOrderAndARefusedWorkerEvent() throws {
        let good = [
            TraceEvent(seq: 1, kind: .host, name: "started"),
            TraceEvent(seq: 2, kind: .process, scene: "A", processEvent: .spawned, pid: 10),
            TraceEvent(seq: 3, kind: .callback, scene: "A", name: "willFinishLaunching"),
        ]
        try TraceVerifier.verify(good)
        var outOfOrder = good
        outOfOrder[2].name = "willConnectTo"
        #expect(throws: LifecycleViolation.self) { try TraceVerifier.verify(outOfOrder) }
        let refused = good + [TraceEvent(seq: 4, kind: .error, scene: "A", op: "protocol", message: "model violation")]
        let violation = try #require(throws: LifecycleViolation.self) { try TraceVerifier.verify(refused) }
        #expect(violation.seq == 4 && violation.got == "model violation")
        #expect(good.callbacks(of: "A") == ["willFinishLaunching"])
    }
}
