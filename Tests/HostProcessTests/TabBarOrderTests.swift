import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// LIFECYCLE.md §3a's tab bar root with real worker processes: each tab its own stack,
/// the switch in its exact order (the new tab's "will" before the old one's), accepted by the
/// verifier and every swap of two of its callbacks rejected.
@Suite struct TabBarOrderTests {
    static let tabs = LaunchParameters(tabs: ["Inbox", "Search"])

    @Test func aTabSwitchRunsTheNewWillBeforeTheOldOne() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            let mark = host.lastSeq
            try await scene.connect(launch: Self.tabs)
            // Only the first tab loads at launch.
            let launched = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb loadView") }
            #expect(launched == ["cb loadView Inbox"])
            #expect(await scene.status().selectedTab == 0)

            let first = try await PresentationOrderTests.transition(host) { try await scene.selectTab(1) }
            #expect(
                first == [
                    "cb loadView Search", "cb viewDidLoad Search", "cb viewWillAppear Search",
                    "cb viewIsAppearing Search",
                    "cb viewWillLayoutSubviews Search", "cb viewDidLayoutSubviews Search", "cb viewWillDisappear Inbox",
                    "cb viewDidDisappear Inbox", "cb viewDidAppear Search",
                ]
            )
            #expect(host.trace.history.suffix(9).allSatisfy { $0.op == "selectTab" && $0.tab == 1 })
            // Push acts on the selected tab's stack.
            try await scene.push("Detail")
            var status = await scene.status()
            #expect(status.stack == ["Search", "Detail"] && status.selectedTab == 1)
            #expect(status.tabs == [["Inbox"], ["Search", "Detail"]])

            // Back to a loaded tab: no load, and no layout of a clean controller.
            let back = try await PresentationOrderTests.transition(host) { try await scene.selectTab(0) }
            #expect(
                back == [
                    "cb viewWillAppear Inbox", "cb viewIsAppearing Inbox", "cb viewWillDisappear Detail",
                    "cb viewDidDisappear Detail", "cb viewDidAppear Inbox",
                ]
            )
            status = await scene.status()
            #expect(status.stack == ["Inbox"] && status.selectedTab == 0)

            // Size changes and memory warnings reach every loaded tab: the shown one's first.
            let resize = try await PresentationOrderTests.transition(host) {
                try await scene.resize(width: 1024, height: 768)
            }
            #expect(
                resize == [
                    "cb viewWillTransition Inbox", "cb viewWillTransition Search", "cb viewWillTransition Detail",
                    "cb willTransition Inbox", "cb willTransition Search", "cb willTransition Detail",
                    "cb traitCollectionDidChange Inbox", "cb traitCollectionDidChange Search",
                    "cb traitCollectionDidChange Detail", "cb windowSceneDidUpdate", "cb viewWillLayoutSubviews Inbox",
                    "cb viewDidLayoutSubviews Inbox",
                ]
            )
            let warning = try await PresentationOrderTests.transition(host) { try await scene.memoryWarning() }
            #expect(
                warning == [
                    "cb applicationDidReceiveMemoryWarning", "cb didReceiveMemoryWarning Inbox",
                    "cb didReceiveMemoryWarning Search", "cb didReceiveMemoryWarning Detail",
                ]
            )
            // The hidden tab's top is dirty after the size change: it lays out when it shows.
            let dirty = try await PresentationOrderTests.transition(host) { try await scene.selectTab(1) }
            #expect(
                dirty == [
                    "cb viewWillAppear Detail", "cb viewIsAppearing Detail", "cb viewWillLayoutSubviews Detail",
                    "cb viewDidLayoutSubviews Detail", "cb viewWillDisappear Inbox", "cb viewDidDisappear Inbox",
                    "cb viewDidAppear Detail",
                ]
            )
            // Selecting the selected tab pops its stack to its root (real-ios-orders-3 c27);
            // again, with the root alone, it does nothing.
            let again = try await PresentationOrderTests.transition(host) { try await scene.selectTab(1) }
            #expect(
                again == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Search", "cb viewIsAppearing Search",
                    "cb viewWillLayoutSubviews Search", "cb viewDidLayoutSubviews Search", "cb viewDidDisappear Detail",
                    "cb viewDidAppear Search", "cb deinit Detail",
                ]
            )
            #expect(await scene.status().stack == ["Search"])
            let once = host.lastSeq
            try await scene.selectTab(1)
            #expect(host.compactEvents(of: "A", after: once).isEmpty)

            let end = host.lastSeq
            try await scene.disconnect()
            let deinits = host.compactEvents(of: "A", after: end).filter { $0.hasPrefix("cb deinit") }
            #expect(deinits == ["cb deinit Search", "cb deinit Inbox"])
        }
    }

    /// Illegal tab switches are refused with a reason naming what they need, and change nothing.
    @Test func illegalTabSwitchesAreRefusedAndChangeNothing() async throws {
        var configuration = TestWorker.configuration()
        // The background refusal compares the status before and after: a suspension (50 ms
        // in tests) must not land in between on a slow run.
        configuration.suspendDelay = .seconds(600)
        try await withSceneHost(configuration: configuration) { host in
            let plain = try host.scene("P")
            try await plain.connect()
            let scene = try host.scene("A")
            try await scene.connect(launch: Self.tabs)
            func refusal(_ op: SceneOperation, on handle: SceneHandle) async -> String? {
                await host.refusalReason(of: op, on: handle)
            }
            #expect(
                await refusal(.selectTab(index: 1), on: plain)
                    == "the scene's root is not a tab bar (connect it with tabs)"
            )
            #expect(
                await refusal(.selectTab(index: 2), on: scene)
                    == "tab index 2 is out of range: the tab bar has 2 tabs (0 to 1)"
            )
            try await scene.present("Sheet")
            #expect(
                await refusal(.selectTab(index: 1), on: scene)
                    == "a view controller is presented (pageSheet): dismiss it first"
            )
            try await scene.dismiss()
            try await scene.background()
            #expect(
                await refusal(.selectTab(index: 1), on: scene)
                    == "the scene is background, not foregroundActive or foregroundInactive"
            )
        }
    }

    @Test func theClientCommandsConnectTabsAndSelectOne() async throws {
        let directory = makeTemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        defer { server.kill() }
        #expect(try await server.run("connect", "A", "--tabs", "Inbox,Search").status == 0)
        #expect(try await server.run("selectTab", "A", "--index", "1").status == 0)
        let table = try await server.run("ps")
        #expect(table.stdout.contains("TAB"), "\(table.stdout)")
        let row = try #require(try await server.scenes()["A"])
        #expect(row.stack == ["Search"] && row.selectedTab == 1)
        // Out of range: refused (status 3); not a number: a usage error.
        #expect(try await server.run("selectTab", "A", "--index", "5").status == 3)
        #expect(try await server.run("selectTab", "A", "--index", "x").status == 2)
        try await server.quit()
    }

    @Test func aScenarioConnectsTabsAndSelectsOne() throws {
        let connect = try Scenario.step(fromJSON: ["op": "connect", "scene": "A", "tabs": ["Inbox", "Search"]])
        #expect(connect == .scene("A", .connect(launch: LaunchParameters(tabs: ["Inbox", "Search"]))))
        let select = try Scenario.step(fromJSON: ["op": "selectTab", "scene": "A", "index": 1])
        #expect(select == .scene("A", .selectTab(index: 1)))
        // Both read back from the form a scenario file writes.
        for step in [connect, select] {
            #expect(try Scenario.step(fromJSON: .object(step.jsonObject)) == step)
        }
        let bad: [JSONValue] = [
            ["op": "connect", "scene": "A", "tabs": []],
            ["op": "connect", "scene": "A", "tabs": ["Inbox", ""]],
            ["op": "connect", "scene": "A", "tabs": ["Inbox"], "root": "Root"],
            ["op": "selectTab", "scene": "A"],
            ["op": "selectTab", "scene": "A", "index": -1],
        ]
        for value in bad {
            #expect(throws: ScenarioError.self, "\(value)") { try Scenario.step(fromJSON: value) }
        }
    }
}

