import Protocol
import Testing

@testable import SceneWorker

/// Records, in every callback, its name, `Application.shared.applicationState` and what the
/// launch options said.
@MainActor
final class StateLog {
    var entries: [String] = []

    func note(_ what: String) {
        entries.append("\(what):\(Application.shared.applicationState.rawValue)")
    }
}

@MainActor
private final class StateAppDelegate: ApplicationDelegate {
    let log: StateLog
    init(log: StateLog) { self.log = log }

    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
        log.note("will(\(options.launchedInBackground), \(options.url ?? "-"))")
        return true
    }
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
        log.note("did(\(options.launchedInBackground), \(options.url ?? "-"))")
        return true
    }
    func applicationWillTerminate(_ application: Application) { log.note("willTerminate") }
    func application(_ application: Application, didDiscardSceneSessions sessions: Set<String>) {
        log.note("didDiscard(\(sessions.sorted().joined(separator: ",")))")
    }
}

@MainActor
private final class StateSceneDelegate: UISceneDelegate {
    let log: StateLog
    init(log: StateLog) { self.log = log }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        log.note("willConnectTo(\(options.url ?? "-"))")
    }
    func sceneWillEnterForeground(_ scene: Scene) { log.note("willEnterForeground") }
    func sceneDidBecomeActive(_ scene: Scene) { log.note("didBecomeActive") }
    func sceneWillResignActive(_ scene: Scene) { log.note("willResignActive") }
    func sceneDidEnterBackground(_ scene: Scene) { log.note("didEnterBackground") }
    func sceneDidDisconnect(_ scene: Scene) { log.note("didDisconnect") }
    func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>) {
        log.note("openURLContexts(\(contexts.map(\.absoluteString).sorted().joined(separator: ",")))")
    }
    func scene(_ scene: Scene, continue userActivity: UserActivity) {
        log.note("continue(\(userActivity.activityType), \(userActivity.userInfoJSON?.jsonText ?? "-"))")
    }
}

/// Logs its size at layout and size transitions; a tap on "List" pushes "Detail", as a real
/// list does when a row is tapped.
@MainActor
private final class StateViewController: UIViewController {
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    let log: StateLog
    init(title: String, log: StateLog) {
        self.log = log
        super.init(restorationIdentifier: title)
    }
    deinit {}

    override func viewWillAppear(_ animated: Bool) { log.note("\(restorationIdentifier).viewWillAppear") }
    override func viewWillLayoutSubviews() {
        log.note("\(restorationIdentifier).layout(\(view?.size.description ?? "-"))")
    }
    override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        log.note("\(restorationIdentifier).viewWillTransition")
    }
    override func viewDidAppear(_ animated: Bool) { log.note("\(restorationIdentifier).viewDidAppear") }
    override func touchesBegan(_ touches: Set<Touch>) { log.note("\(restorationIdentifier).touchesBegan") }
    override func touchesEnded(_ touches: Set<Touch>) {
        log.note("\(restorationIdentifier).touchesEnded")
        if restorationIdentifier == "List" {
            navigationController?.pushViewController(StateViewController(title: "Detail", log: log), animated: true)
        }
    }
}

/// A controller ported from UIKit: it overrides UIKit's `touchesBegan(_:with:)` forms and
/// names `UITouch` and `UIOpenURLContext`.
private final class PortedViewController: UIViewController {
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    let log: StateLog
    init(log: StateLog) {
        self.log = log
        super.init(restorationIdentifier: "Root")
    }
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        log.note("began \(touches.map(\.phase.rawValue)) \(event == nil ? "no event" : "event")")
    }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        log.note("ended \(touches.map(\.phase.rawValue))")
    }
}

private final class PortedSceneDelegate: UIWindowSceneDelegate {
    var window: UIWindow?
    let log: StateLog
    init(log: StateLog) { self.log = log }
    func scene(_ scene: UIScene, openURLContexts contexts: Set<UIOpenURLContext>) {
        log.note("open \(contexts.map(\.absoluteString))")
    }
}

