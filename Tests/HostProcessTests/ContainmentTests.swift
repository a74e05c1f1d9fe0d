import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// LIFECYCLE.md §3a's containment with real worker processes: adding and removing a child of
/// the frontmost controller, and the forwarding of its parent's appearance, memory warnings
/// and release, each in its exact order, verified, and every swapped pair rejected.
@Suite struct ContainmentOrderTests {
    static let added = [
        "cb willMoveToParent Player", "cb loadView Player", "cb viewDidLoad Player", "cb viewWillAppear Player",
        "cb viewIsAppearing Player", "cb viewWillLayoutSubviews Player", "cb viewDidLayoutSubviews Player",
        "cb viewDidAppear Player", "cb didMoveToParent Player",
    ]

    @Test func addAndRemoveAChild() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let add = try await PresentationOrderTests.transition(host) { try await scene.addChild("Player") }
            #expect(add == Self.added)
            #expect(await scene.status().children == ["Player"])
            #expect(await scene.status().stack == ["Root"])
            let remove = try await PresentationOrderTests.transition(host) { try await scene.removeChild("Player") }
            #expect(
                remove == [
                    "cb willMoveToParent Player", "cb viewWillDisappear Player", "cb viewDidDisappear Player",
                    "cb didMoveToParent Player", "cb deinit Player",
                ]
            )
            #expect(await scene.status().children == [])
        }
    }

    @Test func aPushAndAPopForwardToTheChildrenParentFirst() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.addChild("Player")
            let push = try await PresentationOrderTests.transition(host) { try await scene.push("Detail") }
            #expect(
                push == [
                    "cb loadView Detail", "cb viewDidLoad Detail", "cb viewWillDisappear Root",
                    "cb viewWillDisappear Player", "cb viewWillAppear Detail", "cb viewIsAppearing Detail",
                    "cb viewWillLayoutSubviews Detail", "cb viewDidLayoutSubviews Detail", "cb viewDidDisappear Root",
                    "cb viewDidDisappear Player", "cb viewDidAppear Detail",
                ]
            )
            // Detail is frontmost now: it has no children; Root keeps its own.
            #expect(await scene.status().children == [])
            let pop = try await PresentationOrderTests.transition(host) { try await scene.pop() }
            #expect(
                pop == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillAppear Player", "cb viewIsAppearing Player", "cb viewDidDisappear Detail",
                    "cb viewDidAppear Root", "cb viewDidAppear Player", "cb deinit Detail",
                ]
            )
            #expect(await scene.status().children == ["Player"])
        }
    }

    @Test func aPresentedParentAndTheControllerItCovers() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.addChild("Player")
            let present = try await PresentationOrderTests.transition(host) {
                try await scene.present("Modal", style: .fullScreen)
            }
            #expect(
                present == [
                    "cb loadView Modal", "cb viewDidLoad Modal", "cb viewWillDisappear Root",
                    "cb viewWillDisappear Player",
                    "cb viewWillAppear Modal", "cb viewIsAppearing Modal", "cb viewWillLayoutSubviews Modal",
                    "cb viewDidLayoutSubviews Modal", "cb viewDidAppear Modal", "cb viewDidDisappear Root",
                    "cb viewDidDisappear Player",
                ]
            )
            // The presented controller is the frontmost: the child goes to it.
            try await scene.addChild("Inner")
            #expect(await scene.status().children == ["Inner"])
            let dismiss = try await PresentationOrderTests.transition(host) { try await scene.dismiss() }
            #expect(
                dismiss == [
                    "cb viewWillDisappear Modal", "cb viewWillDisappear Inner", "cb viewWillAppear Root",
                    "cb viewIsAppearing Root", "cb viewWillAppear Player", "cb viewIsAppearing Player",
                    "cb viewDidDisappear Modal", "cb viewDidDisappear Inner", "cb viewDidAppear Root",
                    "cb viewDidAppear Player", "cb deinit Modal", "cb deinit Inner",
                ]
            )
            #expect(await scene.status().children == ["Player"])
        }
    }

    @Test func aCancelledSwipeBackForwardsBothWays() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.addChild("Player")
            try await scene.push("Detail")
            try await scene.addChild("Badge")
            let cancelled = try await PresentationOrderTests.transition(host) {
                try await scene.swipeBack(completes: false)
            }
            #expect(
                cancelled == [
                    "cb viewWillDisappear Detail", "cb viewWillDisappear Badge", "cb viewWillAppear Root",
                    "cb viewIsAppearing Root", "cb viewWillAppear Player", "cb viewIsAppearing Player",
                    "cb viewWillDisappear Root", "cb viewWillDisappear Player", "cb viewDidDisappear Root",
                    "cb viewDidDisappear Player", "cb viewWillAppear Detail", "cb viewIsAppearing Detail",
                    "cb viewWillAppear Badge", "cb viewIsAppearing Badge", "cb viewDidAppear Detail",
                    "cb viewDidAppear Badge",
                ]
            )
            #expect(await scene.status().children == ["Badge"])
        }
    }

    @Test func memoryWarningsBackgroundAndDisconnectReachTheChildren() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.addChild("Player")
            try await scene.addChild("Chat")
            try await scene.push("Detail")
            let warning = try await PresentationOrderTests.transition(host) { try await scene.memoryWarning() }
            #expect(
                warning == [
                    "cb applicationDidReceiveMemoryWarning", "cb didReceiveMemoryWarning Root",
                    "cb didReceiveMemoryWarning Player", "cb didReceiveMemoryWarning Chat",
                    "cb didReceiveMemoryWarning Detail",
                ]
            )
            // A background trip has no view callbacks: nothing to forward.
            let mark = host.lastSeq
            try await scene.background()
            try await scene.foreground()
            #expect(host.compactEvents(of: "A", after: mark).allSatisfy { !$0.contains("Player") })
            try await scene.pop()
            let disconnect = try await PresentationOrderTests.transition(host) { try await scene.disconnect() }
            #expect(
                Array(disconnect.suffix(4)) == [
                    "cb deinit Root", "cb deinit Player", "cb deinit Chat", "process exited disconnected",
                ]
            )
        }
    }

    @Test func aTabSwitchForwardsToTheChildrenOfBothTops() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: LaunchParameters(tabs: ["Music", "Radio"]))
            try await scene.addChild("Player")
            try await scene.selectTab(1)
            #expect(await scene.status().children == [])
            let back = try await PresentationOrderTests.transition(host) { try await scene.selectTab(0) }
            #expect(
                back == [
                    "cb viewWillAppear Music", "cb viewIsAppearing Music", "cb viewWillAppear Player",
                    "cb viewIsAppearing Player", "cb viewWillDisappear Radio", "cb viewDidDisappear Radio",
                    "cb viewDidAppear Music", "cb viewDidAppear Player",
                ]
            )
            #expect(await scene.status().children == ["Player"])
        }
    }

    /// Illegal requests are refused with a reason naming what they need, and change nothing.
    @Test func illegalContainmentIsRefusedAndChangesNothing() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            func refusal(_ op: SceneOperation) async -> String? { await host.refusalReason(of: op, on: scene) }
            #expect(
                await refusal(.removeChild(viewController: "Nope"))
                    == "the frontmost view controller has no child Nope (its children: none)"
            )
            try await scene.addChild("Player")
            #expect(
                await refusal(.addChild(viewController: "Player"))
                    == "the frontmost view controller already has a child Player: remove it first"
            )
            for index in 1..<SceneSnapshot.maximumChildren { try await scene.addChild("C\(index)") }
            #expect(
                await refusal(.addChild(viewController: "More"))
                    == "the frontmost view controller already has 16 children, the limit: remove one first"
            )
            // A name too long for the restoration state is refused before anything is sent.
            do {
                try await scene.addChild(String(repeating: "n", count: 300))
                Issue.record("a 300-byte child name was accepted")
            } catch HostError.requestTooLarge(_, let op, _) {
                #expect(op == "addChild")
            }
            #expect(await scene.status().children.count == SceneSnapshot.maximumChildren)
            try await scene.background()
            // Suspended first, so that the suspension does not come between a refusal and its check.
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let background = "the scene is background, not foregroundActive or foregroundInactive"
            #expect(await refusal(.addChild(viewController: "X")) == background)
            #expect(await refusal(.removeChild(viewController: "Player")) == background)
        }
    }
}

