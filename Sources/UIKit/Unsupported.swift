// UIKit methods an app may implement that scenehost does not call (yet). Declaring one in a
// class that inherits `UIResponder` (app and scene delegates) or `UIViewController` fails to
// compile ("declared in extension … cannot be overridden"), and the compiler's note points
// here, where each says what to write instead: no method of yours is silently never called.

extension UIApplication {
    /// The keys of `application(_:open:options:)`'s options.
    public struct OpenURLOptionsKey: Hashable, Sendable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// The keys of `open(_:options:completionHandler:)`'s options.
    public struct OpenExternalURLOptionsKey: Hashable, Sendable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// Unavailable: under scenehost the app is the only app there is, so a URL opens nowhere.
    /// A URL of your own scheme reaches your scene as the system delivers it
    /// (`scene(_:openURLContexts:)`) when the host sends it: `hostctl openURL SCENE --url URL`,
    /// `SceneHandle.openURL(_:)`, or a scenario's `openURL`.
    @available(
        *,
        unavailable,
        message: "no other app opens URLs under scenehost; deliver your own URLs to the scene with the host's openURL"
    )
    public func open(
        _ url: URL,
        options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {}

    /// Unavailable: no other app is installed under scenehost (see `open(_:options:completionHandler:)`).
    @available(*, unavailable, message: "no other app is installed under scenehost; nothing can open a URL")
    public func canOpenURL(_ url: URL) -> Bool { false }
}

/// An object that restores a user activity, as `UIUserActivityRestoring`.
@MainActor
public protocol UIUserActivityRestoring: AnyObject {
    /// Restores the responder's state from `activity`.
    func restoreUserActivityState(_ activity: NSUserActivity)
}

extension UIResponder {
    /// Not called: a scene-based app gets URLs in `scene(_:openURLContexts:)` and
    /// `connectionOptions.urlContexts`, as on iOS 13+. Write those.
    @available(*, deprecated, message: "not called: write scene(_:openURLContexts:)")
    public func application(
        _ app: UIApplication,
        open url: URL,
        options: [UIApplication.OpenURLOptionsKey: Any] = [:]
    ) -> Bool { false }

