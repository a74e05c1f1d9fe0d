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

/// A scene's window: its size and the navigation stack it shows.
@MainActor
public final class Window {
    /// The size of a window until the host resizes it.
    public static let defaultSize = Size(width: 390, height: 844)

    /// The window's root, as UIKit's: a navigation controller, a tab bar controller, or a
    /// plain controller. nil only for a window made in code whose root is not set yet.
    ///
    /// A window made in code (`UIWindow(windowScene:)`) takes any of the three before
    /// `makeKeyAndVisible()` in `scene(_:willConnectTo:options:)`, and so does the scene's own
    /// window during that call; the root then replaces the one the host connected the scene
    /// with (docs/PORTING.md). A shown window keeps its root: setting it later, or to nil,
    /// changes nothing and is logged.
    public var rootViewController: UIViewController? {
        get {
            if let tabBarController { return tabBarController }
            if let splitViewController { return splitViewController }
            if stack.isImplicit { return stack.viewControllers.first }
            return hasRoot ? stack : nil
        }
        set { setRoot(newValue) }
    }

    /// The navigation stack the window shows: the selected tab's with a tab bar root, the one
    /// the runtime keeps a plain root in, or the root navigation controller. Push, pop and
    /// presentation act on it.
    var navigationStack: NavigationController { tabBarController?.selectedStack ?? stack }

    /// The tab bar root, for a scene connected with tabs (docs/LIFECYCLE.md §3a) or a window
    /// whose `rootViewController` is a tab bar controller.
    public private(set) var tabBarController: TabBarController?

    /// The split view root, when a split view controller is the window's `rootViewController`.
    public private(set) var splitViewController: SplitViewController?

    /// The stack of a window without tabs (the first tab's otherwise).
    private var stack: NavigationController

    /// Whether a root was given: a window made in code has none until one is set.
    private var hasRoot = true

    /// The window's size; changes on the host's `resize`.
    public internal(set) var size: Size

    /// Light or dark, as the host connected the scene (`connect --style`).
    public internal(set) var userInterfaceStyle = UserInterfaceStyle.light

    /// The traits the window's controllers lay out for: its size classes and style.
    public var traitCollection: TraitCollection {
        TraitCollection(size: size, userInterfaceStyle: userInterfaceStyle)
    }

    /// The scene the window belongs to.
    public internal(set) weak var windowScene: UIWindowScene?

    /// Whether the window is its scene's key window: the scene's one window always is.
    public var isKeyWindow: Bool { windowScene != nil }

    /// Shows the window: a window made in code (`UIWindow(windowScene:)`) becomes its scene's
    /// window, with the stack set as its `rootViewController`. Only in
    /// `scene(_:willConnectTo:options:)`, before the scene's controllers load (anywhere else it
    /// is ignored and logged); the scene's own window is key and shown already.
    public func makeKeyAndVisible() {
        guard let windowScene, windowScene.window !== self else { return }
        guard windowScene.acceptsWindowMadeInCode else {
            writeError(
                "scenehost worker: makeKeyAndVisible() ignored: a window is shown only in scene(_:willConnectTo:options:)"
            )
            return
        }
        windowScene.window = self
    }

    /// A window for `windowScene`, as `UIWindow(windowScene:)`: set its `rootViewController`
    /// (a `UINavigationController(rootViewController:)`) and call `makeKeyAndVisible()` in
    /// `scene(_:willConnectTo:options:)`. Its size is the scene's.
    public convenience init(windowScene: UIWindowScene) {
        let placeholder = NavigationController(rootViewController: UIViewController(restorationIdentifier: ""))
        self.init(rootViewController: placeholder, size: windowScene.window.size)
        hasRoot = false
        self.windowScene = windowScene
        userInterfaceStyle = windowScene.window.userInterfaceStyle
    }

    init(rootViewController: NavigationController, size: Size) {
        self.stack = rootViewController
        self.tabBarController = nil
        self.size = size
        rootViewController.size = size
        rootViewController.window = self
    }

    init(tabBarController: TabBarController, size: Size) {
        self.stack = tabBarController.tabStacks[0]
        self.tabBarController = tabBarController
        self.size = size
        for tab in tabBarController.tabStacks {
            tab.size = size
            tab.window = self
        }
    }

    /// The root setter's work (see `rootViewController`).
    private func setRoot(_ root: UIViewController?) {
        if let windowScene, windowScene.window === self, !windowScene.acceptsWindowMadeInCode {
            writeError(
                "scenehost worker: rootViewController not changed: a shown window's root is set only in scene(_:willConnectTo:options:)"
            )
            return
        }
        guard let root else {
            writeError("scenehost worker: rootViewController not changed: a window's root cannot be nil")
            return
        }
        installRoot(root)
    }

    /// Makes `root` the window's root, without the setter's checks.
    func installRoot(_ root: UIViewController) {
        switch root {
        case let tabBarController as TabBarController:
            guard let first = tabBarController.tabStacks.first else {
                writeError("scenehost worker: rootViewController not changed: the tab bar controller has no tabs")
                return
            }
            for tab in tabBarController.tabStacks where tab.window != nil && tab.window !== self {
                writeError("scenehost worker: rootViewController not changed: the tab bar is another window's")
                return
            }
            self.tabBarController = tabBarController
            splitViewController = nil
            stack = first
            for tab in tabBarController.tabStacks {
                tab.size = size
                tab.window = self
            }
        case let splitViewController as SplitViewController:
            guard let collapsed = splitViewController.makeCollapsedStack() else {
                writeError(
                    "scenehost worker: rootViewController not changed: the split view has no primary column (setViewController(_:for: .primary))"
                )
                return
            }
            tabBarController = nil
            self.splitViewController = splitViewController
            stack = collapsed
        case let navigationController as NavigationController:
            tabBarController = nil
            splitViewController = nil
            stack = navigationController
        default:
            tabBarController = nil
            splitViewController = nil
            stack = NavigationController(implicitRoot: root)
        }
        hasRoot = true
        stack.window = self
        stack.size = size
    }

    /// Every loaded controller: the shown stack's (root first, the presented one last), then
    /// each other loaded tab's, in tab order (size changes, memory warnings).
    var allLoadedControllers: [UIViewController] {
        navigationStack.allControllers + (tabBarController?.otherLoadedTabs ?? []).flatMap(\.allControllers)
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
        /// is not called for them, as on iOS).
        public var urlContexts: Set<OpenURLContext> { url.map { [OpenURLContext(url: $0)] } ?? [] }

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
    public internal(set) var activationState: ActivationState = .unattached

    /// The scene's window, holding its navigation stack: the one the runtime made, or one
    /// the app made in `scene(_:willConnectTo:options:)` and showed (`makeKeyAndVisible()`).
    public internal(set) var window: Window

    /// The scene delegate.
    public internal(set) var delegate: (any UISceneDelegate)?

    /// The activity the scene is doing, as UIKit's: the app sets it, and a scene delegate
    /// usually returns it from `stateRestorationActivity(for:)`.
    public var userActivity: UserActivity?

    init(session: SceneSession, window: Window) {
        self.session = session
        self.window = window
        window.windowScene = self as? UIWindowScene
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
