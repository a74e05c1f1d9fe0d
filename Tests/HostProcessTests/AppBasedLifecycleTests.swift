import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The app-based lifecycle with real workers (docs/LIFECYCLE.md §3d): an app without scene
/// support gets only app-delegate callbacks, in UIKit's orders; every trace passes the
/// verifier, and the same trace with one pair swapped does not.
@Suite struct AppBasedLifecycleTests {
    static let app = LaunchParameters(lifecycle: .app)

    /// No suspension gets between the callbacks these tests compare.
    static var unsuspended: HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)
        return configuration
    }

    static let launch = [
        "process spawned",
        "cb willFinishLaunching", "cb didFinishLaunching",
        "cb loadView Root", "cb viewDidLoad Root",
        "cb viewWillAppear Root", "cb viewIsAppearing Root",
        "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root",
        "cb applicationDidBecomeActive", "state unattached>foregroundInactive",
        "state foregroundInactive>foregroundActive",
        "cb viewDidAppear Root",
    ]

    /// An app-based app opened by a URL gets it in its launch options; the trace's
    /// `didFinishLaunching` says which.
    @Test func aURLLaunchShowsItsURLOnDidFinishLaunching() async throws {
        try await withSceneHost(configuration: Self.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: LaunchParameters(url: "notes://3", lifecycle: .app))
            #expect(host.compactEvents(of: "A") == Self.launch)
            let launched = host.trace.history.first { $0.scene == "A" && $0.name == "didFinishLaunching" }
            #expect(launched?.value == .object(["url": .string("notes://3")]))
        }
    }

    @Test func everyTransitionRunsTheAppDelegatesOrder() async throws {
        try await withSceneHost(configuration: Self.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: Self.app)
            #expect(host.compactEvents(of: "A") == Self.launch)
            #expect(await scene.status().lifecycle == .app)

            var mark = host.lastSeq
            try await scene.deactivate()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationWillResignActive", "state foregroundActive>foregroundInactive",
                ]
            )
            mark = host.lastSeq
            try await scene.activate()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            mark = host.lastSeq
            try await scene.background()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb applicationDidEnterBackground", "state foregroundInactive>background",
                    "cb shouldSaveSecureApplicationState",
                ]
            )
            mark = host.lastSeq
            try await scene.foreground()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationWillEnterForeground", "state background>foregroundInactive",
                    "cb applicationDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            mark = host.lastSeq
            try await scene.terminate()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb applicationWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb applicationDidEnterBackground", "state foregroundInactive>background",
                    "cb shouldSaveSecureApplicationState",
                    "cb applicationWillTerminate", "state background>unattached",
                    "process exited terminated",
                ]
            )
            // No scene callback ever ran.
            #expect(!host.compactEvents(of: "A").contains { $0.hasPrefix("cb scene") || $0.contains("willConnectTo") })
        }
    }

    @Test func aSwappedPairOfAnAppBasedTraceIsRejected() async throws {
        let host = try await withSceneHost(configuration: Self.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: Self.app)
            try await scene.background()
            try await scene.foreground()
            return host
        }
        let events = host.trace.history
        #expect(firstViolation(events) == nil)
        let pairs: [(CallbackName, CallbackName)] = [
            (.applicationDidBecomeActive, .viewDidAppear),
            (.applicationDidEnterBackground, .applicationWillResignActive),
            (.applicationWillEnterForeground, .applicationDidBecomeActive),
        ]
        for (first, second) in pairs {
            // The first event named `second` right after an event named `first`, callbacks only.
            let callbacks = events.indices.filter { events[$0].kind == .callback }
            guard
                let position = callbacks.indices.dropLast().first(where: { index in
                    let (a, b) = (events[callbacks[index]], events[callbacks[index + 1]])
                    return Set([a.name, b.name]) == Set([first.rawValue, second.rawValue])
                })
            else {
                Issue.record("no \(first), \(second) pair in the trace")
                continue
            }
            var swapped = events
            swapped.swapAt(callbacks[position], callbacks[position + 1])
            for index in swapped.indices { swapped[index].seq = index + 1 }
            #expect(firstViolation(swapped) != nil, "\(first) and \(second) swapped")
        }
    }

    @Test func aLaunchIntoTheBackgroundAppearsOnTheFirstForegroundTrip() async throws {
        try await withSceneHost(configuration: Self.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(background: true, launch: Self.app)
            #expect(
                host.compactEvents(of: "A") == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching",
                    "cb loadView Root", "cb viewDidLoad Root",
                    "cb applicationDidEnterBackground", "state unattached>background",
                    "cb shouldSaveSecureApplicationState",
                ]
            )
            let mark = host.lastSeq
            try await scene.foreground()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root",
                    "cb applicationWillEnterForeground", "state background>foregroundInactive",
                    "cb applicationDidBecomeActive", "state foregroundInactive>foregroundActive",
                    "cb viewDidAppear Root",
                ]
            )
        }
    }

    @Test func aSuspendedAppBasedWorkerIsKilledWithNoCallback() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: Self.app)
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let mark = host.lastSeq
            try await scene.terminate()
            let after = host.compactEvents(of: "A", after: mark)
            #expect(!after.contains { $0.hasPrefix("cb ") }, "\(after)")
            #expect(after.contains("process exited killed"))
        }
    }

    @Test func theSavedStateComesBackAfterAKillAndScenesOnlyOperationsAreRefused() async throws {
        try await withSceneHost(configuration: Self.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: Self.app)
            try await scene.background()
            // An app without scenes has no scene to disconnect, discard or open a URL in.
            await #expect(throws: HostError.self) { try await scene.disconnect() }
            await #expect(throws: HostError.self) { try await scene.discard() }
            try await scene.kill()
            let mark = host.lastSeq
            try await scene.connect()
            let relaunch = host.trace.history.filter { $0.scene == "A" && $0.seq > mark }
            #expect(
                relaunch.map(\.compact).prefix(4) == [
                    "process spawned", "cb willFinishLaunching", "cb shouldRestoreSecureApplicationState",
                    "cb didFinishLaunching",
                ]
            )
            #expect(relaunch[2].restoration == .object(["backgroundEntries": .int(1)]))
            #expect(await scene.status().lifecycle == .app)
        }
    }
}