/// The app selects a tab itself (`TabBarController.selectedIndex`, LIFECYCLE.md §3b): the
/// host follows it and the trace verifies.
@Suite struct AppTabSelectionTests {
    @Test func theAppSelectsATabItself() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: TabBarOrderTests.tabs)
            let mark = host.lastSeq
            try await scene.notify("selectTab", value: .int(1))
            try await host.controller("A").waitUntil("the app's tab switch", timeout: TestLimit.event) {
                $0.selectedTab == 1
            }
            // A request after it: its reply comes after every callback of the app's change.
            try await scene.notify("noop", value: .null)
            let switched = host.trace.history.filter { $0.scene == "A" && $0.seq > mark && $0.origin == "app" }
            #expect(
                switched.map(\.compact) == [
                    "cb loadView Search", "cb viewDidLoad Search", "cb viewWillAppear Search",
                    "cb viewIsAppearing Search",
                    "cb viewWillLayoutSubviews Search", "cb viewDidLayoutSubviews Search", "cb viewWillDisappear Inbox",
                    "cb viewDidDisappear Inbox", "cb viewDidAppear Search",
                ]
            )
            #expect(switched.allSatisfy { $0.op == "selectTab" && $0.tab == 1 })
            #expect(await scene.status().stack == ["Search"])
            // Out of range or the selected tab again: ignored in the app, nothing reported.
            let quiet = host.lastSeq
            try await scene.notify("selectTab", value: .int(7))
            try await scene.notify("selectTab", value: .int(1))
            #expect(host.compactEvents(of: "A", after: quiet).allSatisfy { $0.contains("didReceiveNotification") })
        }
    }
}

