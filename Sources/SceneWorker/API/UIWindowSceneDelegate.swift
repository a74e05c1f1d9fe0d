/// A scene delegate with a window, as `UIWindowSceneDelegate`: the runtime sets `window` to
/// the scene's window just before `scene(_:willConnectTo:options:)`, as UIKit does for a
/// storyboard app, so `window?.rootViewController` is the host's root there (a
/// `UINavigationController`, or a `UITabBarController` for a scene connected with tabs).
@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
    /// The scene's window; set by the runtime before `scene(_:willConnectTo:options:)`.
    var window: Window? { get set }

    /// The window's size, orientation or traits changed (trace: `windowSceneDidUpdate`, after
    /// the controllers' size and trait callbacks): the arguments are the old ones. Default:
    /// nothing.
    func windowScene(
        _ windowScene: UIWindowScene,
        didUpdate previousCoordinateSpace: any CoordinateSpace,
        interfaceOrientation previousInterfaceOrientation: InterfaceOrientation,
        traitCollection previousTraitCollection: TraitCollection
    )

    /// A home-screen quick action for the running scene (trace: `performActionFor`); at a
    /// launch the item is in `connectionOptions.shortcutItem` instead and this is not called.
    /// Call `completionHandler` with whether you handled it. Default: calls it with `false`.
    func windowScene(
        _ windowScene: UIWindowScene,
        performActionFor shortcutItem: ApplicationShortcutItem,
        completionHandler: @escaping (Bool) -> Void
    )
}

extension UIWindowSceneDelegate {
    public func windowScene(
        _ windowScene: UIWindowScene,
        didUpdate previousCoordinateSpace: any CoordinateSpace,
        interfaceOrientation previousInterfaceOrientation: InterfaceOrientation,
        traitCollection previousTraitCollection: TraitCollection
    ) {}

    public func windowScene(
        _ windowScene: UIWindowScene,
        performActionFor shortcutItem: ApplicationShortcutItem,
        completionHandler: @escaping (Bool) -> Void
    ) {
        completionHandler(false)
    }
}
