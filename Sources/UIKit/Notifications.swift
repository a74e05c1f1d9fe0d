import Protocol

// UIKit's lifecycle notifications, posted on `NotificationCenter.default` right after the
// delegate method each follows (`CallbackName.postedNotifications`), and traced by name.

extension UIApplication {
    /// Posted after `application(_:didFinishLaunchingWithOptions:)`.
    public nonisolated static let didFinishLaunchingNotification = Notification.Name(
        CallbackName.applicationDidFinishLaunchingNotification.rawValue
    )
    /// Posted after `sceneDidBecomeActive` (scene-based apps, whose app delegate does not hear
    /// it) or `applicationDidBecomeActive`.
    public nonisolated static let didBecomeActiveNotification = Notification.Name(
        CallbackName.applicationDidBecomeActiveNotification.rawValue
    )
    /// Posted after `sceneWillResignActive` or `applicationWillResignActive`.
    public nonisolated static let willResignActiveNotification = Notification.Name(
        CallbackName.applicationWillResignActiveNotification.rawValue
    )
    /// Posted after `sceneDidEnterBackground` or `applicationDidEnterBackground`.
    public nonisolated static let didEnterBackgroundNotification = Notification.Name(
        CallbackName.applicationDidEnterBackgroundNotification.rawValue
    )
    /// Posted after `sceneWillEnterForeground` or `applicationWillEnterForeground`.
    public nonisolated static let willEnterForegroundNotification = Notification.Name(
        CallbackName.applicationWillEnterForegroundNotification.rawValue
    )
    /// Posted after `applicationWillTerminate`.
    public nonisolated static let willTerminateNotification = Notification.Name(
        CallbackName.applicationWillTerminateNotification.rawValue
    )
    /// Posted after `applicationDidReceiveMemoryWarning`, before the controllers'
    /// `didReceiveMemoryWarning`.
    public nonisolated static let didReceiveMemoryWarningNotification = Notification.Name(
        CallbackName.applicationDidReceiveMemoryWarningNotification.rawValue
    )
}

extension UIScene {
    /// Posted after `scene(_:willConnectTo:options:)`.
    public nonisolated static let willConnectNotification = Notification.Name(
        CallbackName.sceneWillConnectNotification.rawValue
    )
    /// Posted after `sceneDidBecomeActive`.
    public nonisolated static let didActivateNotification = Notification.Name(
        CallbackName.sceneDidActivateNotification.rawValue
    )
    /// Posted after `sceneWillResignActive`.
    public nonisolated static let willDeactivateNotification = Notification.Name(
        CallbackName.sceneWillDeactivateNotification.rawValue
    )
    /// Posted after `sceneDidEnterBackground`.
    public nonisolated static let didEnterBackgroundNotification = Notification.Name(
        CallbackName.sceneDidEnterBackgroundNotification.rawValue
    )
    /// Posted after `sceneWillEnterForeground`.
    public nonisolated static let willEnterForegroundNotification = Notification.Name(
        CallbackName.sceneWillEnterForegroundNotification.rawValue
    )
    /// Posted after `sceneDidDisconnect`.
    public nonisolated static let didDisconnectNotification = Notification.Name(
        CallbackName.sceneDidDisconnectNotification.rawValue
    )
}

enum LifecycleNotificationPoster {
    /// Posts `name` as UIKit does: a scene's notifications with the scene as `object`, the
    /// application's with the application.
    @MainActor
    static func post(_ name: CallbackName) {
        let application = UIApplication.shared
        let object: AnyObject? = name.rawValue.hasPrefix("UIScene") ? application.connectedScene : application
        NotificationCenter.default.post(name: Notification.Name(name.rawValue), object: object)
    }
}
