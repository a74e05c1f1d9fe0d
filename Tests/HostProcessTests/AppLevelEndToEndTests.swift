import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// The app level with real workers (docs/LIFECYCLE.md §3c): launch options and size, taps.
/// Every trace also passes the verifier.
@Suite struct AppLevelEndToEndTests {
    @Test func aLaunchAtASizeLaysOutOnceAtItWithNoTransition() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: LaunchParameters(url: "notes://7", width: 844, height: 390))
            #expect(
                host.compactEvents(of: "A") == [
                    "process spawned",
                    "cb willFinishLaunching", "cb didFinishLaunching", "cb configurationForConnecting",
                    "cb willConnectTo",
                    "cb loadView Root", "cb viewDidLoad Root",
                    "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root",
                    "cb sceneWillEnterForeground", "state unattached>foregroundInactive",
                    "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                    "cb viewDidAppear Root",
                ]
            )
            // A background launch starts with the same two launch callbacks.
            let other = try host.scene("B")
            try await other.connect(background: true)
            #expect(
                Array(host.compactEvents(of: "B").prefix(4)) == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching",
                    "cb configurationForConnecting",
                ]
            )
        }
    }

    @Test func aConnectWithHalfASizeIsRefusedBeforeAnythingRuns() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            await #expect(throws: HostError.self) { try await scene.connect(launch: LaunchParameters(width: 800)) }
            #expect(await scene.status().process == ProcessState.none)
        }
    }

    @Test func aTapReachesTheFrontmostControllerWhileActive() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.tap()
            #expect(host.compactEvents(of: "A", after: mark) == ["cb touchesBegan Root", "cb touchesEnded Root"])
            try await scene.push("Detail")
            mark = host.lastSeq
            try await scene.tap()
            #expect(host.compactEvents(of: "A", after: mark) == ["cb touchesBegan Detail", "cb touchesEnded Detail"])
        }
    }

    @Test func aTapWhileInactiveBackgroundOrSuspendedDeliversNothing() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.deactivate()
            var mark = host.lastSeq
            let inactive = await scene.status()
            await #expect(throws: HostError.self) { try await scene.tap() }
            #expect(host.compactEvents(of: "A", after: mark).allSatisfy { $0.hasPrefix("error tap") })
            #expect(await scene.status() == inactive)
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            mark = host.lastSeq
            await #expect(throws: HostError.self) { try await scene.tap() }
            #expect(host.compactEvents(of: "A", after: mark).allSatisfy { $0.hasPrefix("error tap") })
            #expect(await scene.status().process == .suspended)
        }
    }

    @Test func aURLReachesAConnectedSceneInTheForegroundResumingItFirst() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.openURL("notes://1")
            #expect(host.compactEvents(of: "A", after: mark) == ["cb openURLContexts"])
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            try await scene.notify("sync", value: .int(1))
            mark = host.lastSeq
            try await scene.openURL("notes://2")
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "process resumed", "cb didReceiveNotification",
                    "cb sceneWillEnterForeground", "state background>foregroundInactive",
                    "cb openURLContexts", "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            // The trace says which URL arrived each time.
            let urls = host.trace.history.filter { $0.scene == "A" && $0.name == "openURLContexts" }.map(\.value)
            #expect(urls == [.string("notes://1"), .string("notes://2")])
            #expect(await scene.status().activation == .foregroundActive)
        }
    }

    @Test func aURLLaunchesASceneWithNoWorkerWithTheURLInItsOptions() async throws {
        var configuration = TestWorker.configuration()
        configuration.worker = [TestWorker.customWorker]
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.openURL("notes://editor")
            // The custom app opens its editor from the launch's URL (a deep link at launch).
            #expect(await scene.status().stack == ["Root", "Editor"])
            let events = host.compactEvents(of: "A")
            #expect(
                Array(events.prefix(5)) == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching",
                    "cb configurationForConnecting",
                    "cb willConnectTo",
                ]
            )
            #expect(!events.contains("cb openURLContexts"))
            #expect(events.last == "cb viewDidAppear Editor")
            // The trace says what the scene was opened with.
            let connected = host.trace.history.first { $0.scene == "A" && $0.name == "willConnectTo" }
            #expect(connected?.value == .object(["url": .string("notes://editor")]))
            // Connected now: the URL arrives in openURLContexts, and the app pushes from it.
            try await scene.pop()
            let mark = host.lastSeq
            try await scene.openURL("notes://editor")
            _ = try await host.trace.firstEvent(fromSeq: mark + 1, "Editor appears") {
                $0.name == "viewDidAppear" && $0.viewController == "Editor"
            }
            #expect(host.compactEvents(of: "A", after: mark).first == "cb openURLContexts")
            #expect(await scene.status().stack == ["Root", "Editor"])
        }
    }

    /// real-ios-orders-3 c09, c10: a universal link launches a scene with no worker (in the
    /// connection options, no `continueUserActivity`), and reaches a background one on its way
    /// to the foreground.
    @Test func aUserActivityLaunchesASceneOrComesOnItsWayToTheForeground() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.continueUserActivity("edit", userInfo: .object(["id": .int(2)]))
            #expect(!host.compactEvents(of: "A").contains("cb continueUserActivity"))
            let connect = host.trace.history.last { $0.scene == "A" && $0.name == "willConnectTo" }
            #expect(
                connect?.value
                    == .object([
                        "userActivity": .object(["activityType": .string("edit"), "userInfo": .object(["id": .int(2)])])
                    ])
            )
            try await scene.terminate()
            try await scene.connect(background: true)
            let mark = host.lastSeq
            try await scene.continueUserActivity("edit", userInfo: .object(["id": .int(3)]))
            // The first trip to the foreground (first appearance), the activity before it is active.
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root",
                    "cb sceneWillEnterForeground", "state background>foregroundInactive", "cb continueUserActivity",
                    "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive", "cb viewDidAppear Root",
                ]
            )
            let activity = host.trace.history.last { $0.scene == "A" && $0.name == "continueUserActivity" }
            #expect(
                activity?.value == .object(["activityType": .string("edit"), "userInfo": .object(["id": .int(3)])])
            )
        }
    }

    @Test func appCodeHandlingATapNavigatesAndTheHostFollows() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(root: "List", worker: [TestWorker.customWorker])
            let mark = host.lastSeq
            try await scene.tap()
            // The push comes after the tap's reply: wait for its last callback.
            _ = try await host.trace.firstEvent(fromSeq: mark + 1, "Editor appears") {
                $0.name == "viewDidAppear" && $0.viewController == "Editor"
            }
            #expect(await scene.status().stack == ["List", "Editor"])
            let events = host.trace.history.filter { $0.scene == "A" && $0.seq > mark }
            #expect(
                events.map { $0.compact + ($0.origin == "app" ? " app" : "") } == [
                    "cb touchesBegan List", "cb touchesEnded List",
                    "cb loadView Editor app", "cb viewDidLoad Editor app", "cb viewWillDisappear List app",
                    "cb viewWillAppear Editor app", "cb viewIsAppearing Editor app",
                    "cb viewWillLayoutSubviews Editor app",
                    "cb viewDidLayoutSubviews Editor app", "cb viewDidDisappear List app",
                    "cb viewDidAppear Editor app",
                ]
            )
        }
    }
}

