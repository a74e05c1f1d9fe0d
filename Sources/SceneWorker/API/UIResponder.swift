/// A stand-in for `UIResponder`, so an app's `class AppDelegate: UIResponder,
/// UIApplicationDelegate` and `class SceneDelegate: UIResponder, UIWindowSceneDelegate`
/// compile as written. It has no responder chain: there are no events to pass along.
@MainActor
open class UIResponder {
    /// A responder. Required, as UIKit makes an app's delegates with it (`@main`, a scene
    /// configuration's `delegateClass`).
    public required init() {}

    /// The activity this responder is part of, as UIKit's: storage for the app (a scene's
    /// own `userActivity` is the one restoration saves).
    public var userActivity: UserActivity?
}