/// The default worker saves the selected tab with its state; a reconnect selects it again.
@Suite struct TabRestorationTests {
    @Test func aKilledSceneComesBackOnItsTab() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(launch: TabBarOrderTests.tabs)
            try await scene.selectTab(1)
            try await scene.background()
            try await scene.kill(signal: 9)
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            let mark = host.lastSeq
            try await scene.connect(launch: TabBarOrderTests.tabs)
            try await host.controller("A").waitUntil("the restored tab", timeout: TestLimit.launch) {
                $0.selectedTab == 1
            }
            try await scene.notify("noop", value: .null)
            let restored = host.trace.history.filter { $0.scene == "A" && $0.seq > mark && $0.origin == "app" }
            #expect(restored.first?.compact == "cb loadView Search" && restored.allSatisfy { $0.op == "selectTab" })
            #expect(await scene.status().stack == ["Search"])
        }
    }
}

/// The verifier holds the trace to §3a's tab switch on its own: which stack a switch shows
/// comes from its `tab`, and only a tab bar root may switch.
@Suite struct TabBarGrammarTests {
    /// A tab bar root of `tabs` tabs connected to the foreground, showing Inbox.
    static func connected(tabs: Int? = 2) -> TraceBuilder {
        var t = TraceBuilder()
        t.spawned()
        t.callback(.willFinishLaunching)
        t.callback(.didFinishLaunching)
        t.callback(.configurationForConnecting)
        t.add(TraceEvent(kind: .callback, scene: "A", name: CallbackName.willConnectTo.rawValue, tabCount: tabs))
        t.callback(.loadView, "Inbox")
        t.callback(.viewDidLoad, "Inbox")
        t.firstAppearance(from: .unattached, top: "Inbox")
        return t
    }

    /// A switch's callbacks, each carrying `op: selectTab` and `tab`.
    static func switchTo(_ tab: Int, _ t: inout TraceBuilder, _ steps: [(CallbackName, String)]) {
        for (name, vc) in steps {
            t.add(
                TraceEvent(
                    kind: .callback,
                    scene: "A",
                    name: name.rawValue,
                    viewController: vc,
                    op: "selectTab",
                    tab: tab
                )
            )
        }
    }

    static let firstSwitch: [(CallbackName, String)] = [
        (.loadView, "Search"), (.viewDidLoad, "Search"), (.viewWillAppear, "Search"), (.viewIsAppearing, "Search"),
        (.viewWillLayoutSubviews, "Search"), (.viewDidLayoutSubviews, "Search"), (.viewWillDisappear, "Inbox"),
        (.viewDidDisappear, "Inbox"), (.viewDidAppear, "Search"),
    ]

    @Test func aSwitchIsKnownByItsTab() {
        var t = Self.connected()
        Self.switchTo(1, &t, Self.firstSwitch)
        #expect(firstViolation(t.events) == nil)
        // Back to Inbox (loaded, clean): no load, no layout.
        var back = t
        Self.switchTo(
            0,
            &back,
            [
                (.viewWillAppear, "Inbox"), (.viewIsAppearing, "Inbox"), (.viewWillDisappear, "Search"),
                (.viewDidDisappear, "Search"), (.viewDidAppear, "Inbox"),
            ]
        )
        #expect(firstViolation(back.events) == nil)
        // A push's order (the old "will" first) is not a tab switch.
        var pushOrder = Self.connected()
        var swapped = Self.firstSwitch
        swapped.swapAt(2, 6)
        Self.switchTo(1, &pushOrder, swapped)
        #expect(firstViolation(pushOrder.events)?.got == "callback viewWillDisappear (vc Inbox)")
    }

