import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// An app written with `import UIKit` (Tests/Fixtures/UIKitApp), driven as a user would: its
/// rows, fields, bar buttons and alerts through the user's operations, what it shows through
/// `inspect`, its lifecycle notifications and timers through the trace.
@Suite struct UIKitAppEndToEndTests {
    private static func configuration() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.worker = [TestWorker.uikitApp]
        return configuration
    }

    /// The rows of the first table of the top controller of a visible tree.
    private static func rows(_ tree: JSONValue) -> [String] {
        guard case .array(let stack)? = tree["stack"], let top = stack.last, case .array(let views)? = top["views"]
        else {
            return []
        }
        for view in views {
            guard case .array(let sections)? = view["table"], case .array(let rows)? = sections.first?["rows"] else {
                continue
            }
            return rows.compactMap { if case .string(let text)? = $0["text"] { text } else { nil } }
        }
        return []
    }

    /// The text of the first field the top controller shows.
    private static func fieldText(_ tree: JSONValue) -> String? {
        guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.last?["views"] else {
            return nil
        }
        for view in views { if view["field"] != nil, case .string(let text)? = view["text"] { return text } }
        return nil
    }

    private static func topController(_ tree: JSONValue) -> String? {
        guard case .array(let stack)? = tree["stack"], case .string(let name)? = stack.last?["vc"] else { return nil }
        return name
    }

    @Test func aUserSelectsARowTypesSavesAndAnswersAnAlert() async throws {
        let host = try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            let list = try await scene.inspect()
            #expect(Self.rows(list) == ["Groceries", "Ideas", "Travel"])
            try await within(TestLimit.event, "select") { try await scene.selectRow(1) }
            let detail = try await scene.inspect()
            #expect(Self.topController(detail) == "DetailViewController", "the app pushed the detail screen")
            try await within(TestLimit.event, "type over the app's limit") {
                try await scene.typeText(String(repeating: "x", count: 41), into: "title")
            }
            #expect(Self.fieldText(try await scene.inspect()) == "Ideas", "the delegate refused the change")
            try await within(TestLimit.launch, "type, save") {
                try await scene.typeText("Big ideas", into: "title")
                try await scene.tapControl("Save")
            }
            let saved = try await scene.inspect()
            #expect(Self.topController(saved) == "ListViewController")
            #expect(Self.rows(saved) == ["Groceries", "Big ideas", "Travel"])
            try await within(TestLimit.launch, "alert") {
                try await scene.tapControl("add")
                let alert = try await scene.inspect()
                #expect(alert["presented"]?["vc"] == "UIAlertController")
                try await scene.alertAction("Add")
            }
            let added = try await scene.inspect()
            #expect(added["presented"] == nil, "the alert is dismissed before its handler runs")
            #expect(Self.rows(added) == ["Groceries", "Big ideas", "Travel", "Untitled"])
            // A final newline is the Return key: the app's textFieldShouldReturn saves.
            try await within(TestLimit.launch, "type and press Return") {
                try await scene.selectRow(1)
                try await scene.typeText("Bigger ideas\n", into: "title")
            }
            let returned = try await scene.inspect()
            #expect(Self.topController(returned) == "ListViewController", "Return saved, as the app's delegate does")
            #expect(Self.rows(returned) == ["Groceries", "Bigger ideas", "Travel", "Untitled"])
            return host
        }
        let callbacks = host.callbacks(of: "A")
        let selected = try #require(callbacks.firstIndex(of: "userAction"))
        #expect(
            callbacks[selected...].prefix(3) == [
                "userAction", "DetailViewController.loadView", "DetailViewController.viewDidLoad",
            ],
            "the app's push follows"
        )
        #expect(host.verifyTrace() == nil)
    }

    /// A swipe on a row and a tap on its Delete: the app's handler removes the row, and the
    /// trace has the user's swipe, with the row and the action.
    @Test func aUserSwipesARowAndTapsDelete() async throws {
        let host = try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            try await within(TestLimit.event, "swipe") { try await scene.swipeRow(1, action: "Delete") }
            #expect(Self.rows(try await scene.inspect()) == ["Groceries", "Travel"])
            try await within(TestLimit.event, "full swipe") { try await scene.swipeRow(1) }
            #expect(Self.rows(try await scene.inspect()) == ["Groceries"])
            return host
        }
        let swipes = host.trace.history.filter { $0.name == "userAction" }.map(\.value)
        #expect(
            swipes == [
                ["op": "swipeRow", "section": 0, "row": 1, "edge": "trailing", "action": "Delete"],
                ["op": "swipeRow", "section": 0, "row": 1, "edge": "trailing"],
            ]
        )
        #expect(host.verifyTrace() == nil)
    }

    /// The Edit button puts the list in editing mode, where the user drags a note elsewhere;
    /// out of it, a drag fails and changes nothing.
    @Test func aUserReordersNotesInEditingMode() async throws {
        let host = try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            await #expect(throws: HostError.self, "not editing") { try await scene.moveRow(0, to: 2) }
            try await within(TestLimit.event, "edit, drag, done") {
                try await scene.tapControl("Edit")
                try await scene.moveRow(0, to: 2)
                try await scene.tapControl("Done")
            }
            #expect(Self.rows(try await scene.inspect()) == ["Ideas", "Travel", "Groceries"])
            return host
        }
        let actions = host.trace.history.filter { $0.name == "userAction" }.map { $0.value?["op"] }
        #expect(actions == ["tapControl", "moveRow", "tapControl"], "the refused drag reported nothing")
        #expect(host.verifyTrace() == nil)
    }

    @Test func everyUserOperationIsRefusedOutsideTheActiveStateAndAMissingTargetChangesNothing() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            let before = host.callbacks(of: "A").count
            await #expect(throws: HostError.self) { try await scene.selectRow(9) }
            await #expect(throws: HostError.self) { try await scene.typeText("x", into: "nowhere") }
            await #expect(throws: HostError.self) { try await scene.tapControl("Nothing") }
            await #expect(throws: HostError.self) { try await scene.alertAction("OK") }
            await #expect(throws: HostError.self) { try await scene.swipeRow(0, action: "Archive") }
            await #expect(throws: HostError.self) { try await scene.swipeRow(0, edge: .leading) }
            await #expect(throws: HostError.self) { try await scene.swipeRow(-1) }
            await #expect(throws: HostError.self) { try await scene.swipeRow(0, action: "") }
            #expect(host.callbacks(of: "A").count == before, "a missing target reports nothing")
            #expect(await scene.status().activation == .foregroundActive, "and the worker lives on")
            // A client's present in the alert style shows a plain controller: the error says
            // why it has nothing to tap, rather than that no alert is presented.
            try await within(TestLimit.event, "present") { try await scene.present("Al", style: .alert) }
            let notAnAlert = await #expect(throws: HostError.self) { try await scene.alertAction("OK") }
            #expect(
                "\(notAnAlert.map { "\($0)" } ?? "")".contains("Al is presented, but it is no UIAlertController"),
                "\(String(describing: notAnAlert))"
            )
            try await within(TestLimit.event, "dismiss") { try await scene.dismiss() }
            try await within(TestLimit.event, "deactivate") { try await scene.deactivate() }
            for operation: SceneOperation in [
                .user(.selectRow(section: 0, row: 0)), .user(.typeText(field: "title", text: "x")),
                .user(.tapControl(control: "add")), .user(.alertAction(title: "Add")),
                .user(.swipeRow(section: 0, row: 0, edge: .trailing, action: nil)),
            ] {
                await #expect(throws: HostError.self, "\(operation) while inactive") {
                    try await scene.perform(operation)
                }
            }
            try await within(TestLimit.launch, "background") {
                try await scene.background()
                try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            }
            await #expect(throws: HostError.self, "inspect of a suspended worker") { _ = try await scene.inspect() }
            #expect(host.verifyTrace() == nil)
        }
    }

    /// What the user types is echoed in the trace: a text whose request or echo would pass
    /// the frame limit is refused before anything is sent, as is a user activity whose echo
    /// would nest past what a trace reader parses.
    @Test func userOperationsAndActivitiesThatCouldNotBeEchoedAreRefused() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            try await within(TestLimit.event, "select") { try await scene.selectRow(0) }
            let huge = String(repeating: "a", count: FrameLimits.defaultMaximumFrameSize)
            await #expect(throws: HostError.self) { try await scene.typeText(huge, into: "title") }
            var deep: JSONValue = 1
            for _ in 0..<SceneLimits.maximumUserInfoDepth + 1 { deep = ["inner": deep] }
            await #expect(throws: HostError.self) { try await scene.continueUserActivity("t", userInfo: deep) }
            #expect(await scene.status().process == .running, "nothing reached the worker")
            try await within(TestLimit.event, "type") { try await scene.typeText("fits", into: "title") }
        }
    }

    /// The autosave count the detail screen shows (its timer's fires), nil when not shown.
    private static func autosaves(_ tree: JSONValue) -> Int? {
        guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.last?["views"],
            case .string(let count)? = views.last?["label"]
        else { return nil }
        return Int(count)
    }

    /// Looks at the screen until the autosave timer has fired more than `count` times, as a
    /// user watching it would; the caller's `within` bounds the wait.
    private static func waitForAutosaves(after count: Int, _ scene: SceneHandle) async throws -> Int {
        while true {
            if let now = autosaves(try await scene.inspect()), now > count { return now }
        }
    }

    /// `RunLoop.main`'s timers fire in the foreground and in the background while the worker
    /// runs; a suspended worker is stopped, and its timer fires again once it is resumed.
    @Test func timersFireInTheForegroundTheBackgroundAndAfterResume() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            try await within(TestLimit.launch, "timers") {
                try await scene.selectRow(0)
                let foreground = try await Self.waitForAutosaves(after: 0, scene)
                #expect(try await scene.inspect()["backgroundTimers"] == nil)
                try await scene.background()
                try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
                try await scene.foreground()
                let resumed = try await Self.waitForAutosaves(after: foreground, scene)
                #expect(resumed > foreground)
                // The autosave stops only when its screen disappears: it was still scheduled
                // when the app could be suspended (a device would fire it late, on resume, in
                // the background), and the tree says so.
                let fires = try await scene.inspect()["backgroundTimers"]
                guard case .int(let count)? = fires else {
                    Issue.record("no backgroundTimers in the tree: \(String(describing: fires))")
                    return
                }
                #expect(count > 0)
            }
            #expect(host.verifyTrace() == nil)
        }
    }

    /// c01: a scene-based app's delegate hears `sceneDidBecomeActive`, and then UIKit posts
    /// the scene's and the application's notifications; each pair in that order.
    @Test func lifecycleNotificationsFollowTheirDelegateMethods() async throws {
        let host = try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "lifecycle") {
                try await scene.connect(root: "ListViewController")
                try await scene.background()
                try await scene.foreground()
                try await scene.memoryWarning()
                try await scene.disconnect()
            }
            return host
        }
        let callbacks = host.callbacks(of: "A")
        func follows(_ callback: String, _ notifications: [String]) -> Bool {
            guard let index = callbacks.firstIndex(of: callback) else { return false }
            return Array(callbacks[(index + 1)...].prefix(notifications.count)) == notifications
        }
        #expect(follows("didFinishLaunching", ["UIApplicationDidFinishLaunchingNotification"]))
        #expect(follows("willConnectTo", ["UISceneWillConnectNotification"]))
        #expect(
            follows(
                "sceneWillEnterForeground",
                ["UISceneWillEnterForegroundNotification", "UIApplicationWillEnterForegroundNotification"]
            )
        )
        #expect(
            follows(
                "sceneDidBecomeActive",
                ["UISceneDidActivateNotification", "UIApplicationDidBecomeActiveNotification"]
            )
        )
        #expect(
            follows(
                "sceneWillResignActive",
                ["UISceneWillDeactivateNotification", "UIApplicationWillResignActiveNotification"]
            )
        )
        // After everything the delegate method did: the background task it began and ended.
        #expect(
            follows(
                "sceneDidEnterBackground",
                [
                    "beginBackgroundTask", "endBackgroundTask", "UISceneDidEnterBackgroundNotification",
                    "UIApplicationDidEnterBackgroundNotification",
                ]
            )
        )
        #expect(
            follows("applicationDidReceiveMemoryWarning", ["UIApplicationDidReceiveMemoryWarningNotification"])
        )
        #expect(follows("sceneDidDisconnect", ["UISceneDidDisconnectNotification"]))
        #expect(!callbacks.contains("applicationDidBecomeActive"), "c01: not the app delegate's method")
        #expect(host.verifyTrace() == nil)
    }

    /// The observers ran (the app's journal, shown in the list's label), and UIKit's forms of
    /// the app delegate's methods ran (no silent no-op).
    @Test func observersAndUIKitFormsRunAndTimersFire() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            try await within(TestLimit.launch, "detail, then back") {
                try await scene.selectRow(0)
                // The autosave timer (every 20 ms on the main run loop) shows its count in the
                // detail screen: look until it fired, as a user would.
                while true {
                    let tree = try await scene.inspect()
                    guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.last?["views"],
                        case .string(let count)? = views.last?["label"], count != ""
                    else { continue }
                    break
                }
                try await scene.background()
                try await scene.foreground()
                try await scene.tapControl("Save")
                try await scene.push("ListViewController")
            }
            let tree = try await scene.inspect()
            guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.last?["views"],
                case .string(let journal)? = views.last?["label"]
            else {
                Issue.record("no journal label in \(tree)")
                return
            }
            #expect(journal.contains("willFinishLaunching(UIKit form)"))
            // Observers after their delegate method, and everything it did, in the state it saw.
            #expect(
                journal.contains(
                    "resign sees active; sceneDidEnterBackground; background sees background; foreground sees background"
                ),
                "\(journal)"
            )
            #expect(journal.contains("observed didBecomeActive"))
            #expect(journal.contains("saved after autosave"), "the timer fired: \(journal)")
            #expect(host.verifyTrace() == nil)
        }
    }
}