/// The app level (docs/LIFECYCLE.md §3c): launch options, the app's state in every
/// callback, the launch size, taps.
@MainActor
@Suite("The app level: launch, app state, taps")
struct AppLevelTests {
    private func makeApp(_ log: StateLog) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { StateAppDelegate(log: log) },
            makeSceneDelegate: { StateSceneDelegate(log: log) },
            makeViewController: { StateViewController(title: $0, log: log) }
        )
    }

    /// The app becomes active after the scene's `sceneDidBecomeActive` (c01), in time for the
    /// top controller's `viewDidAppear`.
    @Test func aForegroundLaunchWithAURLAndASize() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        let said = h.send(
            .connect(ConnectOptions(session: "A", url: "notes://item/7", width: 844, height: 390))
        )
        #expect(Array(said.prefix(2)) == ["willFinishLaunching", "didFinishLaunching"])
        #expect(!said.contains { $0.hasSuffix("viewWillTransition") })
        #expect(
            log.entries == [
                "will(false, notes://item/7):inactive", "did(false, notes://item/7):inactive",
                "willConnectTo(notes://item/7):inactive", "Root.viewWillAppear:inactive",
                "Root.layout(844x390):inactive", "willEnterForeground:inactive", "didBecomeActive:inactive",
                "Root.viewDidAppear:active",
            ]
        )
        log.entries.removeAll()
        h.send(.deactivate)
        h.send(.enterBackground)
        h.send(.enterForeground)
        h.send(.enterBackground)
        h.send(.terminate)
        #expect(
            log.entries == [
                "willResignActive:active", "didEnterBackground:background", "willEnterForeground:background",
                "didBecomeActive:inactive", "willResignActive:active", "didEnterBackground:background",
                "didDisconnect:background", "willTerminate:background",
            ]
        )
    }

    @Test func aBackgroundLaunchIsInTheBackgroundFromItsFirstCallback() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        h.connect(background: true)
        #expect(
            log.entries == [
                "will(true, -):background", "did(true, -):background", "willConnectTo(-):background",
                "didEnterBackground:background",
            ]
        )
        log.entries.removeAll()
        // The first trip to the foreground: the first appearance, at the default size.
        h.send(.enterForeground)
        #expect(
            log.entries == [
                "Root.viewWillAppear:background", "Root.layout(390x844):background",
                "willEnterForeground:background", "didBecomeActive:inactive", "Root.viewDidAppear:active",
            ]
        )
    }

    /// UIKit's forms of the touch callbacks and the URL contexts compile and run.
    @Test func portedTouchAndURLCodeRuns() {
        let log = StateLog()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { StateAppDelegate(log: log) },
                makeSceneDelegate: { PortedSceneDelegate(log: log) },
                makeViewController: { _ in PortedViewController(log: log) }
            )
        )
        h.connect()
        log.entries.removeAll()
        h.send(.tap)
        h.send(.openURL(url: "notes://1"))
        #expect(
            log.entries == [
                "began [\"began\"] no event:active", "ended [\"ended\"]:active", "open [\"notes://1\"]:active",
            ]
        )
    }

    @Test func aTapReachesTheFrontmostControllerOnlyWhileActive() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        h.connect()
        #expect(h.send(.tap) == ["Root.touchesBegan", "Root.touchesEnded", "reply 2"])
        h.send(.push(viewController: "Second"))
        #expect(h.send(.tap) == ["Second.touchesBegan", "Second.touchesEnded", "reply 4"])
        log.entries.removeAll()
        // Inactive: running, but no events. Then background.
        h.send(.deactivate)
        #expect(h.send(.tap) == ["failure 6 illegalTransition"])
        h.send(.enterBackground)
        #expect(h.send(.tap) == ["failure 8 illegalTransition"])
        #expect(!log.entries.contains { $0.contains("touches") })
    }

    @Test func aURLAndAUserActivityReachTheSceneDelegateInTheForeground() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        h.connect()
        log.entries.removeAll()
        #expect(h.send(.openURL(url: "notes://7")) == ["openURLContexts", "reply 2"])
        #expect(
            h.send(.continueUserActivity(activityType: "edit", userInfo: .object(["id": .int(7)])))
                == ["continueUserActivity", "reply 3"]
        )
        #expect(log.entries == ["openURLContexts(notes://7):active", #"continue(edit, {"id":7}):active"#])
        // A background scene comes forward with it: after sceneWillEnterForeground, before
        // sceneDidBecomeActive (real-ios-orders-3 c07, c10).
        h.send(.enterBackground)
        log.entries.removeAll()
        #expect(
            h.send(.openURL(url: "notes://8")) == [
                "sceneWillEnterForeground", "openURLContexts", "sceneDidBecomeActive", "reply 5",
            ]
        )
        #expect(log.entries.contains("openURLContexts(notes://8):inactive"))
        h.send(.enterBackground)
        #expect(
            h.send(.continueUserActivity(activityType: "edit", userInfo: nil)) == [
                "sceneWillEnterForeground", "continueUserActivity", "sceneDidBecomeActive", "reply 7",
            ]
        )
    }

    @Test func theAppDelegateHearsOfDiscardedSessions() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        let said = h.send(.connect(ConnectOptions(session: "A", background: true, discardedSessions: ["X", "Y"])))
        #expect(
            Array(said.prefix(4)) == [
                "willFinishLaunching", "didFinishLaunching", "didDiscardSceneSessions", "configurationForConnecting",
            ]
        )
        #expect(log.entries.contains("didDiscard(X,Y):background"))
        log.entries.removeAll()
        #expect(h.send(.didDiscardSceneSessions(sessions: ["Z"])) == ["didDiscardSceneSessions", "reply 2"])
        #expect(log.entries == ["didDiscard(Z):background"])
    }

    @Test func theDefaultAppOpensAndClosesWindowsAsChanges() {
        let h = Harness()
        h.connect()
        let opened = h.sendRaw(.notify(name: "openWindow", value: .null))
        #expect(
            opened.contains(
                .change(.requestSceneSessionActivation(session: nil, activityType: "openWindow", userInfo: nil))
            )
        )
        let closed = h.sendRaw(.notify(name: "closeWindow", value: .string("B")))
        #expect(closed.contains(.change(.requestSceneSessionDestruction(session: "B"))))
        // No scene connected: the app's error handler hears of it, nothing is sent.
        let lone = Application(sink: CallbackSink())
        var failure: SceneRequestError?
        lone.requestSceneSessionActivation(nil, userActivity: nil) { failure = $0 }
        #expect(failure != nil)
    }

    @Test func appCodeHandlingATouchNavigatesAfterTheTap() {
        let log = StateLog()
        let h = Harness(app: makeApp(log))
        h.connect(root: "List")
        #expect(
            h.send(.tap) == [
                "List.touchesBegan", "List.touchesEnded", "reply 2", "change push Detail", "Detail.loadView@app",
                "Detail.viewDidLoad@app", "List.viewWillDisappear@app", "Detail.viewWillAppear@app",
                "Detail.viewIsAppearing@app", "Detail.viewWillLayoutSubviews@app", "Detail.viewDidLayoutSubviews@app",
                "List.viewDidDisappear@app", "Detail.viewDidAppear@app",
            ]
        )
    }
}
