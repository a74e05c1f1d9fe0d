import Protocol

/// An operation on one scene, as scenario files, the CLI and the Swift API name them.
public enum SceneOperation: Sendable, Hashable {
    /// Connect the scene (start its worker). `background`: system-requested launch.
    /// `worker`: this scene's worker argv, overriding the host's. `launch`: the URL and
    /// size it launches with. (Indirect: it is by far the largest case, and every scene's
    /// queued and in-flight work would otherwise be that large and copied as much.)
    indirect case connect(
        background: Bool = false,
        root: String = "Root",
        worker: [String]? = nil,
        launch: LaunchParameters = LaunchParameters()
    )
    case activate
    case deactivate
    case background
    case foreground
    case disconnect
    case discard
    /// Push a controller; `payload` goes to the worker's controller factory with the name.
    case push(viewController: String, payload: JSONValue? = nil)
    case pop
    case resize(width: Int, height: Int)
    case memoryWarning
    /// The memory warning of an app process reaches another of its windows: that scene's
    /// loaded controllers, not the app delegate (the host sends it after a `memoryWarning` of
    /// one of the app's scenes, c14). Judged as a `memoryWarning`.
    case windowMemoryWarning
    case notify(name: String, value: JSONValue)
    case beginBackgroundTask
    case endBackgroundTask
    /// Send `signal` to the worker from the host (no callback; reason `killed`).
    case kill(signal: Int32)
    /// Terminate the scene's worker (LIFECYCLE.md §4).
    case terminate
    /// The terminate of an app process reaches another of its windows (the host sends it to
    /// the app's other scenes before the one asked, c13). Judged as a `terminate`; a window
    /// with no worker by its turn (killed meanwhile) has nothing to end and hears nothing: no
    /// refusal, as a client asked none. One still launching leaves once launched (queued, not
    /// killed: a SIGKILL would end the app's other windows too). The host's own; a client asks
    /// `terminate`.
    case windowTerminate
    /// Present a controller over the stack (LIFECYCLE.md §3a).
    /// `modalInPresentation`: a swipe down only tells the delegate of the attempt (c28).
    case present(viewController: String, style: PresentationStyle = .pageSheet, modalInPresentation: Bool = false)
    /// Dismiss the presented controller (programmatic).
    case dismiss
    /// The user swipes the presented sheet down; `completes: false` lets it spring back.
    case swipeDismiss(completes: Bool = true)
    /// The user swipes back (interactive pop); `completes: false` cancels it.
    case swipeBack(completes: Bool = true)
    /// A tap on the frontmost controller (`touchesBegan`, `touchesEnded`); only while
    /// `foregroundActive`.
    case tap
    /// Open `url` in the scene: a running one gets `openURLContexts` (from the background,
    /// between `sceneWillEnterForeground` and `sceneDidBecomeActive`); one with no live
    /// worker launches with the URL in its connection options.
    case openURL(url: String)
    /// Hand the scene a user activity (a universal link): `continueUserActivity` as `openURL`
    /// gets its URL; one with no live worker launches with it in its connection options.
    case continueUserActivity(activityType: String, userInfo: JSONValue? = nil)
    /// A home-screen quick action: `performActionFor` as `openURL` gets its URL; one with no
    /// live worker launches with it as the connection options' shortcut item.
    case quickAction(type: String, userInfo: JSONValue? = nil)
    /// The user taps a notification: `userNotificationCenterDidReceive` as `openURL` gets its
    /// URL; one with no live worker launches with it as the connection options' notification
    /// response, and gets the callback while still `foregroundInactive`.
    case openNotification(userInfo: JSONValue? = nil, actionIdentifier: String = defaultNotificationAction)
    /// A silent push for the scene's app: `didReceiveRemoteNotification` in whatever state the
    /// app is in (a suspended one is resumed for it and suspended again).
    case remoteNotification(userInfo: JSONValue? = nil)
    /// The stack pops to its root.
    case popToRoot
    /// Select tab `index` of a tab bar root (LIFECYCLE.md §3a).
    case selectTab(index: Int)
    /// The frontmost controller adds a child named `viewController` (LIFECYCLE.md §3a).
    case addChild(viewController: String)
    /// The frontmost controller removes its child named `viewController`.
    case removeChild(viewController: String)
    /// What a user does on the frontmost screen: select a row, type, tap a control, choose an
    /// alert action. Only while `foregroundActive`; the worker fails it, nothing changed, when
    /// the screen has no such target.
    case user(UserAction)
    /// A look at what the scene shows (`SceneHandle.inspect()` returns it). No callback.
    case inspect

    /// The model's operation: its name, fields and legality.
    public var kind: LifecycleOperation {
        switch self {
        case .connect: .connect
        case .activate: .activate
        case .deactivate: .deactivate
        case .background: .background
        case .foreground: .foreground
        case .disconnect: .disconnect
        case .discard: .discard
        case .push: .push
        case .pop: .pop
        case .resize: .resize
        case .memoryWarning, .windowMemoryWarning: .memoryWarning
        case .notify: .notify
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .kill: .kill
        case .terminate, .windowTerminate: .terminate
        case .present: .present
        case .dismiss: .dismiss
        case .swipeDismiss: .swipeDismiss
        case .swipeBack: .swipeBack
        case .tap: .tap
        case .openURL: .openURL
        case .continueUserActivity: .continueUserActivity
        case .quickAction: .quickAction
        case .openNotification: .openNotification
        case .remoteNotification: .remoteNotification
        case .popToRoot: .popToRoot
        case .selectTab: .selectTab
        case .addChild: .addChild
        case .removeChild: .removeChild
        case .user(.selectRow): .selectRow
        case .user(.typeText): .typeText
        case .user(.tapControl): .tapControl
        case .user(.alertAction): .alertAction
        case .user(.swipeRow): .swipeRow
        case .user(.moveRow): .moveRow
        case .inspect: .inspect
        }
    }

    /// The child an `addChild` or `removeChild` names, nil for every other operation.
    public var child: String? {
        switch self {
        case .addChild(let name), .removeChild(let name): name
        default: nil
        }
    }

    /// `UNNotificationDefaultActionIdentifier`: the user tapped the notification itself.
    public static let defaultNotificationAction = "com.apple.UNNotificationDefaultActionIdentifier"

    /// The op's name as scenario files and the trace write it.
    public var name: String { kind.rawValue }
}