extension UIKitAppEndToEndTests {
    /// Runs `body` with a host whose app makes its window in code the `mode` way
    /// (`WINDOW_IN_CODE`, Tests/Fixtures/UIKitApp/SceneDelegate.swift), scene A connected; the
    /// trace verifies afterwards.
    static func withWindowMadeInCode(
        _ mode: String,
        _ body: (SceneHost, SceneHandle) async throws -> Void
    ) async throws {
        var configuration = Self.configuration()
        configuration.workerEnvironment = ["WINDOW_IN_CODE": mode]
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect() }
            try await body(host, scene)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A programmatic app makes its window in `scene(_:willConnectTo:options:)`: its root
    /// replaces the host's, the host's model follows (the app's `setStack`), the trace verifies,
    /// and after a kill the app makes it again.
    @Test func aWindowMadeInCodeReplacesTheHostsRoot() async throws {
        try await Self.withWindowMadeInCode("1") { host, scene in
            #expect(await scene.status().stack == ["ListViewController"])
            #expect(Self.topController(try await scene.inspect()) == "ListViewController")
            #expect(!Self.rows(try await scene.inspect()).isEmpty)
            try await scene.kill()
            try await within(TestLimit.launch, "reconnect") { try await scene.connect() }
            #expect(await scene.status().stack == ["ListViewController"])
        }
    }

