import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// The host follows the app (docs/LIFECYCLE.md §3b), with real default workers: their
/// notification triggers, their background task on entering the background, and their stack
/// restoration.
@Suite
struct AppInitiatedTests {
    /// The first event of the trace after `seq` that matches, waiting at most 30 s.
    private func event(
        in host: SceneHost,
        after seq: Int,
        _ matches: @escaping @Sendable (TraceEvent) -> Bool
    ) async -> TraceEvent? {
        try? await host.trace.firstEvent(fromSeq: seq + 1, within: TestLimit.event, "the app's event", where: matches)
    }

    private func isApp(_ name: CallbackName, _ vc: String? = nil) -> @Sendable (TraceEvent) -> Bool {
        { event in
            event.kind == .callback && event.name == name.rawValue && event.viewController == vc
                && event.origin == "app"
        }
    }

    @Test func theAppPushesAndPopsOnItsOwnAndTheHostFollows() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.notify("openDetail", value: .string("Detail"))
            #expect(await event(in: host, after: mark, isApp(.viewDidAppear, "Detail")) != nil)
            #expect(await scene.status().stack == ["Root", "Detail"])
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb didReceiveNotification",
                    "cb loadView Detail", "cb viewDidLoad Detail", "cb viewWillDisappear Root",
                    "cb viewWillAppear Detail",
                    "cb viewIsAppearing Detail", "cb viewWillLayoutSubviews Detail", "cb viewDidLayoutSubviews Detail",
                    "cb viewDidDisappear Root",
                    "cb viewDidAppear Detail",
                ]
            )
            #expect(host.trace.history.filter { $0.seq > mark && $0.origin == "app" }.count == 9)

            // The host's own navigation starts from the stack the app left.
            try await scene.push("More")
            try await scene.pop()
            mark = host.lastSeq
            try await scene.notify("closeDetail", value: .null)
            #expect(await event(in: host, after: mark, isApp(.deinit, "Detail")) != nil)
            #expect(await scene.status().stack == ["Root"])
            await #expect(throws: HostError.self) { try await scene.pop() }
            return host
        }
        #expect(!host.trace.history.contains { $0.reason == .protocolViolation })
    }

    /// The app pops to its root on its own (`popToRootViewController(animated:)`): c22's
    /// order, every callback the app's, and the host's stack follows. (It did not compile.)
    @Test func theAppPopsToItsRootAndTheHostFollows() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.push("More")
            let mark = host.lastSeq
            try await scene.notify("closeAll", value: .null)
            #expect(await event(in: host, after: mark, isApp(.deinit, "More")) != nil)
            let app = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }.map(\.compact)
            #expect(
                app == [
                    "cb viewWillDisappear More", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb deinit Detail", "cb viewDidDisappear More", "cb viewDidAppear Root", "cb deinit More",
                ],
                "\(app)"
            )
            #expect(await scene.status().stack == ["Root"])
            #expect(host.verifyTrace() == nil)
        }
    }

    /// The app pops to a controller above its root (`popToViewController(_:animated:)`):
    /// c22's order with that controller where the root appears, every callback the app's and
    /// marked with the index popped to, and the host's stack follows. A pop to the root
    /// through it is `popToRoot`; to the top, nothing.
    @Test func theAppPopsToAControllerAndTheHostFollows() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            for name in ["Detail", "More", "Extra"] { try await scene.push(name) }
            var mark = host.lastSeq
            try await scene.notify("closeTo", value: .int(1))
            #expect(await event(in: host, after: mark, isApp(.deinit, "Extra")) != nil)
            let app = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                app.map(\.compact) == [
                    "cb viewWillDisappear Extra", "cb viewWillAppear Detail", "cb viewIsAppearing Detail",
                    "cb deinit More", "cb viewDidDisappear Extra", "cb viewDidAppear Detail", "cb deinit Extra",
                ],
                "\(app.map(\.compact))"
            )
            #expect(app.allSatisfy { $0.op == "popTo" && $0.value == .int(1) })
            #expect(await scene.status().stack == ["Root", "Detail"])

            // To the top: nothing happens, nothing is reported. Then to the root: a pop to the
            // root, and every app callback since the first notification is that pop's.
            mark = host.lastSeq
            try await scene.notify("closeTo", value: .int(1))
            #expect(await scene.status().stack == ["Root", "Detail"])
            try await scene.notify("closeTo", value: .int(0))
            #expect(await event(in: host, after: mark, isApp(.deinit, "Detail")) != nil)
            let toRoot = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                toRoot.map(\.compact) == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewDidDisappear Detail", "cb viewDidAppear Root", "cb deinit Detail",
                ],
                "\(toRoot.map(\.compact))"
            )
            #expect(toRoot.allSatisfy { $0.op == "popToRoot" && $0.value == nil })
            #expect(await scene.status().stack == ["Root"])
            #expect(host.verifyTrace() == nil)
        }
    }

    /// The app replaces its stack on its own (`setViewControllers(_:animated:)`): a push's
    /// order to the new top, then the controllers left out released top-most first, every
    /// callback the app's and marked `replaceStack`; the host's stack follows and its own
    /// navigation goes on from there.
    @Test func theAppReplacesItsStackAndTheHostFollows() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.push("More")
            var mark = host.lastSeq
            try await scene.notify("replaceTop", value: "Home")
            #expect(await event(in: host, after: mark, isApp(.deinit, "More")) != nil)
            let app = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                app.map(\.compact) == [
                    "cb loadView Home", "cb viewDidLoad Home", "cb viewWillDisappear More", "cb viewWillAppear Home",
                    "cb viewIsAppearing Home", "cb viewWillLayoutSubviews Home", "cb viewDidLayoutSubviews Home",
                    "cb viewDidDisappear More", "cb viewDidAppear Home", "cb deinit More",
                ],
                "\(app.map(\.compact))"
            )
            #expect(app.allSatisfy { $0.op == "replaceStack" })
            #expect(app.first?.value == .array([.int(0), .int(1)]))
            #expect(await scene.status().stack == ["Root", "Detail", "Home"])

            // A whole new stack, as after a login: the rest goes, top-most first.
            mark = host.lastSeq
            try await scene.notify("startOver", value: "Welcome")
            #expect(await event(in: host, after: mark, isApp(.deinit, "Root")) != nil)
            let released = host.trace.history.filter { $0.seq > mark && $0.name == "deinit" }
            #expect(released.map(\.viewController) == ["Home", "Detail", "Root"])
            #expect(await scene.status().stack == ["Welcome"])
            try await scene.push("Next")
            try await scene.pop()
            #expect(await scene.status().stack == ["Welcome"])

            // A deep link: the new controllers below the new top load first, bottom first;
            // afterwards the host pops through them, each laying out as it first appears.
            mark = host.lastSeq
            try await scene.notify("deepLink", value: .array([.string("Inbox"), .string("Thread")]))
            #expect(await event(in: host, after: mark, isApp(.viewDidAppear, "Thread")) != nil)
            let linked = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                linked.map(\.compact) == [
                    "cb loadView Inbox", "cb viewDidLoad Inbox", "cb loadView Thread", "cb viewDidLoad Thread",
                    "cb viewWillDisappear Welcome", "cb viewWillAppear Thread", "cb viewIsAppearing Thread",
                    "cb viewWillLayoutSubviews Thread", "cb viewDidLayoutSubviews Thread",
                    "cb viewDidDisappear Welcome", "cb viewDidAppear Thread",
                ],
                "\(linked.map(\.compact))"
            )
            #expect(linked.allSatisfy { $0.op == "replaceStack" })
            #expect(
                linked.first?.value
                    == .object([
                        "kept": .array([.int(0)]), "below": .array([.string("Inbox")]), "vc": .string("Thread"),
                    ])
            )
            #expect(linked.dropFirst().allSatisfy { $0.value == nil })
            #expect(await scene.status().stack == ["Welcome", "Inbox", "Thread"])
            mark = host.lastSeq
            try await scene.pop()
            #expect(
                host.trace.history.filter { $0.seq > mark && $0.kind == .callback }.map(\.compact) == [
                    "cb viewWillDisappear Thread", "cb viewWillAppear Inbox", "cb viewIsAppearing Inbox",
                    "cb viewWillLayoutSubviews Inbox", "cb viewDidLayoutSubviews Inbox", "cb viewDidDisappear Thread",
                    "cb viewDidAppear Inbox", "cb deinit Thread",
                ]
            )
            #expect(await scene.status().stack == ["Welcome", "Inbox"])
            #expect(host.verifyTrace() == nil)
        }
    }

    /// Work the app queues on the main actor runs between requests, as on a run loop's turn:
    /// right after the reply to the request that queued it, and while the worker waits in
    /// read(2) for the next request (a task that slept first). The host follows what it does.
    @Test func workTheAppQueuesOnTheMainActorRunsBetweenRequests() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            for milliseconds in [0, 20] {
                let mark = host.lastSeq
                try await scene.notify("openDetailLater", value: .int(milliseconds))
                #expect(await event(in: host, after: mark, isApp(.viewDidAppear, "Detail")) != nil)
                #expect(await scene.status().stack == ["Root", "Detail"])
                #expect(host.trace.history.filter { $0.seq > mark && $0.origin == "app" }.count == 9)
                try await scene.pop()
            }
            return host
        }
        #expect(!host.trace.history.contains { $0.reason == .protocolViolation })
    }

    @Test func navigationTheRulesRefuseFailsInTheAppWithNothingChanged() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)  // the scene stays running in the background
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect(background: true)
            let mark = host.lastSeq
            try await scene.notify("openDetail", value: .null)
            try await scene.notify("closeDetail", value: .null)
            try await scene.notify("closeAll", value: .null)
            // Nothing of the app follows the notifications: the next host request comes next.
            try await scene.memoryWarning()
            #expect(
                host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb") } == [
                    "cb didReceiveNotification", "cb didReceiveNotification", "cb didReceiveNotification",
                    "cb applicationDidReceiveMemoryWarning",
                    "cb didReceiveMemoryWarning Root",
                ]
            )
            #expect(await scene.status().stack == ["Root"])
            #expect(await scene.status().process != .terminated)
        }
    }

    @Test func aBackgroundTaskBegunInSceneDidEnterBackgroundHoldsTheWorkerUntilItEnds() async throws {
        var configuration = TestWorker.configuration(["--background-task-on-enter-background"])
        configuration.backgroundTaskLimit = .seconds(60)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.background()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidEnterBackground", "state foregroundInactive>background",
                    "cb beginBackgroundTask", "cb stateRestorationActivity",
                ]
            )
            #expect(host.trace.history.last { $0.name == "beginBackgroundTask" }?.origin == "app")
            #expect(await scene.status().hasBackgroundTask)

            mark = host.lastSeq
            try await scene.notify("finishUpload", value: .null)
            #expect(await event(in: host, after: mark, isApp(.endBackgroundTask)) != nil)
            // Without its task the worker is suspended after the suspend delay.
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            #expect(await !scene.status().hasBackgroundTask)
        }
    }

    @Test func restorationBringsTheWholeStackBack() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("List")
            try await scene.push("Detail")
            try await scene.background()
            try await scene.kill()
            try await scene.waitFor(.unattached, timeout: TestLimit.event)
            let mark = host.lastSeq
            try await scene.connect()
            #expect(await scene.status().stack == ["Root", "List", "Detail"])
            let launch = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb") }
            #expect(
                Array(launch.prefix(9)) == [
                    "cb willFinishLaunching", "cb didFinishLaunching", "cb willConnectTo", "cb loadView Root",
                    "cb viewDidLoad Root",
                    "cb loadView List", "cb viewDidLoad List", "cb loadView Detail", "cb viewDidLoad Detail",
                ]
            )
            #expect(launch.dropFirst(9).first == "cb viewWillAppear Detail")
            try await scene.pop()
            try await scene.pop()
            #expect(await scene.status().stack == ["Root"])
        }
    }
}