    @Test func onlyATabBarSwitchesAndOnlyToAnotherTabInRange() {
        for (tabs, tab) in [(nil, 1), (2, 2), (2, 0)] as [(Int?, Int)] {
            var t = Self.connected(tabs: tabs)
            Self.switchTo(tab, &t, Self.firstSwitch)
            #expect(firstViolation(t.events) != nil, "tabs \(String(describing: tabs)), tab \(tab)")
        }
        // Without its op, a switch's first callback starts a push, which then breaks.
        var unmarked = Self.connected()
        for (name, vc) in Self.firstSwitch { unmarked.callback(name, vc) }
        #expect(firstViolation(unmarked.events) != nil)
    }

    @Test func theOtherTabsAreReachedAndDeinitedAfterTheShownOne() {
        var t = Self.connected()
        Self.switchTo(1, &t, Self.firstSwitch)
        t.callback(.applicationDidReceiveMemoryWarning)
        t.callback(.didReceiveMemoryWarning, "Search")
        t.callback(.didReceiveMemoryWarning, "Inbox")
        #expect(firstViolation(t.events) == nil)
        t.toBackground()
        t.callback(.sceneDidDisconnect)
        t.state(.background, .unattached)
        var wrongOrder = t
        t.callback(.deinit, "Search")
        t.callback(.deinit, "Inbox")
        t.exited(.disconnected, status: 0)
        #expect(firstViolation(t.events) == nil)
        wrongOrder.callback(.deinit, "Inbox")
        #expect(firstViolation(wrongOrder.events)?.got == "callback deinit (vc Inbox)")
    }
}

/// A tab bar's names are held to the controller-name limit, and its size to the tab limit.
@Suite struct TabBarLimitTests {
    @Test func tooLongATabNameOrTooManyTabsAreRefusedBeforeAnythingStarts() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            let long = LaunchParameters(tabs: ["Inbox", String(repeating: "x", count: 300)])
            await #expect { try await scene.connect(launch: long) } throws: {
                RequestLimitTests.isTooLarge($0, op: "connect")
            }
            let many = LaunchParameters(tabs: (0...LaunchParameters.maximumTabs).map { "T\($0)" })
            await #expect(throws: HostError.self) { try await scene.connect(launch: many) }
            #expect(await scene.status().process == .none)
        }
    }
}

/// A tab bar the app made while connecting reaches the verifier as the host event `tabBar`,
/// after `willConnectTo` and before the root loads.
@Suite struct TabBarMadeInCodeGrammarTests {
    /// A scene whose app made a tab bar of `tabs` tabs (showing tab `selected`, Inbox)
    /// after `willConnectTo`, or at `late` (after the root loaded).
    static func connected(tabs: Int = 2, selected: Int = 0, late: Bool = false) -> TraceBuilder {
        var t = TraceBuilder()
        t.spawned()
        t.callback(.willFinishLaunching)
        t.callback(.didFinishLaunching)
        t.callback(.configurationForConnecting)
        t.callback(.willConnectTo)
        let tabBar = TraceEvent(kind: .host, scene: "A", name: TraceEvent.tabBarName, tab: selected, tabCount: tabs)
        if !late { t.add(tabBar) }
        t.callback(.loadView, "Inbox")
        t.callback(.viewDidLoad, "Inbox")
        if late { t.add(tabBar) }
        t.firstAppearance(from: .unattached, top: "Inbox")
        return t
    }

    @Test func theAppsTabBarSwitchesAsTheHostsDoes() {
        var t = Self.connected()
        TabBarGrammarTests.switchTo(1, &t, TabBarGrammarTests.firstSwitch)
        #expect(firstViolation(t.events) == nil)
        var fromSecond = Self.connected(tabs: 3, selected: 1)
        TabBarGrammarTests.switchTo(0, &fromSecond, TabBarGrammarTests.firstSwitch)
        #expect(firstViolation(fromSecond.events) == nil)
    }

    @Test func aTabBarOnlyWhileConnectingAndWithItsSelectedTabInRange() {
        #expect(firstViolation(Self.connected(late: true).events)?.got.contains("tabBar") == true)
        #expect(firstViolation(Self.connected(tabs: 2, selected: 2).events) != nil)
        #expect(firstViolation(Self.connected(tabs: 0).events) != nil)
        // Without it, the same switch is no tab bar's.
        var plain = TabBarGrammarTests.connected(tabs: nil)
        TabBarGrammarTests.switchTo(1, &plain, TabBarGrammarTests.firstSwitch)
        #expect(firstViolation(plain.events) != nil)
    }
}