    /// An app that reads a controller's `view` before the controller is shown (UIKit would
    /// load it then) stops with a message that says so and what to write instead, which the
    /// connect's error carries: not a bare nil unwrapped, nor a view configured for nothing.
    @Test func aViewReadBeforeItsControllerIsShownStopsTheAppSayingWhy() async throws {
        var configuration = Self.configuration()
        // Without Swift's backtracer, whose reading of the crashed stack AddressSanitizer
        // reports (a false positive, "stack-buffer-underflow" in its memory server): the fatal
        // error is then followed by the runtime's stack trace, where the tail stops.
        configuration.workerEnvironment = ["WINDOW_IN_CODE": "early-view", "SWIFT_BACKTRACE": "enable=no"]
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            do {
                try await within(TestLimit.launch, "connect") { try await scene.connect() }
                Issue.record("connect succeeded")
            } catch let error as HostError {
                guard case .workerExited("A", "connect", .crashed, let detail) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                let said = detail.stderrTail.joined(separator: "\n")
                #expect(said.contains("the view of ListViewController was read before it loaded"), "\(said)")
                #expect(said.contains("Set the view up in the controller's viewDidLoad"), "\(said)")
            }
            #expect(await scene.status().activation == .unattached)
        }
    }

    /// A plain controller as the window's root, made by the storyboard (`Bundle.main`): shown
    /// as the host's root would be, and, as on iOS, it has no navigation controller, so the
    /// app's own push from a row does nothing while the host's push still navigates.
    @Test func aPlainControllerMadeInCodeIsTheWindowsRoot() async throws {
        try await Self.withWindowMadeInCode("plain") { host, scene in
            #expect(await scene.status().stack == ["ListViewController"])
            #expect(Self.topController(try await scene.inspect()) == "ListViewController")
            try await within(TestLimit.event, "select") { try await scene.selectRow(1) }
            #expect(await scene.status().stack == ["ListViewController"])
            try await within(TestLimit.event, "push") { try await scene.push("Detail") }
            #expect(await scene.status().stack == ["ListViewController", "Detail"])
        }
    }

    /// A container root that embeds a child in `viewDidLoad` the way Apple's documentation
    /// does (`addChild`, the child's view added and pinned, `didMove(toParent:)`) runs as
    /// written: the child joins right after the launch, its view is the one the container
    /// added, the visible tree shows each view once, and the trace verifies.
    @Test func aContainerRootEmbedsItsChildAsAppleWritesIt() async throws {
        try await Self.withWindowMadeInCode("dashboard") { host, scene in
            let tree = try await scene.inspect()
            let dashboard = tree["stack"]?[0]
            #expect(dashboard?["vc"] == "DashboardViewController", "\(tree)")
            #expect(dashboard?["views"] == [["label": "3 notes"]], "\(tree)")
            #expect(dashboard?["children"]?[0]?["vc"] == "ListViewController", "\(tree)")
            let notes = dashboard?["children"]?[0]?["views"]?[0]?["table"]?[0]?["rows"]
            #expect(notes == [["text": "Groceries"], ["text": "Ideas"], ["text": "Travel"]], "\(tree)")
            // The child's callbacks, after the launch's (the root appeared), as the app's change.
            let history = host.trace.history
            let rootAppeared = history.firstIndex {
                $0.viewController == "DashboardViewController" && $0.name == "viewDidAppear"
            }
            let childEvents = history.indices.filter { history[$0].viewController == "ListViewController" }
            #expect(history[childEvents.first ?? 0].name == "willMoveToParent", "\(history)")
            #expect(childEvents.contains { history[$0].name == "viewDidAppear" }, "\(history)")
            #expect(rootAppeared.map { root in childEvents.allSatisfy { $0 > root } } == true, "\(history)")
            #expect(childEvents.allSatisfy { history[$0].origin == "app" }, "\(history)")
        }
    }

    /// A tab bar made in code (a navigation controller and a plain controller): the host's
    /// model and the trace follow its tabs, the host switches them, and after a kill the app
    /// makes it again.
    @Test func aTabBarMadeInCodeIsTheWindowsRoot() async throws {
        try await Self.withWindowMadeInCode("tabs") { host, scene in
            #expect(await scene.status().tabs == [["ListViewController"], ["SettingsViewController"]])
            // Not loaded yet, the settings tab shows the title of the item the app gave it.
            #expect(try await scene.inspect()["tabs"]?["titles"] == ["Notes", "Preferences"])
            try await within(TestLimit.event, "select") { try await scene.selectTab(1) }
            #expect(await scene.status().stack == ["SettingsViewController"])
            let settings = try await scene.inspect()
            #expect(Self.topController(settings) == "SettingsViewController")
            // The notes tab shows its root's title; the settings tab was given the item
            // "Preferences", whose title its `title = "Settings"` in viewDidLoad replaced, as
            // UIKit's title setter does.
            #expect(settings["tabs"]?["titles"] == ["Notes", "Settings"], "\(settings)")
            // Built in code with colors, a stack view and Auto Layout: the arranged order is
            // what the user sees, and the constraints are kept as activated (not solved).
            #expect(
                settings["stack"]?[0]?["views"]
                    == [
                        ["label": "Account"], ["field": "Name", "placeholder": "Name", "text": ""], ["button": "Save"],
                        ["identifier": "status", "label": "constraints 5, arranged 3, width 390, phone"],
                    ],
                "\(settings)"
            )
            try await within(TestLimit.event, "select") { try await scene.selectTab(0) }
            try await within(TestLimit.event, "select") { try await scene.selectRow(1) }
            #expect(await scene.status().stack == ["ListViewController", "DetailViewController"])
            try await scene.kill()
            try await within(TestLimit.launch, "reconnect") { try await scene.connect() }
            #expect(await scene.status().selectedTab == 0)
            #expect(await scene.status().tabs?.count == 2)
        }
    }

    /// A split view made in code, collapsed as on an iPhone: its primary column's stack is the
    /// window's, and a row's push goes onto it.
    @Test func aSplitViewMadeInCodeIsCollapsedToItsPrimaryColumn() async throws {
        try await Self.withWindowMadeInCode("split") { host, scene in
            #expect(await scene.status().stack == ["ListViewController"])
            try await within(TestLimit.event, "select") { try await scene.selectRow(0) }
            #expect(await scene.status().stack == ["ListViewController", "DetailViewController"])
        }
    }

    /// A compose sheet presented in a navigation controller of its own, as UIKit apps present
    /// one for its bar buttons: the user sees it with them, and either button dismisses it
    /// (from the sheet, or from its navigation controller), its deinit in the trace.
    @Test func aComposeSheetInItsOwnNavigationControllerComesAndGoes() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect") { try await scene.connect(root: "ListViewController") }
            for button in ["Cancel", "Done"] {
                try await within(TestLimit.event, "compose") { try await scene.tapControl("Compose") }
                let tree = try await scene.inspect()
                #expect(tree["presented"]?["vc"] == "ComposeViewController")
                #expect(tree["presented"]?["title"] == "New note")
                try await within(TestLimit.event, button) { try await scene.tapControl(button) }
                #expect(try await scene.inspect()["presented"] == nil)
            }
            let composeEvents = host.trace.history.filter { $0.viewController == "ComposeViewController" }
            #expect(composeEvents.filter { $0.name == "deinit" }.count == 2)
            #expect(host.verifyTrace() == nil)
        }
    }
}