/// `connect … "lifecycle"` in scenario files and on the command line (docs/LIFECYCLE.md §3d).
@Suite struct AppBasedScenarioTests {
    @Test func connectTakesALifecycleAndRefusesAnUnknownOne() throws {
        func step(_ json: String) throws -> Scenario.Step {
            guard case .object(let object) = try JSONParser.parse(Array(json.utf8)) else {
                throw ScenarioError("not an object")
            }
            return try Scenario.step(fromJSON: .object(object))
        }
        let parsed = try step(#"{"op":"connect","scene":"A","lifecycle":"app"}"#)
        #expect(parsed == .scene("A", .connect(launch: LaunchParameters(lifecycle: .app))))
        #expect(try Scenario.step(fromJSON: .object(parsed.jsonObject)) == parsed)
        #expect(throws: ScenarioError.self) { try step(#"{"op":"connect","scene":"A","lifecycle":"window"}"#) }
    }

    @Test func hostctlRunsAnAppBasedScenarioWhoseTraceVerifies() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/app.json"
        let trace = directory + "/app.jsonl"
        let steps =
            #"[{"op":"connect","scene":"A","lifecycle":"app"},{"op":"deactivate","scene":"A"},"#
            + #"{"op":"background","scene":"A"},{"op":"foreground","scene":"A"},{"op":"quit"}]"#
        #expect(writeFile(scenario, #"{"config":{"suspendDelayMs":60000},"steps":\#(steps)}"#))
        let run = try await CommandLineTests.run(["run", scenario, "--trace", trace, "--quiet"])
        #expect(run.exit == .exited(status: 0), "\(run.stderr)")
        let verified = try await CommandLineTests.run(["verify", trace])
        #expect(verified.exit == .exited(status: 0), "\(verified.stdout)\(verified.stderr)")
        let names = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }.compactMap(\.name)
        #expect(names.contains("applicationWillEnterForeground") && names.contains("applicationWillTerminate"))
        #expect(!names.contains { $0.hasPrefix("scene") })
    }
}

/// Discarded sessions never reach an app without scenes (docs/LIFECYCLE.md §3d): they wait
/// for a scene-based worker.
@Suite struct AppBasedDiscardTests {
    @Test func aDiscardPassesAnAppBasedWorkerByAndReachesTheNextSceneBasedOne() async throws {
        try await withSceneHost(configuration: AppBasedLifecycleTests.unsuspended) { host in
            let app = try host.scene("A")
            try await app.connect(launch: AppBasedLifecycleTests.app)
            let gone = try host.scene("B")
            try await gone.connect()
            try await gone.disconnect()
            try await gone.discard()
            let next = try host.scene("C")
            try await next.connect()
            #expect(!host.compactEvents(of: "A").contains("cb didDiscardSceneSessions"))
            #expect(host.compactEvents(of: "C").contains("cb didDiscardSceneSessions"))
        }
    }

    /// A discarded session's next one under the same name has had no app to declare a kind:
    /// opened by a URL, it asks for none, so the default worker runs scene-based and gets the
    /// URL in its connection (the relaunch used to ask for the discarded app's lifecycle).
    @Test func aURLOpensANewSceneBasedSessionAfterAnAppBasedOneWasDiscarded() async throws {
        try await withSceneHost(configuration: AppBasedLifecycleTests.unsuspended) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: AppBasedLifecycleTests.app)
            try await scene.kill()
            try await scene.discard()
            let mark = host.lastSeq
            try await scene.openURL("notes://7")
            #expect(await scene.status().lifecycle == .scene)
            let opened = host.trace.history.last { $0.scene == "A" && $0.name == "willConnectTo" }
            #expect(opened?.value == .object(["url": .string("notes://7")]))
            let relaunch = host.compactEvents(of: "A", after: mark)
            #expect(relaunch.contains("cb willConnectTo"), "\(relaunch)")
            #expect(!relaunch.contains("cb applicationDidBecomeActive"), "\(relaunch)")
        }
    }
}

@Suite struct TabsNeedASceneTests {
    /// A tab bar root is a scene's: asked for an app-based app, or after one, it is refused
    /// and nothing changes.
    @Test func aTabBarRootIsRefusedForAnAppWithoutScenes() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            await #expect(throws: HostError.self) {
                try await scene.connect(launch: LaunchParameters(lifecycle: .app, tabs: ["One", "Two"]))
            }
            #expect(await scene.status().process == .none)
            try await scene.connect(launch: LaunchParameters(lifecycle: .app))
            try await scene.kill()
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            await #expect(throws: HostError.self) {
                try await scene.connect(launch: LaunchParameters(tabs: ["One", "Two"]))
            }
            #expect(await scene.status().process == .terminated)
        }
    }
}
