import Protocol

/// Describes the app a worker process hosts: how to make its delegates and its view
/// controllers. Hand it to `WorkerRuntime.run(_:)` from your worker executable's `main`.
///
/// The factories run on the main thread, when the host's `connect` (delegates, root
/// controller) and `push` (further controllers) arrive.
public struct WorkerApp: Sendable {
    /// Makes the app delegate (once, on connect).
    public var makeApplicationDelegate: @MainActor @Sendable () -> any ApplicationDelegate
    /// Makes the scene delegate (once, on connect).
    public var makeSceneDelegate: @MainActor @Sendable () -> any UISceneDelegate
    /// Makes a new view controller for a name the host sends (`root` of `connect`, `vc` of
    /// `push`) and the push's payload (nil when the request carried none, and for `root`).
    /// The controller's `restorationIdentifier` must be that name, else the operation fails.
    public var makeViewController: @MainActor @Sendable (String, JSONValue?) -> UIViewController
    /// Whether the app supports scenes, as its manifest tells UIKit (docs/LIFECYCLE.md §3d):
    /// `.app` for an app without scene support, which gets the app delegate's lifecycle and
    /// never a scene delegate; `.scene` for a scene-based one; nil (the default): whichever
    /// the host asks for in its `hello` (`connect … "lifecycle"`), scene-based when it asks
    /// for none. The worker declares the kind in its `ready`.
    public var lifecycle: LifecycleKind?
    /// Whether the root is the storyboard's initial controller (docs/LIFECYCLE.md §3c): UIKit
    /// makes it (`init(coder:)`, reported `initWithCoder`, then `awakeFromNib`) before the
    /// scene's `willConnectTo`, and loads it after. False (the default): a root made in code,
    /// which loads after `willConnectTo` with nothing before.
    public var rootFromStoryboard = false
    /// One turn of the app's run loop between requests (the `UIKit` module's: `RunLoop.main`'s
    /// due timers fire): returns the milliseconds until the next timer is due, nil for none.
    /// Runs while the worker waits for a request and before each read. nil (the default):
    /// the app has no run loop of its own; main-queue work still runs.
    public var runLoopTurn: (@MainActor @Sendable () -> Int32?)?
    /// Posts a lifecycle notification (`UIApplicationDidBecomeActiveNotification`, …) to the
    /// app's observers, right after the callback that owes it (`CallbackName.postedNotifications`);
    /// each is traced. nil (the default): none are posted or traced.
    public var lifecycleNotificationPoster: (@MainActor @Sendable (CallbackName) -> Void)?

    /// An app made of these factories; `makeViewController` receives each request's name and
    /// payload (the item a `push` shows, say).
    public init(
        makeApplicationDelegate: @escaping @MainActor @Sendable () -> any ApplicationDelegate,
        makeSceneDelegate: @escaping @MainActor @Sendable () -> any UISceneDelegate,
        makeViewController: @escaping @MainActor @Sendable (String, JSONValue?) -> UIViewController
    ) {
        self.makeApplicationDelegate = makeApplicationDelegate
        self.makeSceneDelegate = makeSceneDelegate
        self.makeViewController = makeViewController
    }

    /// An app made of these factories, whose `makeViewController` needs only the name.
    public init(
        makeApplicationDelegate: @escaping @MainActor @Sendable () -> any ApplicationDelegate,
        makeSceneDelegate: @escaping @MainActor @Sendable () -> any UISceneDelegate,
        makeViewController: @escaping @MainActor @Sendable (String) -> UIViewController
    ) {
        self.init(
            makeApplicationDelegate: makeApplicationDelegate,
            makeSceneDelegate: makeSceneDelegate,
            makeViewController: { name, _ in makeViewController(name) }
        )
    }
}

/// The worker process's entry point.
public enum WorkerRuntime {
    /// Runs `app` as a scene worker: speaks the protocol on stdin/stdout until the host
    /// disconnects or terminates the scene (exit 0), closes stdin (exit 0), or the handshake
    /// fails (exit 2). Never returns. Call it on the main thread, once, from your worker
    /// executable's `main`.
    ///
    /// Besides the protocol it: asks for SIGKILL when the parent dies, exits 1 at once when
    /// `SCENEHOST_HOST_PID` is set and is not the parent's pid (the host is already gone),
    /// ignores SIGPIPE, and points file descriptor 1 at stderr so that `print` from app code
    /// cannot corrupt the protocol stream (the protocol goes to a private copy of the
    /// original stdout).
    public static func run(_ app: WorkerApp) -> Never {
        MainActor.assumeIsolated {
            WorkerProcess.run(app: app, faults: FaultPlan())
        }
    }

    /// Runs the default recording app (`WorkerApp.recording`) with the test faults given in
    /// `arguments`; see `WorkerApp.runDefaultWorker(arguments:)`.
    public static func runDefaultWorker(arguments: [String]) -> Never {
        WorkerApp.runDefaultWorker(arguments: arguments)
    }
}
