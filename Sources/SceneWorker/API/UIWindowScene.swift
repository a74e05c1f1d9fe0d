/// A window scene, as `UIWindowScene`: the class of every worker's scene. Delegate methods
/// take a `Scene` (`UIScene`), so that the template's `guard let _ = (scene as? UIWindowScene)`
/// is a real cast, and it always succeeds.
@MainActor
public final class UIWindowScene: Scene {
    /// The scene's windows, as UIKit's: its one window.
    public var windows: [Window] { [window] }

    /// The key window: the scene's window.
    public var keyWindow: Window? { window }

    /// Whether a window made in code may become the scene's window now: while the scene
    /// delegate's `scene(_:willConnectTo:options:)` runs (the runtime says so).
    var acceptsWindowMadeInCode = false
}