@Suite struct NewSessionAfterDiscardTests {
    @Test func aDiscardedNameOpensANewSessionOnConnect() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.discard()
            #expect(await scene.status().isDiscarded)
            await #expect(throws: HostError.self) { try await scene.foreground() }
            let mark = host.lastSeq
            try await scene.connect()
            let status = await scene.status()
            #expect(!status.isDiscarded && status.stack == ["Root"] && status.activation == .foregroundActive)
            // A new session: configurationForConnecting, and no restoration state from the old one.
            // No worker of the app ran when the old one was discarded: this launch hears of it.
            #expect(
                Array(host.compactEvents(of: "A", after: mark).prefix(6)) == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching", "cb didDiscardSceneSessions",
                    "cb configurationForConnecting", "cb willConnectTo",
                ]
            )
            let willConnect = host.trace.history.last { $0.scene == "A" && $0.name == "willConnectTo" }
            #expect(willConnect?.restoration == nil)
            #expect(host.sessions.session("A") != nil)
        }
    }
}

@Suite struct DiscardReachesTheAppTests {
    @Test func aRunningWorkerOfTheAppHearsOfADiscard() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let other = try host.scene("B")
            try await other.connect()
            let scene = try host.scene("A")
            try await scene.connect()
            let mark = host.lastSeq
            try await scene.discard()
            let delivered = try await host.trace.firstEvent(fromSeq: mark + 1, "B hears of the discard") {
                $0.scene == "B" && $0.name == "didDiscardSceneSessions"
            }
            #expect(delivered.value == .array([.string("A")]))
            // The host's own event on A came first.
            let hostEvent = host.trace.history.first {
                $0.seq > mark && $0.scene == "A" && $0.name == "didDiscardSceneSessions"
            }
            #expect(hostEvent.map { $0.seq < delivered.seq } == true)
            #expect(await other.status().activation == .foregroundActive)
        }
    }

    @Test func withNoWorkerRunningTheNextLaunchHearsOfIt() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            let suspended = try host.scene("B")
            try await suspended.connect()
            try await suspended.background()
            try await suspended.waitFor(process: .suspended, timeout: TestLimit.event)
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.discard()
            // B is suspended: it runs no code and hears nothing.
            #expect(!host.trace.history.contains { $0.scene == "B" && $0.name == "didDiscardSceneSessions" })
            let mark = host.lastSeq
            try await host.scene("C").connect()
            #expect(
                Array(host.compactEvents(of: "C", after: mark).prefix(4)) == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching", "cb didDiscardSceneSessions",
                ]
            )
        }
    }
}

