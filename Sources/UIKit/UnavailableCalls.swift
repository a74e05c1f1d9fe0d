// UIKit calls with no meaning under scenehost, or none it models yet. Each fails to compile
// with a message that says what to write instead: a call that silently did nothing would let
// the app's code take a path it never takes on a device.

/// No screen, as `UIScreen`: a scene is a window of the size the host gives it.
@MainActor
public final class UIScreen {
    private init() {}

    /// Unavailable: there is no device screen.
    @available(
        *,
        unavailable,
        message: "no screen under scenehost: a scene's size is its window's (view.window?.size), which the host sets"
    )
    public static var main: UIScreen { fatalError("unavailable") }
}

extension UIApplication {
    /// Unavailable: no device sleeps under scenehost.
    @available(
        *,
        unavailable,
        message: "no idle timer under scenehost (no device sleeps): leave the line out on Linux (#if os(iOS))"
    )
    public var isIdleTimerDisabled: Bool {
        get { false }
        set {}
    }

    /// Unavailable: the host, not a clock in the app, ends background tasks.
    @available(
        *,
        unavailable,
        message: "the host ends background tasks under scenehost: end yours in beginBackgroundTask's expiration handler"
    )
    public var backgroundTimeRemaining: Double { 0 }

    /// Unavailable: there is no push service to register with.
    @available(
        *,
        unavailable,
        message:
            "no push service under scenehost: pushes arrive unregistered (remoteNotification); leave it out (#if os(iOS))"
    )
    public func registerForRemoteNotifications() {}
}

extension UIViewController {
    /// Unavailable: a view loads when its controller is shown, in the model's order.
    @available(
        *,
        unavailable,
        message: "scenehost loads a view when its controller is shown (push, present, addChild), not earlier"
    )
    public func loadViewIfNeeded() {}
}
