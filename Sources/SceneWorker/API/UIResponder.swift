/// A stand-in for `UIResponder`, so an app's `class AppDelegate: UIResponder,
/// UIApplicationDelegate` and `class SceneDelegate: UIResponder, UIWindowSceneDelegate`
/// compile as written. It has no responder chain: there are no events to pass along.
@MainActor
open class UIResponder {
    /// A responder. Required, as UIKit makes an app's delegates with it (`@main`, a scene
    /// configuration's `delegateClass`).
    public required init() {}

    /// The activity this responder is part of, as UIKit's. A scene's `userActivity` is the
    /// one restoration saves (`stateRestorationActivity(for:)` usually returns it).
    public var userActivity: UserActivity?

    /// Puts the responder's state into `activity` before it is saved. Default: nothing.
    open func updateUserActivityState(_ activity: UserActivity) {}

    /// Restores the responder's state from `activity`. Default: nothing.
    open func restoreUserActivityState(_ activity: UserActivity) {}
}