@Suite struct ScenesThatOpenScenesTests {
    /// The custom app, whose controllers open and close windows.
    private static func configuration() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.worker = [TestWorker.customWorker]
        return configuration
    }

    @Test func aSceneOpensASecondWindowThatOutlivesIt() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let opener = try host.scene("A")
            try await opener.connect(root: "Opener")
            let mark = host.lastSeq
            try await opener.tap()
            // The new window: a new session and its own worker, opened with the user activity
            // (the custom app opens its editor from it).
            _ = try await host.trace.firstEvent(
                fromSeq: mark + 1,
                within: TestLimit.launch,
                "the second window appears"
            ) {
                $0.scene == "A-1" && $0.name == "viewDidAppear" && $0.viewController == "Editor"
            }
            let request = host.trace.history.first { $0.scene == "A-1" && $0.kind == .host }
            #expect(request?.name == "requestSceneSessionActivation" && request?.origin == "app")
            #expect(request?.value == .object(["requestedBy": .string("A")]))
            let connected = host.trace.history.first { $0.scene == "A-1" && $0.name == "willConnectTo" }
            #expect(
                connected?.value
                    == .object([
                        "userActivity": .object([
                            "activityType": .string("compose"), "userInfo": .object(["value": .string("draft")]),
                        ])
                    ])
            )
            let second = try host.scene("A-1")
            let opened = await second.status()
            let openerStatus = await opener.status()
            #expect(opened.pid != nil && opened.pid != openerStatus.pid)
            #expect(opened.stack == ["Root", "Editor"] && opened.activation == .foregroundActive)
            #expect(host.sessions.session("A-1") != nil)
            #expect(host.compactEvents(of: "A-1").contains("cb configurationForConnecting"))
            // The opener dies; the window it opened lives on.
            try await opener.kill()
            #expect(await second.status().pid == opened.pid)
            #expect(await second.status().process == .running)
        }
    }

    /// The default worker's app closes `A-1` and then opens a window, both on one resume
    /// (queued while suspended): the close is carried out first, so it is refused (no `A-1`
    /// yet), and the window opened after it is `A-1` and stays.
    @Test func anAppsRequestsAreCarriedOutInTheOrderItMadeThem() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            try await scene.notify("closeWindow", value: .string("A-1"))
            try await scene.notify("openWindow", value: .bool(true))
            let mark = host.lastSeq
            try await scene.foreground()
            let window = try host.scene("A-1")
            try await window.waitFor(.foregroundActive, timeout: TestLimit.launch)
            let requests = host.trace.history.filter { $0.seq > mark && $0.scene == "A-1" && $0.kind != .callback }
                .map { "\($0.kind.rawValue) \($0.name ?? $0.op ?? "")" }
            #expect(
                Array(requests.prefix(3)) == [
                    "host requestSceneSessionDestruction", "error discard", "host requestSceneSessionActivation",
                ]
            )
            #expect(await window.status().isDiscarded == false)
        }
    }

    /// An app asks for more windows than its line holds while the first hangs in its launch:
    /// the requests beyond the 32 waiting are refused with -32005 on the asking scene
    /// (recorded in its turn, `SceneMachineTests.anEventRecordedInTurnWithNoCallerResumesNobody`).
    @Test func requestsBeyondTheLineAreRefusedOnTheAskingScene() async throws {
        // New windows run the host's default worker, which hangs in its launch here; A runs a
        // healthy one. The quit kills the hung launch after the terminate limit.
        var configuration = TestWorker.configuration(["--hang-in", "willConnectTo"])
        // The first launch hangs until the quit, however long the 40 requests take to arrive:
        // a launch limit that fired first (under ASan, in CI run 19, the requests took over the
        // suite's 60 s) would start the next one, and one fewer would be refused.
        configuration.launchLimit = .seconds(3600)
        configuration.terminateLimit = .seconds(2)
        let host = try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect(worker: [TestWorker.hostctl, "worker"])
            for _ in 0..<40 { try await scene.notify("openWindow", value: .bool(true)) }
            return host
        }
        let history = host.trace.history
        let refused = history.filter {
            $0.scene == "A" && $0.kind == .error && $0.code == ProtocolError.Code.resourceExhausted.rawValue
        }
        // The first is in progress (it may still count as waiting when the next arrives), 32
        // wait behind it, the rest are refused.
        #expect((7...8).contains(refused.count), "\(refused.count) refused")
        #expect(refused.allSatisfy { $0.op == "requestSceneSessionActivation" })
        #expect(history.last?.name == "stopped")
        #expect(host.verifyTrace() == nil)
    }

    /// Windows an app asks for just before the host quits are opened, or refused as the
    /// quit's on the asking scene, before the quit returns: no request is dropped without a
    /// word, nothing is recorded after `stopped` and no worker outlives the host.
    @Test func aQuitWaitsForTheScenesAppsAskedForAndRefusesTheRest() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        for _ in 0..<4 { try await scene.notify("openWindow", value: .bool(true)) }
        await host.quit()
        let history = host.trace.history
        #expect(history.last?.kind == .host && history.last?.name == "stopped")
        // Each request has one outcome: the window it named launched, or refused the launch
        // with an error of its own, or the quit overtook the request (refused on A).
        let outcomes = history.filter {
            ($0.scene != "A" && ($0.kind == .error || ($0.kind == .callback && $0.name == "willConnectTo")))
                || ($0.scene == "A" && $0.kind == .error && $0.op == "requestSceneSessionActivation"
                    && $0.code == ProtocolError.Code.operationFailed.rawValue)
        }
        #expect(outcomes.count == 4, "\(outcomes.map { "\($0.scene ?? "?") \($0.name ?? $0.message ?? "")" })")
        let spawned = Set(history.filter { $0.processEvent == .spawned }.compactMap(\.pid))
        let exited = Set(history.filter { $0.processEvent == .exited }.compactMap(\.pid))
        #expect(spawned == exited)
        #expect(host.verifyTrace() == nil)
    }

    @Test func aSceneClosesItselfForGood() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("B")
            try await scene.connect(root: "Closer")
            try await scene.tap()
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            _ = try await host.trace.firstEvent("B discarded") {
                $0.scene == "B" && $0.kind == .callback && $0.name == "didDiscardSceneSessions"
            }
            #expect(await scene.status().isDiscarded)
            #expect(host.sessions.session("B") == nil)
            let request = host.trace.history.first { $0.scene == "B" && $0.kind == .host }
            #expect(request?.name == "requestSceneSessionDestruction" && request?.origin == "app")
        }
    }
}
