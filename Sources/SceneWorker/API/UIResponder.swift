/// A stand-in for `UIResponder`, so an app's `class AppDelegate: UIResponder,
/// UIApplicationDelegate` and `class SceneDelegate: UIResponder, UIWindowSceneDelegate`
/// compile as written. It has no responder chain: there are no events to pass along.
@MainActor
open class UIResponder {
    /// A responder.
    public init() {}
}
