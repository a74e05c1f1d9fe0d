import Protocol
import Testing

@testable import SceneWorker

/// A scene delegate whose callbacks run whatever the test hands it: app code acting on its own.
@MainActor
final class ScriptedSceneDelegate: UISceneDelegate {
    var onWillConnect: ((Scene) -> Void)?
    var onWillResignActive: ((Scene) -> Void)?
    var onDidEnterBackground: ((Scene) -> Void)?
    var onNotification: ((Scene, String) -> Void)?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        onWillConnect?(scene)
    }
    func sceneWillResignActive(_ scene: Scene) { onWillResignActive?(scene) }
    func sceneDidEnterBackground(_ scene: Scene) { onDidEnterBackground?(scene) }
    func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue) {
        onNotification?(scene, name)
    }
}

/// A controller that pushes another controller every time it appears (an app bug: navigation
/// without end).
@MainActor
final class EndlessPusher: UIViewController {
    override func viewDidAppear(_ animated: Bool) {
        navigationController?.pushViewController(
            EndlessPusher(restorationIdentifier: "\(restorationIdentifier)+"),
            animated: true
        )
    }
}

/// The app's own changes (docs/LIFECYCLE.md §3b): exactly what the worker writes, when it
/// writes it, and what it refuses.
@MainActor
@Suite("App-initiated changes")
struct AppInitiatedChangeTests {
    private func scriptedApp(_ delegate: ScriptedSceneDelegate) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { delegate },
            makeViewController: { name in
                name.hasPrefix("Pusher")
                    ? EndlessPusher(restorationIdentifier: name) : UIViewController(restorationIdentifier: name)
            }
        )
    }

    private func navigation(_ h: Harness) -> NavigationController {
        h.session.scene!.window.navigationStack
    }

    private func titles(_ h: Harness) -> [String] {
        navigation(h).viewControllers.map(\.restorationIdentifier)
    }

    /// Every expected callback of `names`, marked as the app's.
    private func app(_ names: [String]) -> [String] { names.map { $0 + "@app" } }

    @Test func anAppPushIsTheChangeThenItsCallbacksExactly() {
        let h = Harness()
        h.connect()
        // App code on the main thread, outside any host request: it runs at once.
        navigation(h).pushViewController(UIViewController(restorationIdentifier: "Detail"), animated: true)
        let detail = { (name: CallbackName) in
            WorkerMessage.callback(CallbackEvent(name, viewController: "Detail", origin: .app))
        }
        let root = { (name: CallbackName) in
            WorkerMessage.callback(CallbackEvent(name, viewController: "Root", origin: .app))
        }
        let output = h.session.takeOutput()
        #expect(
            output == [
                .change(.push(viewController: "Detail")),
                detail(.loadView), detail(.viewDidLoad), root(.viewWillDisappear), detail(.viewWillAppear),
                detail(.viewIsAppearing), detail(.viewWillLayoutSubviews), detail(.viewDidLayoutSubviews),
                root(.viewDidDisappear),
                detail(.viewDidAppear),
            ]
        )
        var bytes: [UInt8] = []
        for message in output.prefix(2) { message.encode(into: &bytes) }
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"type":"change","op":"push","vc":"Detail"}"# + "\n"
                + #"{"type":"callback","name":"loadView","vc":"Detail","origin":"app"}"# + "\n"
        )
        #expect(titles(h) == ["Root", "Detail"])
    }

    @Test func anAppPopReportsItsDeinitAsTheApps() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        let popped = navigation(h).popViewController(animated: true)
        #expect(popped?.restorationIdentifier == "Detail")
        #expect(h.render(h.session.takeOutput()) == ["change pop"] + app(popCallbacks()))
        _ = consume popped
        #expect(h.render(h.session.takeOutput()) == ["Detail.deinit@app"])
        #expect(titles(h) == ["Root"])
    }

    /// `popToViewController`: `change popTo` with the controller's index, then a pop to the
    /// root's callbacks with that controller where the root appears; the root's is a
    /// `popToRoot`, the top's nothing, a controller not in the stack ignored.
    @Test func anAppPopToAControllerIsTheChangeThenItsCallbacks() {
        let h = Harness()
        h.connect()
        for name in ["Detail", "More", "Extra"] { h.send(.push(viewController: name)) }
        _ = h.session.takeOutput()

        #expect(
            navigation(h).popToViewController(UIViewController(restorationIdentifier: "Stray"), animated: true) == nil
        )
        #expect(navigation(h).popToViewController(navigation(h).viewControllers[3], animated: true) == nil)
        #expect(h.session.takeOutput().isEmpty)
        #expect(titles(h) == ["Root", "Detail", "More", "Extra"])

        // The controller held, not read from the stack in the same statement: a debug build
        // keeps such a temporary copy of the stack, and the controllers the pop releases with
        // it, alive until the statement ends.
        do {
            let detail = navigation(h).viewControllers[1]
            #expect(navigation(h).popToViewController(detail, animated: true) == nil)
        }
        #expect(
            h.render(h.session.takeOutput())
                == ["change popTo 1"]
                + app([
                    "Extra.viewWillDisappear", "Detail.viewWillAppear", "Detail.viewIsAppearing", "More.deinit",
                    "Extra.viewDidDisappear", "Detail.viewDidAppear", "Extra.deinit",
                ])
        )
        #expect(titles(h) == ["Root", "Detail"])

        do {
            let root = navigation(h).viewControllers[0]
            #expect(navigation(h).popToViewController(root, animated: true) == nil)
        }
        #expect(h.render(h.session.takeOutput()) == ["change popToRoot"] + app(popCallbacks() + ["Detail.deinit"]))
        #expect(titles(h) == ["Root"])
    }

    /// Two pops to controllers asked for inside a request's callback wait for its reply: the
    /// first releases the second's target (its deinit in its place: the waiting one does not
    /// keep it), and the second finds it gone and is dropped, nothing sent.
    @Test func aWaitingPopToAControllerAPopBeforeItReleasedIsDropped() {
        let delegate = ScriptedSceneDelegate()
        delegate.onNotification = { scene, _ in
            let stack = scene.window.navigationStack
            let first = stack.viewControllers[1]
            let second = stack.viewControllers[2]
            stack.popToViewController(first, animated: true)
            stack.popToViewController(second, animated: true)
        }
        let h = Harness(app: scriptedApp(delegate))
        h.connect()
        for name in ["A", "B", "C"] { h.send(.push(viewController: name)) }
        #expect(
            h.send(.notify(name: "back", value: .null))
                == ["didReceiveNotification", "reply 5", "change popTo 1"]
                + app([
                    "C.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.deinit", "C.viewDidDisappear",
                    "A.viewDidAppear", "C.deinit",
                ])
        )
        #expect(titles(h) == ["Root", "A"])
    }

    /// Popping a tab's stack while another tab is shown is refused, nothing sent: the model
    /// follows the shown stack only (the pop used to pop the shown stack instead).
    @Test func poppingAStackNotOnScreenIsRefused() throws {
        let h = Harness()
        var options = ConnectOptions(session: "A", root: "First")
        options.tabs = ["First", "Second"]
        h.send(.connect(options))
        h.send(.push(viewController: "Detail"))
        h.send(.push(viewController: "More"))
        let firstTab = navigation(h)
        h.send(.selectTab(index: 1))
        h.send(.push(viewController: "Extra"))
        _ = h.session.takeOutput()
        #expect(firstTab !== navigation(h))
        firstTab.popToRootViewController(animated: true)
        #expect(firstTab.popViewController(animated: true) == nil)
        firstTab.popToViewController(firstTab.viewControllers[1], animated: true)
        #expect(h.session.takeOutput().isEmpty)
        #expect(firstTab.viewControllers.map(\.restorationIdentifier) == ["First", "Detail", "More"])
        #expect(titles(h) == ["Second", "Extra"])
    }

    /// `belowLaysOut`: the revealed controller never laid out (or the size changed since).
    private func popCallbacks(
        _ top: String = "Detail",
        to below: String = "Root",
        belowLaysOut: Bool = false
    )
        -> [String]
    {
        ["\(top).viewWillDisappear", "\(below).viewWillAppear", "\(below).viewIsAppearing"]
            + (belowLaysOut ? ["\(below).viewWillLayoutSubviews", "\(below).viewDidLayoutSubviews"] : [])
            + ["\(top).viewDidDisappear", "\(below).viewDidAppear"]
    }

    @Test func aPushRequestedDuringAHostRequestWaitsForItsReply() {
        let h = Harness()
        h.connect()
        #expect(
            h.send(.notify(name: "openDetail", value: .string("Detail")))
                == ["didReceiveNotification", "reply 2", "change push Detail"] + app(push("Detail", over: "Root"))
        )
        #expect(titles(h) == ["Root", "Detail"])
        #expect(
            h.send(.notify(name: "closeDetail", value: .null))
                == ["didReceiveNotification", "reply 3", "change pop"] + app(popCallbacks() + ["Detail.deinit"])
        )
        #expect(titles(h) == ["Root"])
    }

    @Test func aWaitingPushTheTransitionMadeIllegalIsDropped() {
        let delegate = ScriptedSceneDelegate()
        delegate.onWillResignActive = { scene in
            // Legal when asked (still foreground), illegal once the background transition is done.
            scene.window.navigationStack.pushViewController(
                UIViewController(restorationIdentifier: "Late"),
                animated: true
            )
        }
        let h = Harness(app: scriptedApp(delegate))
        h.connect()
        #expect(
            h.send(.enterBackground) == [
                "sceneWillResignActive", "sceneDidEnterBackground", "stateRestorationActivity", "reply 2",
            ]
        )
        #expect(titles(h) == ["Root"])
    }

    @Test func navigationInTheBackgroundIsRefusedWithNothingSent() {
        let h = Harness()
        h.connect(background: true)
        navigation(h).pushViewController(UIViewController(restorationIdentifier: "Detail"), animated: true)
        #expect(navigation(h).popViewController(animated: true) == nil)
        #expect(h.session.takeOutput() == [])
        #expect(titles(h) == ["Root"])
        // Through a notification too: the push is refused when asked, nothing follows the reply.
        #expect(h.send(.notify(name: "openDetail", value: .null)) == ["didReceiveNotification", "reply 2"])
        #expect(titles(h) == ["Root"])
    }

    @Test func poppingTheRootOrPushingTwiceIsRefused() {
        let h = Harness()
        h.connect()
        #expect(navigation(h).popViewController(animated: true) == nil)
        let root = navigation(h).viewControllers[0]
        navigation(h).pushViewController(root, animated: true)
        navigation(h).pushViewController(UIViewController(restorationIdentifier: ""), animated: true)
        #expect(h.session.takeOutput() == [])
        #expect(titles(h) == ["Root"])
    }

    @Test func beginBackgroundTaskInsideSceneDidEnterBackgroundInterleaves() {
        let h = Harness(app: .recording(RecordingOptions(beginsBackgroundTaskOnEnterBackground: true)))
        h.connect()
        #expect(
            h.send(.enterBackground) == [
                "sceneWillResignActive", "sceneDidEnterBackground", "change beginBackgroundTask",
                "beginBackgroundTask@app", "stateRestorationActivity", "reply 2",
            ]
        )
        #expect(h.session.application.currentBackgroundTask != nil)
        #expect(
            h.send(.notify(name: "finishUpload", value: .null)) == [
                "didReceiveNotification", "change endBackgroundTask", "endBackgroundTask@app", "reply 3",
            ]
        )
        #expect(h.session.application.currentBackgroundTask == nil)
        // The next trip to the background begins a new task.
        h.send(.enterForeground)
        #expect(h.send(.enterBackground).contains("beginBackgroundTask@app"))
    }

    @Test func theUploadEndsWhenItsTaskExpires() {
        let h = Harness(app: .recording(RecordingOptions(beginsBackgroundTaskOnEnterBackground: true)))
        h.connect(background: true)
        #expect(h.session.application.currentBackgroundTask != nil)
        #expect(
            h.send(.expireBackgroundTask) == [
                "backgroundTaskExpiration", "change endBackgroundTask", "endBackgroundTask@app", "reply 2",
            ]
        )
    }

    @Test func aSecondTaskIsInvalidAndSendsNothing() {
        let h = Harness()
        h.connect(background: true)
        let application = h.session.application
        let first = application.beginBackgroundTask(expirationHandler: nil)
        #expect(first != .invalid)
        #expect(h.render(h.session.takeOutput()) == ["change beginBackgroundTask", "beginBackgroundTask@app"])
        #expect(application.beginBackgroundTask(expirationHandler: nil) == .invalid)
        // An identifier that is not the running task's is ignored.
        application.endBackgroundTask(BackgroundTaskIdentifier(rawValue: first.rawValue + 1))
        application.endBackgroundTask(.invalid)
        #expect(h.session.takeOutput() == [])
        // The host's own request is refused too while the app's task runs.
        #expect(h.send(.beginBackgroundTask) == ["failure 2 illegalTransition"])
        application.endBackgroundTask(first)
        #expect(h.render(h.session.takeOutput()) == ["change endBackgroundTask", "endBackgroundTask@app"])
        application.endBackgroundTask(first)
        #expect(h.session.takeOutput() == [])
    }

    @Test func noBackgroundTaskWithoutAConnectedScene() {
        let h = Harness()
        #expect(h.session.application.beginBackgroundTask(expirationHandler: nil) == .invalid)
        let delegate = ScriptedSceneDelegate()
        var identifier: BackgroundTaskIdentifier?
        delegate.onWillConnect = { _ in identifier = Application.shared.beginBackgroundTask(expirationHandler: nil) }
        let connecting = Harness(app: scriptedApp(delegate))
        #expect(!connecting.connect().contains { $0.contains("BackgroundTask") })
        #expect(identifier == .invalid)
    }

    @Test func theHostsOwnBackgroundTaskIsNotAnAppChange() {
        let h = Harness()
        h.connect(background: true)
        #expect(h.send(.beginBackgroundTask) == ["beginBackgroundTask", "reply 2"])
        #expect(h.send(.endBackgroundTask) == ["endBackgroundTask", "reply 3"])
    }

    @Test func aRestoredStackIsSetInWillConnectToAndLoadsBottomFirst() {
        let h = Harness()
        let saved: JSONValue = .object(["stack": .array([.string("Root"), .string("List"), .string("Detail")])])
        #expect(
            h.connect(reconnect: true, restoration: saved) == [
                "willFinishLaunching", "didFinishLaunching", "willConnectTo", "change setStack Root,List,Detail",
                "Root.loadView", "Root.viewDidLoad",
                "List.loadView@app", "List.viewDidLoad@app", "Detail.loadView@app", "Detail.viewDidLoad@app",
            ] + firstAppearance("Detail") + ["reply 1"]
        )
        #expect(titles(h) == ["Root", "List", "Detail"])
        // Popping reveals an already loaded controller: the plain pop order.
        #expect(h.send(.pop) == popCallbacks("Detail", to: "List", belowLaysOut: true) + ["Detail.deinit", "reply 2"])
    }

    @Test func aRestoredStackInTheBackgroundLoadsAndSavesItself() {
        let h = Harness()
        let saved: JSONValue = .object(["stack": .array([.string("Root"), .string("Detail")])])
        #expect(
            h.connect(background: true, reconnect: true, restoration: saved) == [
                "willFinishLaunching", "didFinishLaunching", "willConnectTo", "change setStack Root,Detail",
                "Root.loadView",
                "Root.viewDidLoad", "Detail.loadView@app", "Detail.viewDidLoad@app", "sceneDidEnterBackground",
                "stateRestorationActivity", "reply 1",
            ]
        )
        guard case .object(let state)? = h.lastResult else {
            Issue.record("no state saved")
            return
        }
        #expect(state["stack"] == .array([.string("Root"), .string("Detail")]))
    }

    @Test func aSavedStackWithAnotherRootIsNotRestored() {
        let h = Harness()
        let saved: JSONValue = .object(["stack": .array([.string("Home"), .string("Detail")])])
        #expect(!h.connect(reconnect: true, restoration: saved).contains { $0.hasPrefix("change") })
        #expect(titles(h) == ["Root"])
    }

    /// Inside `willConnectTo` the stack keeps the root the scene connected with; once the
    /// scene is shown, the same call is the app's change (here a push: AppStackReplacementTests).
    @Test func setViewControllersInWillConnectToKeepsTheRootAndLaterIsAChange() {
        let delegate = ScriptedSceneDelegate()
        delegate.onWillConnect = { scene in
            let navigationController = scene.window.navigationStack
            let root = navigationController.viewControllers[0]
            let other = UIViewController(restorationIdentifier: "Other")
            navigationController.setViewControllers([other], animated: false)
            navigationController.setViewControllers([root, other, other], animated: false)
            navigationController.setViewControllers(
                [root, UIViewController(restorationIdentifier: "")],
                animated: false
            )
            navigationController.setViewControllers([], animated: false)
            // Unchanged: nothing to report.
            navigationController.setViewControllers([root], animated: false)
        }
        let h = Harness(app: scriptedApp(delegate))
        #expect(!h.connect().contains { $0.hasPrefix("change") })
        let root = navigation(h).viewControllers[0]
        navigation(h).setViewControllers([root, UIViewController(restorationIdentifier: "Late")], animated: false)
        #expect(h.render(h.session.takeOutput()).first == "change push Late")
        #expect(titles(h) == ["Root", "Late"])
    }

    @Test func navigationWithoutEndStopsAtTheLimit() {
        let h = Harness(app: scriptedApp(ScriptedSceneDelegate()))
        h.connect(root: "Pusher")
        let output = h.send(.notify(name: "go", value: .null))
        #expect(output == ["didReceiveNotification", "reply 2"])
        navigation(h).pushViewController(EndlessPusher(restorationIdentifier: "Pusher1"), animated: true)
        let changes = h.render(h.session.takeOutput()).filter { $0.hasPrefix("change push") }
        #expect(changes.count == WorkerSession.maximumAppChangesPerTurn)
        // The next host frame starts a new turn: the app may navigate again.
        h.send(.notify(name: "go", value: .null))
        navigation(h).popViewController(animated: true)
        #expect(h.render(h.session.takeOutput()).first == "change pop")
    }

    /// A background task's begin and end are app changes like any: a loop that begins and
    /// ends one per item stops at the turn's limit (its output grew without end). A begin
    /// leaves room for its end, which is never refused: here after one push, an odd count,
    /// every task begun is ended.
    @Test func backgroundTasksBegunAndEndedInALoopStopAtTheLimit() {
        let h = Harness(app: scriptedApp(ScriptedSceneDelegate()))
        h.connect()
        h.send(.notify(name: "go", value: .null))
        navigation(h).pushViewController(UIViewController(restorationIdentifier: "Detail"), animated: true)
        var begun = 0
        for _ in 0..<100 {
            let task = h.session.application.beginBackgroundTask(withName: "item")
            if task != .invalid { begun += 1 }
            h.session.application.endBackgroundTask(task)
        }
        let changes = h.render(h.session.takeOutput()).filter { $0.hasPrefix("change") }
        #expect(changes.count == WorkerSession.maximumAppChangesPerTurn - 1, "\(changes.count)")
        #expect(begun == (WorkerSession.maximumAppChangesPerTurn - 1) / 2)
        #expect(h.session.application.currentBackgroundTask == nil)
        // The next host frame starts a new turn.
        h.send(.notify(name: "go", value: .null))
        #expect(h.session.application.beginBackgroundTask(withName: "more") != .invalid)
    }

    @Test func changesAfterDisconnectAreDropped() {
        let delegate = ScriptedSceneDelegate()
        let h = Harness(app: scriptedApp(delegate))
        h.connect()
        h.send(.enterBackground)
        #expect(h.send(.disconnect).last == "reply 3")
        #expect(h.session.application.beginBackgroundTask(expirationHandler: nil) == .invalid)
        #expect(h.session.takeOutput() == [])
    }

    @Test func theBackgroundTaskOptionParses() {
        #expect(
            DefaultWorkerOptions.parse(["--background-task-on-enter-background"])
                == .run(FaultPlan(), RecordingOptions(beginsBackgroundTaskOnEnterBackground: true))
        )
        #expect(DefaultWorkerOptions.parse(["--background-task-on-enter-background=1"]) != .help)
    }
}
