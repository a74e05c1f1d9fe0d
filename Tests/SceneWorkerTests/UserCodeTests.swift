import Protocol
import Testing

@testable import SceneWorker

/// A user subclass that records every override into a shared log.
@MainActor
final class LoggingViewController: UIViewController {
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    let log: Log

    init(restorationIdentifier: String, log: Log) {
        self.log = log
        super.init(restorationIdentifier: restorationIdentifier)
    }

    private func note(_ what: String) { log.entries.append("\(restorationIdentifier).\(what)") }

    // A subclass's own deinit runs before the base class reports `deinit`.
    deinit {}

    override func loadView() {
        note("loadView")
        view = View()
    }
    override func viewDidLoad() { note("viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { note("viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { note("viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { note("viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { note("viewDidDisappear") }
    override func viewWillLayoutSubviews() { note("viewWillLayoutSubviews(\(view?.size.description ?? "-"))") }
    override func viewDidLayoutSubviews() { note("viewDidLayoutSubviews") }
    override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        note("viewWillTransition(\(coordinator.fromSize)->\(size))")
    }
    override func didReceiveMemoryWarning() { note("didReceiveMemoryWarning") }
}

/// A view controller whose `loadView` does not set a view.
@MainActor
final class ViewlessViewController: UIViewController {
    override func loadView() {}
}

@MainActor
final class LoggingApplicationDelegate: ApplicationDelegate {
    let log: Log
    init(log: Log) { self.log = log }

    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
        log.entries.append("app.didFinishLaunching(background: \(options.launchedInBackground))")
        return true
    }

    func application(
        _ application: Application,
        configurationForConnecting session: SceneSession,
        options: Scene.ConnectionOptions
    ) -> SceneConfiguration {
        log.entries.append("app.configurationForConnecting(\(session.configuration.name))")
        return SceneConfiguration(name: "Custom", sessionRole: session.role)
    }

    func applicationDidReceiveMemoryWarning(_ application: Application) {
        log.entries.append("app.memoryWarning")
    }

    func applicationWillTerminate(_ application: Application) {
        log.entries.append("app.willTerminate")
    }
}

@MainActor
final class LoggingSceneDelegate: UISceneDelegate {
    let log: Log
    /// Controllers this delegate keeps alive on purpose (a leak).
    var leaked: [UIViewController] = []
    var leakOnDisappear = false

    init(log: Log) { self.log = log }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        log.entries.append(
            "scene.willConnectTo(\(session.persistentIdentifier), \(session.configuration.name), \(scene.window.navigationStack.topViewController?.restorationIdentifier ?? "-"), loaded: \(scene.window.navigationStack.topViewController?.isViewLoaded ?? false))"
        )
    }
    func sceneWillEnterForeground(_ scene: Scene) {
        log.entries.append("scene.willEnterForeground(\(scene.activationState))")
    }
    func sceneDidBecomeActive(_ scene: Scene) {
        log.entries.append("scene.didBecomeActive(\(scene.activationState))")
    }
    func sceneWillResignActive(_ scene: Scene) {
        log.entries.append("scene.willResignActive(\(scene.activationState))")
    }
    func sceneDidEnterBackground(_ scene: Scene) {
        log.entries.append("scene.didEnterBackground(\(scene.activationState))")
    }
    func sceneDidDisconnect(_ scene: Scene) {
        log.entries.append("scene.didDisconnect(\(scene.activationState))")
    }
    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        log.entries.append("scene.stateRestorationActivity")
        return .string("saved")
    }
    func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue) {
        log.entries.append("scene.notification(\(name))")
    }
    func scene(_ scene: Scene, beginBackgroundTaskWith application: Application) {
        log.entries.append("scene.beginBackgroundTask")
        var identifier = BackgroundTaskIdentifier.invalid
        identifier = application.beginBackgroundTask { [log] in
            log.entries.append("scene.expired")
            Application.shared.endBackgroundTask(identifier)
        }
    }
}

@MainActor
@Suite("App code: overrides and delegates are called")
struct UserCodeTests {
    private func makeApp(_ log: Log, sceneDelegate: LoggingSceneDelegate? = nil) -> WorkerApp {
        let delegate = sceneDelegate ?? LoggingSceneDelegate(log: log)
        return WorkerApp(
            makeApplicationDelegate: { LoggingApplicationDelegate(log: log) },
            makeSceneDelegate: { delegate },
            makeViewController: { name in
                name == "Viewless"
                    ? ViewlessViewController(restorationIdentifier: name)
                    : LoggingViewController(restorationIdentifier: name, log: log)
            }
        )
    }