    /// Not called: a scene-based app gets activities in `scene(_:continue:)` and
    /// `connectionOptions.userActivities`. Write those.
    @available(*, deprecated, message: "not called: write scene(_:continue:)")
    public func application(
        _ application: UIApplication,
        continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool { false }

    /// Not called: a scene-based app's quick actions reach the scene delegate
    /// (`windowScene(_:performActionFor:completionHandler:)`), as on iOS 13+. Write that.
    @available(*, deprecated, message: "not called: write windowScene(_:performActionFor:completionHandler:)")
    public func application(
        _ application: UIApplication,
        performActionFor shortcutItem: UIApplicationShortcutItem,
        completionHandler: @escaping (Bool) -> Void
    ) {}

    /// Not called: nothing under scenehost marks a significant time change (midnight, a
    /// carrier time update, a time zone change).
    @available(*, deprecated, message: "not called: no significant time change happens under scenehost")
    public func applicationSignificantTimeChange(_ application: UIApplication) {}

    /// Not called: there is no background URL session daemon to wake the app.
    @available(*, deprecated, message: "not called: no background URL session wakes the app under scenehost")
    public func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {}

    /// Not called: activities arrive whole, in `scene(_:continue:)`. Write that.
    @available(*, deprecated, message: "not called: write scene(_:continue:)")
    public func scene(_ scene: UIScene, willContinueUserActivityWithType userActivityType: String) {}

    /// Not called: an activity the host delivers never fails. Write `scene(_:continue:)`.
    @available(*, deprecated, message: "not called: write scene(_:continue:)")
    public func scene(
        _ scene: UIScene,
        didFailToContinueUserActivityWithType userActivityType: String,
        error: any Error
    ) {}

    /// Not called: nothing updates a scene's activity behind the app's back.
    @available(*, deprecated, message: "not called: update the activity in the app's own code")
    public func scene(_ scene: UIScene, didUpdate userActivity: NSUserActivity) {}

    /// Not called: an activity is not refreshed before it is saved. Update
    /// `scene.userActivity` when what it holds changes, or build it in
    /// `stateRestorationActivity(for:)`.
    @available(*, deprecated, message: "not called: build the activity in stateRestorationActivity(for:)")
    public func updateUserActivityState(_ activity: NSUserActivity) {}

    /// Not called: no push service registers the app. A silent push reaches the app when
    /// the host sends one (`hostctl remoteNotification`, `SceneHandle.remoteNotification`).
    @available(
        *,
        deprecated,
        message: "not called: no push service; send silent pushes with the host's remoteNotification"
    )
    public func application(
        _ application: UIApplication,
        didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
    ) {}

    /// Not called: no push service registers the app (see the device-token method).
    @available(
        *,
        deprecated,
        message: "not called: no push service; send silent pushes with the host's remoteNotification"
    )
    public func application(
        _ application: UIApplication,
        didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) {}

    /// Not called since iOS 13.2, nor here: write `application(_:shouldSaveSecureApplicationState:)`.
    @available(*, deprecated, message: "not called: write application(_:shouldSaveSecureApplicationState:)")
    public func application(_ application: UIApplication, shouldSaveApplicationState coder: NSCoder) -> Bool {
        false
    }

    /// Not called since iOS 13.2, nor here: write `application(_:shouldRestoreSecureApplicationState:)`.
    @available(*, deprecated, message: "not called: write application(_:shouldRestoreSecureApplicationState:)")
    public func application(_ application: UIApplication, shouldRestoreApplicationState coder: NSCoder) -> Bool {
        false
    }

    /// Not called: controller-level state restoration is not run. Restore from the scene's
    /// `NSUserActivity` in `scene(_:willConnectTo:options:)`.
    @available(*, deprecated, message: "not called: restore from session.stateRestorationActivity in willConnectTo")
    public func application(
        _ application: UIApplication,
        viewControllerWithRestorationIdentifierPath identifierComponents: [String],
        coder: NSCoder
    ) -> UIViewController? { nil }

    /// Not asked: a window's orientation follows its size (resize the scene with the host).
    @available(*, deprecated, message: "not asked: a window's orientation follows its size; resize the scene")
    public func application(
        _ application: UIApplication,
        supportedInterfaceOrientationsFor window: UIWindow?
    ) -> UIInterfaceOrientationMask { .all }

    /// Not called: no background fetch is scheduled. A silent push wakes the app
    /// (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
    @available(
        *,
        deprecated,
        message: "not called: no background fetch; a silent push (remoteNotification) wakes the app"
    )
    public func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {}

    /// Not called: there is no device lock, so protected data never goes away.
    @available(*, deprecated, message: "not called: there is no device lock under scenehost")
    public func applicationProtectedDataWillBecomeUnavailable(_ application: UIApplication) {}

    /// Not called: there is no device lock, so protected data never goes away.
    @available(*, deprecated, message: "not called: there is no device lock under scenehost")
    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {}
}

extension UIView {
    /// Not called: a view has no layout pass under scenehost. Lay out in its controller's
    /// `viewWillLayoutSubviews()` or `viewDidLayoutSubviews()`, which run as it appears and as
    /// the scene resizes.
    @available(
        *,
        deprecated,
        message: "not called: lay out in the controller's viewWillLayoutSubviews() or viewDidLayoutSubviews()"
    )
    public func layoutSubviews() {}

    /// Not called: nothing is drawn under scenehost. What a view shows is its state (its
    /// text, its subviews), which the visible tree reads; leave drawing out on Linux
    /// (`#if os(iOS)`).
    @available(*, deprecated, message: "not called: nothing is drawn; keep what the view shows in its state")
    public func draw(_ rect: CGRect) {}
}

extension UIViewController {
    /// Not called: an activity is not refreshed before it is saved. Update
    /// `view.window?.windowScene?.userActivity` when what it holds changes.
    @available(*, deprecated, message: "not called: set the scene's userActivity when its content changes")
    public func updateUserActivityState(_ activity: NSUserActivity) {}

    /// Not called: controller-level state restoration (`restorationIdentifier` and coders)
    /// is not run. Save what to restore in the scene's `NSUserActivity`
    /// (`stateRestorationActivity(for:)`), as iOS 13+ apps do.
    @available(*, deprecated, message: "not called: save state in the scene's NSUserActivity")
    public func encodeRestorableState(with coder: NSCoder) {}