/// The app adds and removes children from its own code (LIFECYCLE.md §3b): the host follows
/// it, the trace marks the callbacks `origin: app`, and the default worker restores the
/// frontmost controller's children.
@Suite struct AppContainmentTests {
    @Test func theAppAddsAndRemovesAChild() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.notify("addChild", value: .string("Player"))
            try await host.controller("A").waitUntil("the app's child", timeout: TestLimit.event) {
                $0.children == ["Player"]
            }
            // The change comes before its callbacks: a request after it waits for them all.
            try await scene.tap()
            let added = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(added.map(\.compact) == ContainmentOrderTests.added)
            mark = host.lastSeq
            try await scene.notify("removeChild", value: .string("Player"))
            try await host.controller("A").waitUntil("the app's removal", timeout: TestLimit.event) {
                $0.children.isEmpty
            }
            try await scene.tap()  // after the removal's deinit
            let removed = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                removed.map(\.compact) == [
                    "cb willMoveToParent Player", "cb viewWillDisappear Player", "cb viewDidDisappear Player",
                    "cb didMoveToParent Player", "cb deinit Player",
                ]
            )
            // The app cannot remove what is not a child: refused in its API, nothing reported.
            mark = host.lastSeq
            try await scene.notify("removeChild", value: .string("Player"))
            #expect(host.compactEvents(of: "A", after: mark).allSatisfy { !$0.contains("Player") })
        }
    }

    @Test func aKilledSceneComesBackWithItsChildren() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.present("Modal", style: .fullScreen)
            try await scene.addChild("Player")
            try await scene.background()
            try await scene.kill()
            let mark = host.lastSeq
            try await scene.connect()
            try await host.controller("A").waitUntil("the restored child", timeout: TestLimit.launch) {
                $0.children == ["Player"]
            }
            try await scene.tap()  // after the restored child's callbacks
            #expect(await scene.status().presented == "Modal")
            let restored = host.trace.history.filter { $0.seq > mark && $0.viewController == "Player" }
            #expect(
                restored.map(\.compact) == ContainmentOrderTests.added && restored.allSatisfy { $0.origin == "app" }
            )
        }
    }
}

