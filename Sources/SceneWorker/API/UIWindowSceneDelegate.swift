/// A scene delegate with a window, as `UIWindowSceneDelegate`: the runtime sets `window` to
/// the scene's window just before `scene(_:willConnectTo:options:)`, as UIKit does for a
/// storyboard app, so `window?.rootViewController` is the navigation stack there.
@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
    /// The scene's window; set by the runtime before `scene(_:willConnectTo:options:)`.
    var window: Window? { get set }
}