    /// Not called: read restored state from `session.stateRestorationActivity` in
    /// `scene(_:willConnectTo:options:)`.
    @available(*, deprecated, message: "not called: restore from session.stateRestorationActivity")
    public func decodeRestorableState(with coder: NSCoder) {}

    /// Not called: controller-level state restoration is not run.
    @available(*, deprecated, message: "not called: restore in scene(_:willConnectTo:options:)")
    public func applicationFinishedRestoringState() {}

    /// Not called: a user's tap (`hostctl tap`) begins and ends where it began; nothing drags.
    @available(*, deprecated, message: "not called: a tap runs touchesBegan and touchesEnded; nothing moves")
    public func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}

    /// Not called: nothing interrupts a tap under scenehost.
    @available(*, deprecated, message: "not called: nothing cancels a tap; clean up in touchesEnded")
    public func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}

    /// Not called: a window has no safe area to change. Lay out in `viewWillLayoutSubviews`
    /// or `viewDidLayoutSubviews`, which run as UIKit runs them.
    @available(*, deprecated, message: "not called: lay out in viewWillLayoutSubviews or viewDidLayoutSubviews")
    public func viewSafeAreaInsetsDidChange() {}

    /// Not called: views have no layout margins. Lay out in `viewWillLayoutSubviews`.
    @available(*, deprecated, message: "not called: lay out in viewWillLayoutSubviews or viewDidLayoutSubviews")
    public func viewLayoutMarginsDidChange() {}

    /// Not called: there is no Auto Layout engine. Lay out in `viewWillLayoutSubviews`.
    @available(*, deprecated, message: "not called: lay out in viewWillLayoutSubviews or viewDidLayoutSubviews")
    public func updateViewConstraints() {}

    /// Not called: storyboards under scenehost hold scenes' roots, and no segue runs. Push or
    /// present the destination in code (`navigationController?.pushViewController(_:animated:)`,
    /// `present(_:animated:completion:)`) and hand it its data there.
    @available(*, deprecated, message: "not called: no segue runs; push or present in code and pass the data there")
    public func prepare(for segue: UIStoryboardSegue, sender: Any?) {}

    /// Not read: scenehost shows no status bar.
    @available(*, deprecated, message: "not read: there is no status bar under scenehost")
    public var preferredStatusBarStyle: UIStatusBarStyle { .default }

    /// Not read: scenehost shows no status bar.
    @available(*, deprecated, message: "not read: there is no status bar under scenehost")
    public var prefersStatusBarHidden: Bool { false }

    /// Not read: a window's orientation follows its size (resize the scene with the host).
    @available(*, deprecated, message: "not read: a window's orientation follows its size; resize the scene")
    public var supportedInterfaceOrientations: UIInterfaceOrientationMask { .all }

    /// Not read: nothing rotates a device under scenehost; a resize is the rotation.
    @available(
        *,
        deprecated,
        message: "not read: a resize of the scene is the rotation; handle viewWillTransition(to:with:)"
    )
    public var shouldAutorotate: Bool { true }
}

/// The orientations a window may take, as `UIInterfaceOrientationMask`: kept for code that
/// names it; nothing reads it (a window's orientation follows its size).
public struct UIInterfaceOrientationMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let portrait = UIInterfaceOrientationMask(rawValue: 1 << 1)
    public static let landscapeLeft = UIInterfaceOrientationMask(rawValue: 1 << 4)
    public static let landscapeRight = UIInterfaceOrientationMask(rawValue: 1 << 3)
    public static let portraitUpsideDown = UIInterfaceOrientationMask(rawValue: 1 << 2)
    public static let landscape: UIInterfaceOrientationMask = [.landscapeLeft, .landscapeRight]
    public static let all: UIInterfaceOrientationMask = [.portrait, .landscape, .portraitUpsideDown]
    public static let allButUpsideDown: UIInterfaceOrientationMask = [.portrait, .landscape]
}

/// A storyboard segue, as `UIStoryboardSegue`: no segue ever runs under scenehost (see
/// `UIViewController.prepare(for:sender:)`), so none is ever made.
@MainActor
public final class UIStoryboardSegue {
    /// The segue's identifier.
    public let identifier: String? = nil
    private init() {}
}

/// The status bar's style, as `UIStatusBarStyle`: kept for code that names it; nothing reads it.
public enum UIStatusBarStyle: Int, Sendable, Hashable {
    case `default`, lightContent, darkContent
}
