import Protocol

/// Identifies a background task, as `UIBackgroundTaskIdentifier`.
public struct BackgroundTaskIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The raw identifier; `0` is `invalid`.
    public let rawValue: Int

    /// An identifier with the given raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// No task: what `beginBackgroundTask` returns when it cannot start one.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)

    /// `"task 3"`.
    public var description: String { "task \(rawValue)" }
}

/// What `application(_:didFinishLaunchingWithOptions:)` receives.
public struct LaunchOptions: Sendable, Hashable {
    /// Whether the process was launched straight into the background (system-requested).
    public var launchedInBackground: Bool
    /// Whether the launch reconnects an existing scene session.
    public var reconnecting: Bool
    /// The URL the app was opened with (`connect … "url"`), if any.
    public var url: String?

    /// Launch options.
    public init(launchedInBackground: Bool = false, reconnecting: Bool = false, url: String? = nil) {
        self.launchedInBackground = launchedInBackground
        self.reconnecting = reconnecting
        self.url = url
    }
}

/// The app's delegate (process lifecycle), shaped like `UIApplicationDelegate`.
///
/// Every method has a default implementation that does nothing (or returns the obvious
/// answer). The runtime reports each call itself, just before it runs.
@MainActor
public protocol ApplicationDelegate: AnyObject {
    /// The process is launching, before state restoration (trace: `willFinishLaunching`),
    /// with the same options `didFinishLaunching` gets. The answer is ignored. Default: `true`.
    func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) -> Bool

    /// UIKit's form of the same callback, run right after the one above (trace: the same
    /// `willFinishLaunching`): `launchOptions` is always nil. Default: `true`.
    func application(
        _ application: Application,
        willFinishLaunchingWithOptions launchOptions: [Application.LaunchOptionsKey: Any]?
    ) -> Bool

    /// The process finished launching (trace: `didFinishLaunching`). The answer is ignored,
    /// as UIKit ignores it for scene-based apps. Default: `true`.
    func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) -> Bool

    /// UIKit's form of the same callback, run right after the one above (trace: the same
    /// `didFinishLaunching`): `launchOptions` is always nil. Default: `true`.
    func application(
        _ application: Application,
        didFinishLaunchingWithOptions launchOptions: [Application.LaunchOptionsKey: Any]?
    ) -> Bool

    /// Chooses the configuration of a new scene session (trace: `configurationForConnecting`).
    /// Not called when an existing session reconnects. Default: `session.configuration`.
    func application(
        _ application: Application,
        configurationForConnecting session: SceneSession,
        options: Scene.ConnectionOptions
    ) -> SceneConfiguration

    /// The host sent a memory warning (trace: `applicationDidReceiveMemoryWarning`); every
    /// view controller's `didReceiveMemoryWarning` follows, root first. Default: nothing.
    func applicationDidReceiveMemoryWarning(_ application: Application)

    /// Scene sessions of this app were discarded (trace: `didDiscardSceneSessions`, from this
    /// worker): by the user while this worker ran, or, right after `didFinishLaunching`, while
    /// none ran. `sessions` are their persistent identifiers. Default: nothing.
    func application(_ application: Application, didDiscardSceneSessions sessions: Set<String>)

    /// UIKit's form of the same callback, run right after the one above (trace: the same
    /// `didDiscardSceneSessions`): the discarded sessions. Default: nothing.
    func application(_ application: Application, didDiscardSceneSessions sceneSessions: Set<SceneSession>)

    /// The process is about to end (trace: `applicationWillTerminate`). View controllers do not
    /// deinit afterwards: the process simply exits. Default: nothing.
    func applicationWillTerminate(_ application: Application)

    // The app-based lifecycle (docs/LIFECYCLE.md §3d): called only in an app without scene
    // support (`WorkerApp.lifecycle = .app`); a scene-based app's scene delegate gets these.

    /// The app became active (trace: `applicationDidBecomeActive`). Default: nothing.
    func applicationDidBecomeActive(_ application: Application)

    /// The app is about to become inactive (trace: `applicationWillResignActive`). Default: nothing.
    func applicationWillResignActive(_ application: Application)

    /// The app entered the background (trace: `applicationDidEnterBackground`). Default: nothing.
    func applicationDidEnterBackground(_ application: Application)

    /// The app is about to leave the background (trace: `applicationWillEnterForeground`).
    /// Default: nothing.
    func applicationWillEnterForeground(_ application: Application)

    /// UIKit's app-level state restoration, asked on every entry to the background (trace:
    /// `shouldSaveSecureApplicationState`): encode the state into `coder` and answer `true` to
    /// have the host store it. Default: `false` (nothing saved).
    func application(_ application: Application, shouldSaveSecureApplicationState coder: NSCoder) -> Bool

    /// A silent push (trace: `didReceiveRemoteNotification`), in whatever state the app is in:
    /// `userInfo` is the push's payload. Call `completionHandler` when done. Default: calls it
    /// with `.noData`.
    func application(
        _ application: Application,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (BackgroundFetchResult) -> Void
    )

    /// Between `willFinishLaunching` and `didFinishLaunching` of a launch that has saved state
    /// (trace: `shouldRestoreSecureApplicationState`, with the state as `restoration`): `coder`
    /// holds it. Default: `false`.
    func application(_ application: Application, shouldRestoreSecureApplicationState coder: NSCoder) -> Bool
}

