/// A scene's activation state, as `UIScene.ActivationState`.
public enum ActivationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unattached
    case foregroundInactive
    case foregroundActive
    case background

    public var description: String { rawValue }

    /// Whether the scene is on screen (active or inactive).
    public var isForeground: Bool { self == .foregroundInactive || self == .foregroundActive }
}

/// A worker process's state, as LIFECYCLE.md §1 names it:
/// `none` → `launching` → `running` ⇄ `suspended` → `terminated`.
public enum ProcessState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No worker has run for this scene yet.
    case none
    case launching
    case running
    case suspended
    /// The last worker died (whatever the reason); until the next spawn.
    case terminated

    public var description: String { rawValue }

    /// Whether a worker exists (possibly stopped).
    public var isAlive: Bool {
        switch self {
        case .launching, .running, .suspended: true
        case .none, .terminated: false
        }
    }
}

/// Why a worker process ended (LIFECYCLE.md §6).
public enum TerminationReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case disconnected
    case terminated
    case killed
    case crashed
    case watchdog
    case terminateTimeout = "terminate-timeout"
    case backgroundTaskTimeout = "background-task-timeout"
    case jetsam
    case protocolViolation = "protocol-violation"

    public var description: String { rawValue }
}

/// Every callback name the trace writes (LIFECYCLE.md §7), plus `didReceiveNotification`,
/// the project's callback for `notify`.
public enum CallbackName: String, Sendable, Hashable, CaseIterable, CasePositioned, CustomStringConvertible {
    // App delegate.
    case didFinishLaunching
    case configurationForConnecting
    case applicationDidReceiveMemoryWarning
    case applicationWillTerminate
    // Host.
    case didDiscardSceneSessions
    // Scene delegate.
    case willConnectTo
    case sceneWillEnterForeground
    case sceneDidBecomeActive
    case sceneWillResignActive
    case sceneDidEnterBackground
    case stateRestorationActivity
    case sceneDidDisconnect
    case didReceiveNotification
    // View controllers.
    case loadView
    case viewDidLoad
    case viewWillAppear
    case viewDidAppear
    case viewWillDisappear
    case viewDidDisappear
    case viewWillLayoutSubviews
    case viewDidLayoutSubviews
    case viewWillTransition
    case didReceiveMemoryWarning
    case `deinit`
    // Background tasks.
    case beginBackgroundTask
    case backgroundTaskExpiration
    case endBackgroundTask
    // View controllers: presentation and appearance details (LIFECYCLE.md §3a).
    case viewIsAppearing
    case traitCollectionDidChange
    case presentationControllerWillDismiss
    case presentationControllerDidDismiss
    case presentationControllerDidAttemptToDismiss
    // The app level (docs/LIFECYCLE.md §3c): launch, events.
    case willFinishLaunching
    case touchesBegan
    case touchesEnded
    case openURLContexts
    case continueUserActivity
    // The app-based lifecycle (docs/LIFECYCLE.md §3d): the app delegate's own, and UIKit's
    // app-level state restoration.
    case applicationDidBecomeActive
    case applicationWillResignActive
    case applicationDidEnterBackground
    case applicationWillEnterForeground
    case shouldSaveSecureApplicationState
    case shouldRestoreSecureApplicationState
    // A root made the storyboard way (LIFECYCLE.md §3c): before `willConnectTo`.
    case initWithCoder
    case awakeFromNib
    // Containment (LIFECYCLE.md §3a): the child's `willMove(toParent:)`, `didMove(toParent:)`.
    case willMoveToParent
    case didMoveToParent
    // A user's hands (`selectRow`, `typeText`, `tapControl`, `alertAction`, `swipeRow`, `moveRow`): the trace's
    // `value` says which and with what; whatever the app does in response follows as its own
    // changes (`origin: app`).
    case userAction
    // iOS fidelity, round 3 (LIFECYCLE.md §3f): a size-class change's `willTransition(to:with:)`,
    // the window scene's geometry update, the system's ways into a running app.
    case willTransition
    case windowSceneDidUpdate
    case performActionFor
    case userNotificationCenterDidReceive
    case didReceiveRemoteNotification
    // Lifecycle notifications on `NotificationCenter.default` (`postedNotifications` says after
    // which callback), traced by UIKit's names. Only an app on the `UIKit` module posts them.
    case applicationDidFinishLaunchingNotification = "UIApplicationDidFinishLaunchingNotification"
    case applicationDidBecomeActiveNotification = "UIApplicationDidBecomeActiveNotification"
    case applicationWillResignActiveNotification = "UIApplicationWillResignActiveNotification"
    case applicationDidEnterBackgroundNotification = "UIApplicationDidEnterBackgroundNotification"
    case applicationWillEnterForegroundNotification = "UIApplicationWillEnterForegroundNotification"
    case applicationWillTerminateNotification = "UIApplicationWillTerminateNotification"
    case applicationDidReceiveMemoryWarningNotification = "UIApplicationDidReceiveMemoryWarningNotification"
    case sceneWillConnectNotification = "UISceneWillConnectNotification"
    case sceneDidActivateNotification = "UISceneDidActivateNotification"
    case sceneWillDeactivateNotification = "UISceneWillDeactivateNotification"
    case sceneDidEnterBackgroundNotification = "UISceneDidEnterBackgroundNotification"
    case sceneWillEnterForegroundNotification = "UISceneWillEnterForegroundNotification"
    case sceneDidDisconnectNotification = "UISceneDidDisconnectNotification"

    public var description: String { rawValue }

    /// Whether the callback belongs to a view controller (and so carries a `vc`).
    public var isViewControllerCallback: Bool {
        switch self {
        case .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
            .viewWillLayoutSubviews, .viewDidLayoutSubviews, .viewWillTransition, .didReceiveMemoryWarning, .deinit,
            .viewIsAppearing, .traitCollectionDidChange, .presentationControllerWillDismiss,
            .presentationControllerDidDismiss, .presentationControllerDidAttemptToDismiss, .touchesBegan, .touchesEnded,
            .initWithCoder, .awakeFromNib, .willMoveToParent, .didMoveToParent, .willTransition:
            return true
        default:
            return false
        }
    }
}