    @Test func subclassOverridesRunAfterEachReport() {
        let log = Log()
        let h = Harness(app: makeApp(log))
        h.connect()
        #expect(
            log.entries == [
                "app.didFinishLaunching(background: false)",
                "app.configurationForConnecting(Default Configuration)",
                "scene.willConnectTo(A, Custom, Root, loaded: false)",
                "Root.loadView", "Root.viewDidLoad", "Root.viewWillAppear", "Root.viewWillLayoutSubviews(390x844)",
                "Root.viewDidLayoutSubviews",
                "scene.willEnterForeground(unattached)", "scene.didBecomeActive(foregroundActive)",
                "Root.viewDidAppear",
            ]
        )
        #expect(
            h.session.scene?.session.configuration
                == SceneConfiguration(name: "Custom", sessionRole: "windowApplication")
        )

        log.entries.removeAll()
        h.send(.push(viewController: "Detail"))
        h.send(.resize(width: 800, height: 600))
        h.send(.memoryWarning)
        h.send(.pop)
        #expect(
            log.entries == [
                "Detail.loadView", "Detail.viewDidLoad", "Root.viewWillDisappear", "Detail.viewWillAppear",
                "Detail.viewWillLayoutSubviews(390x844)", "Detail.viewDidLayoutSubviews", "Root.viewDidDisappear",
                "Detail.viewDidAppear",
                "Root.viewWillTransition(390x844->800x600)", "Detail.viewWillTransition(390x844->800x600)",
                "Detail.viewWillLayoutSubviews(800x600)", "Detail.viewDidLayoutSubviews",
                "app.memoryWarning", "Root.didReceiveMemoryWarning", "Detail.didReceiveMemoryWarning",
                "Detail.viewWillDisappear", "Root.viewWillAppear", "Root.viewWillLayoutSubviews(800x600)",
                "Root.viewDidLayoutSubviews", "Detail.viewDidDisappear", "Root.viewDidAppear",
            ]
        )
        #expect(h.session.scene?.window.navigationStack.topViewController?.navigationController != nil)
    }

    @Test func sceneDelegateAnswersAndStates() {
        let log = Log()
        let h = Harness(app: makeApp(log))
        h.connect()
        log.entries.removeAll()
        h.send(.deactivate)
        h.send(.activate)
        h.send(.enterBackground)
        #expect(h.lastResult == .string("saved"))
        h.send(.notify(name: "sync", value: .bool(true)))
        h.send(.beginBackgroundTask)
        h.send(.expireBackgroundTask)
        h.send(.terminate)
        #expect(
            log.entries == [
                "scene.willResignActive(foregroundActive)", "scene.didBecomeActive(foregroundActive)",
                "scene.willResignActive(foregroundActive)", "scene.didEnterBackground(background)",
                "scene.stateRestorationActivity", "scene.notification(sync)", "scene.beginBackgroundTask",
                "scene.expired", "scene.didDisconnect(unattached)", "app.willTerminate",
            ]
        )
    }

    @Test func anExpirationHandlerThatEndsTheTaskReportsTheEnd() {
        let log = Log()
        let h = Harness(app: makeApp(log))
        h.connect(background: true)
        h.send(.beginBackgroundTask)
        // Ending the task from its handler is the app's own change, reported inside the
        // host's expiration, before its reply.
        #expect(
            h.send(.expireBackgroundTask) == [
                "backgroundTaskExpiration", "change endBackgroundTask", "endBackgroundTask@app", "reply 3",
            ]
        )
        #expect(h.session.application.currentBackgroundTask == nil)
    }

    @Test func aLoadViewThatSetsNoViewGetsOne() {
        let log = Log()
        let h = Harness(app: makeApp(log))
        h.connect(root: "Viewless")
        #expect(h.session.scene?.window.navigationStack.topViewController?.isViewLoaded == true)
    }

    @Test func aLeakedControllerReportsNoDeinit() {
        let log = Log()
        let sceneDelegate = LoggingSceneDelegate(log: log)
        let h = Harness(app: makeApp(log, sceneDelegate: sceneDelegate))
        h.connect()
        h.send(.push(viewController: "Detail"))
        sceneDelegate.leaked = h.session.scene?.window.navigationStack.viewControllers ?? []
        #expect(h.send(.pop).contains("Detail.deinit") == false)
        h.send(.enterBackground)
        // Root leaks too: no deinit at all.
        #expect(h.send(.disconnect) == ["sceneDidDisconnect", "reply 5"])
        // Releasing them after the worker decided to exit reports nothing.
        sceneDelegate.leaked.removeAll()
        #expect(h.session.takeOutput() == [])
    }

    @Test func applicationSharedIsTheSessionsApplication() {
        let h = Harness()
        #expect(Application.shared === h.session.application)
        h.connect()
        #expect(Application.shared.connectedScene === h.session.scene)
        #expect(Application.shared.delegate != nil)
    }

    @Test func anAppCalledBeginWhileATaskRunsGetsInvalid() {
        let h = Harness()
        h.connect()
        h.send(.beginBackgroundTask)
        #expect(h.session.application.beginBackgroundTask(expirationHandler: nil) == .invalid)
        #expect(h.session.takeOutput() == [])
    }
}
