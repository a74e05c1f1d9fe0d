import Protocol

/// A scene configuration, as `UISceneConfiguration`: a name and the session role it is for.
public struct SceneConfiguration: Sendable, Hashable {
    /// The configuration's name (`"Default Configuration"` unless the host says otherwise).
    public var name: String
    /// The session role (`"windowApplication"`, …).
    public var sessionRole: String
    /// The scene delegate's class, as Info.plist's `UISceneDelegateClassName` says it: the
    /// runtime makes the scene's delegate with its `init()`. nil: the app's own default (the
    /// `UIKit` module's `@main` takes the class named `SceneDelegate` in the app delegate's
    /// module; `WorkerApp.makeSceneDelegate` otherwise).
    public var delegateClass: UIResponder.Type?

    /// A configuration named `name` for `sessionRole`.
    public init(name: String, sessionRole: String) {
        self.name = name
        self.sessionRole = sessionRole
    }

    public static func == (lhs: SceneConfiguration, rhs: SceneConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.sessionRole == rhs.sessionRole
            && lhs.delegateClass.map(ObjectIdentifier.init) == rhs.delegateClass.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(sessionRole)
        hasher.combine(delegateClass.map(ObjectIdentifier.init))
    }
}

/// A scene session, as `UISceneSession`: the persistent record of a window that outlives
/// its worker process. The host keeps it; the worker sees a copy.
@MainActor
public final class SceneSession {
    /// The session's identifier, stable across worker processes.
    public let persistentIdentifier: String
    /// The session role (`"windowApplication"`, …).
    public let role: String
    /// The configuration: the host's, or the app delegate's answer to
    /// `application(_:configurationForConnecting:options:)` for a new session.
    public internal(set) var configuration: SceneConfiguration
    /// The activity the scene saved for restoration last time (`stateRestorationActivity(for:)`
    /// returned it), read back in `scene(_:willConnectTo:options:)`; nil for a new session, or
    /// when what was saved is no activity (see `Scene.ConnectionOptions.restoration`).
    public internal(set) var stateRestorationActivity: UserActivity?

    /// The role of an app's windows, `UISceneSession.Role.windowApplication`'s raw value.
    static let windowApplicationRole = "UIWindowSceneSessionRoleApplication"

    init(persistentIdentifier: String, role: String, configuration: SceneConfiguration) {
        self.persistentIdentifier = persistentIdentifier
        self.role = role
        self.configuration = configuration
    }
}

/// A scene, as `UIScene`: one per worker process, always a `UIWindowScene`. Hashable by
/// identity, as UIKit's (for `connectedScenes`).
@MainActor
public class Scene: Hashable {
    public nonisolated static func == (lhs: Scene, rhs: Scene) -> Bool { lhs === rhs }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// What `scene(_:willConnectTo:options:)` and `configurationForConnecting` receive.
    public struct ConnectionOptions: Sendable {
        /// The session's restoration state, as the scene delegate last returned it from
        /// `stateRestorationActivity(for:)` (nil for a new session, or when none was saved).
        public var restoration: JSONValue?
        /// The URL the scene is opened with (`URLContexts` in UIKit), if any.
        public var url: String?

        /// The user activity the scene is opened with (a scene another scene asked for).
        public var userActivity: UserActivity?

        /// UIKit's form of `userActivity`: the activities the scene is opened with.
        @MainActor public var userActivities: Set<UserActivity> { userActivity.map { [$0] } ?? [] }

        /// UIKit's form of `url`: the URLs the scene is opened with (`scene(_:openURLContexts:)`
        /// is not called for them, as on iOS). The host sends only URLs; a `url` that is none
        /// (only options the app made itself can hold one) gives no context.
        public var urlContexts: Set<OpenURLContext> {
            guard let url, SceneLimits.urlRefusal(url) == nil else { return [] }
            return [OpenURLContext(absoluteString: url)]
        }

        /// The home-screen quick action the scene is opened with, if any: at a launch,
        /// `windowScene(_:performActionFor:completionHandler:)` is not called for it (as on iOS).
        public var shortcutItem: ApplicationShortcutItem?

        /// The tapped notification the scene is opened with, if any: the notification center's
        /// delegate also hears of it, before the scene becomes active (as on iOS).
        public var notificationResponse: NotificationResponse?

        /// Options carrying `restoration`, `url`, `userActivity`, `shortcutItem` and
        /// `notificationResponse`.
        public init(
            restoration: JSONValue? = nil,
            url: String? = nil,
            userActivity: UserActivity? = nil,
            shortcutItem: ApplicationShortcutItem? = nil,
            notificationResponse: NotificationResponse? = nil
        ) {
            self.restoration = restoration
            self.url = url
            self.userActivity = userActivity
            self.shortcutItem = shortcutItem
            self.notificationResponse = notificationResponse
        }
    }

    /// The scene's session.
    public let session: SceneSession