extension ApplicationDelegate {
    /// Returns `true`.
    public func application(_ application: Application, willFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
        true
    }

    /// Returns `true`.
    public func application(_ application: Application, didFinishLaunchingWithOptions options: LaunchOptions) -> Bool {
        true
    }

    /// Returns `true`.
    public func application(
        _ application: Application,
        didFinishLaunchingWithOptions launchOptions: [Application.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }

    /// Returns `true`.
    public func application(
        _ application: Application,
        willFinishLaunchingWithOptions launchOptions: [Application.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }

    /// Does nothing.
    public func application(_ application: Application, didDiscardSceneSessions sceneSessions: Set<SceneSession>) {}

    /// Returns `session.configuration`.
    public func application(
        _ application: Application,
        configurationForConnecting session: SceneSession,
        options: Scene.ConnectionOptions
    ) -> SceneConfiguration {
        session.configuration
    }

    /// Does nothing.
    public func applicationDidReceiveMemoryWarning(_ application: Application) {}

    public func application(
        _ application: Application,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (BackgroundFetchResult) -> Void
    ) {
        completionHandler(.noData)
    }

    /// Does nothing.
    public func applicationWillTerminate(_ application: Application) {}

    /// Does nothing.
    public func application(_ application: Application, didDiscardSceneSessions sessions: Set<String>) {}
}

/// The worker process's application object, as `UIApplication.shared`.
///
/// A worker holds one scene, so the application has at most one `connectedScene`.
@MainActor
public final class Application {
    /// The application of this worker process (the most recently created one, when tests
    /// create several sessions in one process).
    public static var shared: Application {
        if let current {
            return current
        }
        let application = Application(sink: nil)
        current = application
        return application
    }

    private static var current: Application?

    /// The app delegate, once the scene connected.
    public internal(set) var delegate: (any ApplicationDelegate)?

    /// The worker's scene, once connected (in an app process, the scene whose request runs).
    public internal(set) var connectedScene: Scene?
    /// Every scene connected in an app process, in the order they connected (empty in a
    /// process of one scene).
    var appProcessScenes: [Scene] = []

    /// The connected scene became active and the application not yet (c01): from its
    /// `sceneDidBecomeActive` until the application's `didBecomeActive` notification.
    /// Unchecked exclusivity, like every flag set on each request: a plain load or store.
    @exclusivity(unchecked) var isActivating = false

    /// `applicationState` while no scene is attached: set at launch and at disconnect.
    var unattachedState: State = .inactive
    /// An app-based app's own activation (docs/LIFECYCLE.md §3d): it has no connected scene.
    var appActivation: ActivationState?

    /// The running background task, if any.
    public var currentBackgroundTask: BackgroundTaskIdentifier? { task?.identifier }

    struct Task {
        var identifier: BackgroundTaskIdentifier
        var expirationHandler: (() -> Void)?
        var expired: Bool
    }

    /// The background task of the scene whose request runs: each scene of an app process has
    /// its own (the host keeps each scene's clock); kept by the scene's session, here while no
    /// session runs this application.
    private(set) var task: Task? {
        get { changeHandler.map { $0.backgroundTask } ?? taskWithoutSession }
        set {
            if let changeHandler { changeHandler.backgroundTask = newValue } else { taskWithoutSession = newValue }
        }
    }
    private var taskWithoutSession: Task?
    private var lastIdentifier = 0
    /// Where the application reports: the sink of the session it runs for (in an app process,
    /// the session of the scene whose request runs).
    var sink: CallbackSink?
    /// The session whose scene this application runs: it checks and reports the app's own
    /// background tasks. nil for an application without a session (nothing is connected).
    var changeHandler: WorkerSession? {
        get { changeLink?.session }
        set { changeLink = newValue?.link }
    }
    /// The link to `changeHandler` (a session is reached through its `SessionLink`).
    private weak var changeLink: SessionLink?
    /// The scenes of this app's process, when the host runs several here: code that runs
    /// between the host's frames (a main-queue block, a timer) ends a task in the scene that
    /// holds it, not in the scene the last frame came for. Not weak, as the sessions' is not
    /// (`WorkerSession.appProcess`): the run loop keeps the process for good once made, and a
    /// weak reference gave it a side table, which made each of the five retains and releases
    /// of it per frame the runtime's slow path (about 500 instructions a request).
    unowned(unsafe) var appProcess: WorkerAppProcess?
    /// Set while the runtime carries out the host's `beginBackgroundTask` request: the task
    /// the scene delegate begins then is the host's, not an app-initiated change.
    var beginsHostTask = false

    /// Where the app's scene requests go (the session's sink).
    var changeSink: CallbackSink? { sink }

    init(sink: CallbackSink?) {
        self.sink = sink
    }

    /// Makes `self` what `Application.shared` returns.
    func makeShared() {
        Application.current = self
    }

    /// Starts a background task (trace: `beginBackgroundTask`), which keeps the worker running
    /// in the background until `endBackgroundTask(_:)` or the host's background-task limit.
    /// Shortly before the limit the host asks the worker to run `expirationHandler`
    /// (trace: `backgroundTaskExpiration`); a handler should end the task, and a task still
    /// running at the limit gets the worker killed.
    ///
    /// Called from app code on its own (for example in `sceneDidEnterBackground`) this is an
    /// app-initiated change the host follows (docs/LIFECYCLE.md §3b). It runs at once, even
    /// in the middle of a host transition, as in UIKit. At most one task runs at a time: while
    /// one does, or while no scene is connected, this returns `.invalid` and reports nothing.
    public func beginBackgroundTask(
        withName name: String? = nil,
        expirationHandler: (() -> Void)? = nil
    ) -> BackgroundTaskIdentifier {
        if beginsHostTask {
            return startTask(expirationHandler: expirationHandler, origin: nil)
        }
        guard let changeHandler, changeHandler.appMayBeginBackgroundTask() else { return .invalid }
        return startTask(expirationHandler: expirationHandler, origin: .app)
    }

    /// Ends the background task `identifier` (trace: `endBackgroundTask`). An identifier that
    /// is not the running task's is ignored. From app code (its expiration handler included)
    /// this is an app-initiated change, reported at once.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        guard identifier != .invalid else { return }
        if task?.identifier != identifier, let holder = appProcess?.session(holdingTask: identifier) {
            // Another window's task (the app's process carries several): ended, and reported,
            // as that window's; the application then goes back to the window it was with.
            let current = changeHandler
            holder.takeApplication()
            defer { current?.takeApplication() }
            guard holder.appMayEndBackgroundTask() else { return }
            finishTask(origin: .app)
            return
        }
        guard let task, task.identifier == identifier else { return }
        guard let changeHandler, changeHandler.appMayEndBackgroundTask() else { return }
        finishTask(origin: .app)
    }

    /// Starts a task; `origin` `.app` reports it as the app's change first.
    func startTask(expirationHandler: (() -> Void)?, origin: CallbackOrigin?) -> BackgroundTaskIdentifier {
        guard task == nil else { return .invalid }
        lastIdentifier += 1
        let identifier = BackgroundTaskIdentifier(rawValue: lastIdentifier)
        task = Task(identifier: identifier, expirationHandler: expirationHandler, expired: false)
        if origin == .app {
            sink?.send(.change(.beginBackgroundTask))
        }
        sink?.report(CallbackEvent(.beginBackgroundTask, origin: origin))
        return identifier
    }

    /// Ends the running task; `origin` `.app` reports it as the app's change first.
    func finishTask(origin: CallbackOrigin?) {
        guard task != nil else { return }
        if origin == .app {
            sink?.send(.change(.endBackgroundTask))
        }
        sink?.report(CallbackEvent(.endBackgroundTask, origin: origin))
        task = nil
    }

    /// Runs the running task's expiration handler (trace: `backgroundTaskExpiration`).
    func expireBackgroundTask() {
        guard var task else { return }
        task.expired = true
        self.task = task
        sink?.report(.backgroundTaskExpiration)
        task.expirationHandler?()
    }
}
