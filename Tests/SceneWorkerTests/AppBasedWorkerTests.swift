import Protocol
import Testing

@testable import SceneWorker

/// An app without scene support (docs/LIFECYCLE.md §3d): its declaration in `ready`, the
/// app-delegate callbacks with the app's state inside each, and app-level restoration.
@MainActor
@Suite struct AppBasedWorkerTests {
    @MainActor
    private final class AppDelegate: ApplicationDelegate {
        let log: StateLog
        var restored: [String: JSONValue]?
        init(log: StateLog) { self.log = log }

        func applicationDidBecomeActive(_ application: Application) { log.note("didBecomeActive") }
        func applicationWillResignActive(_ application: Application) { log.note("willResignActive") }
        func applicationDidEnterBackground(_ application: Application) { log.note("didEnterBackground") }
        func applicationWillEnterForeground(_ application: Application) { log.note("willEnterForeground") }
        func applicationWillTerminate(_ application: Application) { log.note("willTerminate") }
        func application(_ application: Application, shouldSaveSecureApplicationState coder: NSCoder) -> Bool {
            log.note("save")
            coder.encode(.string("saved"), forKey: "marker")
            return true
        }
        func application(_ application: Application, shouldRestoreSecureApplicationState coder: NSCoder) -> Bool {
            restored = coder.values
            log.note("restore(\(coder.decodeValue(forKey: "marker")?.jsonText ?? "-"))")
            return true
        }
    }

    @MainActor
    private final class NoScene: UISceneDelegate {
        func sceneDidBecomeActive(_ scene: Scene) { Issue.record("a scene callback in an app-based app") }
    }

    private static func app(_ log: StateLog, declares lifecycle: LifecycleKind?) -> WorkerApp {
        var app = WorkerApp(
            makeApplicationDelegate: { AppDelegate(log: log) },
            makeSceneDelegate: { NoScene() },
            makeViewController: { name in UIViewController(restorationIdentifier: name) }
        )
        app.lifecycle = lifecycle
        return app
    }

    /// A harness past the handshake of an app-based app.
    private static func harness(_ app: WorkerApp) -> Harness {
        let harness = Harness(app: app, handshake: false)
        harness.session.handle(.hello(protocolVersion: ProtocolVersion.current))
        _ = harness.session.takeOutput()
        return harness
    }

    @Test func anAppThatDeclaresNoScenesSaysSoInReadyWhateverTheHostAsks() {
        let log = StateLog()
        let session = WorkerSession(app: Self.app(log, declares: .app), pid: 7)
        session.handle(.hello(protocolVersion: ProtocolVersion.current, lifecycle: .scene))
        #expect(session.takeOutput() == [.ready(protocolVersion: ProtocolVersion.current, pid: 7, lifecycle: .app)])
        // The default worker follows the host's request.
        let either = WorkerSession(app: .recording, pid: 8)
        either.handle(.hello(protocolVersion: ProtocolVersion.current, lifecycle: .app))
        #expect(either.takeOutput() == [.ready(protocolVersion: ProtocolVersion.current, pid: 8, lifecycle: .app)])
    }

    @Test func theAppDelegateHearsEveryTransitionInItsState() {
        let log = StateLog()
        let harness = Self.harness(Self.app(log, declares: .app))
        #expect(
            harness.connect() == [
                "willFinishLaunching", "didFinishLaunching", "Root.loadView", "Root.viewDidLoad", "Root.viewWillAppear",
                "Root.viewIsAppearing", "Root.viewWillLayoutSubviews",
                "Root.viewDidLayoutSubviews", "applicationDidBecomeActive", "Root.viewDidAppear", "reply 1",
            ]
        )
        #expect(Application.shared.connectedScene == nil)
        harness.send(.deactivate)
        harness.send(.activate)
        #expect(harness.send(.enterBackground).contains("shouldSaveSecureApplicationState"))
        #expect(harness.lastResult == .object(["marker": .string("saved")]))
        harness.send(.enterForeground)
        harness.send(.enterBackground)
        harness.send(.terminate)
        #expect(
            log.entries == [
                "didBecomeActive:active", "willResignActive:active", "didBecomeActive:active",
                "willResignActive:active", "didEnterBackground:background", "save:background",
                "willEnterForeground:background", "didBecomeActive:active",
                "willResignActive:active", "didEnterBackground:background", "save:background",
                "willTerminate:background",
            ]
        )
        // No scene to disconnect: refused, nothing run.
        let other = Self.harness(Self.app(StateLog(), declares: .app))
        other.connect()
        other.send(.enterBackground)
        #expect(other.send(.disconnect) == ["failure 3 illegalTransition"])
    }

    @Test func savedStateComesBackBetweenTheTwoLaunchCallbacks() {
        let log = StateLog()
        let harness = Self.harness(Self.app(log, declares: .app))
        let said = harness.connect(background: true, restoration: .object(["marker": .string("old")]))
        #expect(
            Array(said.prefix(3)) == [
                "willFinishLaunching", "shouldRestoreSecureApplicationState", "didFinishLaunching",
            ]
        )
        #expect(log.entries.first == "restore(\"old\"):background")
    }
}