    /// The activation state. It changes right after a `will` callback returns
    /// (`sceneWillEnterForeground`, `sceneWillResignActive`) and right before a `did` callback
    /// runs (`sceneDidBecomeActive`, `sceneDidEnterBackground`, `sceneDidDisconnect`).
    // Unchecked exclusivity: read and set on every request, a plain load or store (the
    // runtime's check cost about 100 instructions per access).
    @exclusivity(unchecked) public internal(set) var activationState: ActivationState = .unattached

    /// The scene's window, holding its navigation stack: the one the runtime made, or one
    /// the app made in `scene(_:willConnectTo:options:)` and showed (`makeKeyAndVisible()`).
    public internal(set) var window: Window

    /// The scene delegate.
    public internal(set) var delegate: (any UISceneDelegate)?

    /// The activity the scene is doing, as UIKit's: the app sets it, and a scene delegate
    /// usually returns it from `stateRestorationActivity(for:)`.
    public var userActivity: UserActivity?

    /// How the scene's windows reach it (`Window.windowScene`).
    let link = WindowSceneLink()

    init(session: SceneSession, window: Window) {
        self.session = session
        self.window = window
        link.scene = self as? UIWindowScene
        window.windowScene = link.scene
    }

    // Isolated: app code may hold a scene on another thread and release it there, and a
    // window reads its link on the main thread (see `WindowSceneLink`).
    isolated deinit {
        // First: see `WindowSceneLink`.
        link.scene = nil
    }
}

/// The scene's delegate (scene lifecycle), shaped like `UIWindowSceneDelegate`.
///
/// Every method has a default implementation that does nothing (or returns nil). The runtime
/// reports each call itself, just before it runs.
@MainActor
public protocol UISceneDelegate: AnyObject {
    /// The scene is connecting (trace: `willConnectTo`). `options.restoration` carries the
    /// session's saved state, if any. The window and its root controller exist already; the
    /// root's view loads right after this returns.
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions)

    /// Trace: `sceneWillEnterForeground`.
    func sceneWillEnterForeground(_ scene: Scene)

    /// Trace: `sceneDidBecomeActive`.
    func sceneDidBecomeActive(_ scene: Scene)

    /// Trace: `sceneWillResignActive`.
    func sceneWillResignActive(_ scene: Scene)

    /// Trace: `sceneDidEnterBackground`.
    func sceneDidEnterBackground(_ scene: Scene)

    /// Trace: `sceneDidDisconnect`. The worker releases its view controllers (or, on terminate,
    /// tells the app delegate) and exits right after.
    func sceneDidDisconnect(_ scene: Scene)

    /// The state to save for the session (trace: `stateRestorationActivity`), asked on every
    /// entry to the background. The host stores it and hands it back in `willConnectTo` when
    /// the session reconnects in a new process. Default: nil (nothing saved).
    func stateRestorationActivity(for scene: Scene) -> JSONValue?

    /// UIKit's form of the state to save: an activity, stored as its `jsonValue` and read back
    /// from `session.stateRestorationActivity`. When it returns an activity, the `JSONValue`
    /// form is not asked. Default: nil.
    func stateRestorationActivity(for scene: Scene) -> UserActivity?

    /// The host delivered a notification (trace: `didReceiveNotification`).
    func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue)

    /// The host asked the scene to start background work (its `beginBackgroundTask` operation).
    /// Implementations call `application.beginBackgroundTask(expirationHandler:)`; if no task
    /// is running afterwards the operation fails. The default implementation begins a task
    /// whose expiration handler does nothing (it does not end the task, so the host's
    /// background-task limit applies). Not itself a trace callback.
    func scene(_ scene: Scene, beginBackgroundTaskWith application: Application)

    /// The scene is asked to open URLs (trace: `openURLContexts`): the host's `openURL` to a
    /// connected scene, delivered in the foreground. A scene launched for a URL gets it in
    /// `willConnectTo`'s `options.url` instead. Default: nothing.
    func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>)

    /// The scene is handed a user activity (trace: `continueUserActivity`), delivered in the
    /// foreground. Default: nothing.
    func scene(_ scene: Scene, continue userActivity: UserActivity)

    /// Right after `scene(_:willConnectTo:options:)` of a session that saved an activity, as
    /// UIKit calls it: `stateRestorationActivity` is `session.stateRestorationActivity`.
    /// Not a trace callback of its own (it belongs to the connection). Default: nothing.
    func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity)
}

extension UISceneDelegate {
    /// Does nothing.
    public func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {}
    /// Does nothing.
    public func sceneWillEnterForeground(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidBecomeActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneWillResignActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidEnterBackground(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidDisconnect(_ scene: Scene) {}
    /// Returns nil.
    public func stateRestorationActivity(for scene: Scene) -> JSONValue? { nil }
    /// Returns nil.
    public func stateRestorationActivity(for scene: Scene) -> UserActivity? { nil }
    /// Does nothing.
    public func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue) {}
    /// Does nothing.
    public func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity) {}
    /// Begins a background task whose expiration handler does nothing.
    public func scene(_ scene: Scene, beginBackgroundTaskWith application: Application) {
        _ = application.beginBackgroundTask(withName: "scene", expirationHandler: {})
    }
}