/// The client commands and `ps --json` show the frontmost controller's children.
@Suite struct ContainmentClientTests {
    @Test func theClientCommandsAddAndRemoveChildren() async throws {
        let directory = makeTemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("addChild", "A", "--vc", "Player").status == 0)
        #expect(try await server.scenes()["A"]?.children == ["Player"])
        #expect(try await server.run("addChild", "A", "--vc", "Player").status == 3)
        #expect(try await server.run("removeChild", "A").status == 2)
        #expect(try await server.run("removeChild", "A", "--vc", "Player").status == 0)
        #expect(try await server.scenes()["A"]?.children == [])
        try await server.quit()
    }
}

/// The verifier holds children to §3a's forwarding on its own.
@Suite struct ContainmentGrammarTests {
    /// Connect, add Player to Root.
    static func withChild() -> TraceBuilder {
        var t = TraceBuilder()
        t.connectToForeground()
        for name: CallbackName in [
            .willMoveToParent, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewWillLayoutSubviews,
            .viewDidLayoutSubviews, .viewDidAppear, .didMoveToParent,
        ] {
            t.callback(name, "Player")
        }
        return t
    }

    @Test func aPushMustForwardToTheCoveredParentsChildren() {
        var forwarded = Self.withChild()
        forwarded.push("Detail", over: "Root")
        // TraceBuilder's push knows nothing of children: Player's viewWillDisappear is owed.
        #expect(firstViolation(forwarded.events)?.got == "callback viewWillAppear (vc Detail)")
        #expect(firstViolation(Self.withChild().events) == nil)
    }

    @Test func aChildIsRemovedByNameAndDeinitsLast() {
        var t = Self.withChild()
        for name: CallbackName in [.willMoveToParent, .viewWillDisappear, .viewDidDisappear, .didMoveToParent, .deinit]
        {
            t.callback(name, "Player")
        }
        #expect(firstViolation(t.events) == nil)
        // A second removal of the same child starts nothing: it is no longer a child, so its
        // willMoveToParent adds a new one, which must load next.
        var again = t
        again.callback(.willMoveToParent, "Player")
        again.callback(.viewWillDisappear, "Player")
        #expect(firstViolation(again.events)?.got == "callback viewWillDisappear (vc Player)")
    }
}

/// The model's containment legality (`LifecycleOperation.containmentRefusal`) agrees with the
/// independent oracle's in every reachable state, with no child, one, and a full set.
@Suite struct ContainmentLegalityTests {
    @Test func theModelAgreesWithTheOracle() {
        var checked = 0
        for base in SpecOracle.reachableStates {
            for children in [[], ["K0"], (0..<16).map { "K\($0)" }] as [[String]] {
                var oracle = base
                if base.states.process.isAlive {
                    oracle.childList = children.map { SpecOracle.Child(owner: oracle.frontOwner, name: $0) }
                }
                let requests: [(SceneOperation, String)] = [
                    (.addChild(viewController: "K0"), "K0"), (.addChild(viewController: "New"), "New"),
                    (.removeChild(viewController: "K0"), "K0"),
                ]
                for (op, name) in requests {
                    let model = LifecycleOperation.containmentRefusal(op.kind, child: name, in: oracle.snapshot)
                    #expect(
                        oracle.allows(op) == (model == nil),
                        "\(op) in \(oracle.summary): the oracle says \(oracle.allows(op)), the model \(model.map(\.description) ?? "legal")"
                    )
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }
}
