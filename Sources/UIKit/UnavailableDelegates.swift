// Delegates UIKit calls that scenehost does not (their order has no evidence in the model
// yet), and scrolling, which it has no model of. Adopting or naming one fails to compile with
// a message that says what to write instead: a delegate method that silently never ran would
// let the app's code take a path it never takes on a device.

/// Unavailable: a navigation controller's delegate is not called under scenehost.
@available(
    *,
    unavailable,
    message:
        "scenehost does not call a navigation controller's delegate: do the work of navigationController(_:willShow:animated:) in the shown controller's viewWillAppear(_:), and of didShow in its viewDidAppear(_:)"
)
@MainActor
public protocol UINavigationControllerDelegate: AnyObject {}

/// Unavailable: a tab bar controller's delegate is not called under scenehost.
@available(
    *,
    unavailable,
    message:
        "scenehost does not call a tab bar controller's delegate: do the work of tabBarController(_:didSelect:) in the selected tab's viewDidAppear(_:) (a tab switch is never refused, so there is no shouldSelect)"
)
@MainActor
public protocol UITabBarControllerDelegate: AnyObject {}

/// Unavailable: nothing scrolls under scenehost.
@available(
    *,
    unavailable,
    message:
        "nothing scrolls under scenehost (no content offset, no drag): leave scroll view delegate methods and offsets out on Linux (#if os(iOS)); a table's rows are all there to select"
)
@MainActor
public final class UIScrollView {}

/// Unavailable: nothing scrolls under scenehost.
@available(
    *,
    unavailable,
    message:
        "nothing scrolls under scenehost (no content offset, no drag): leave scroll view delegate methods out on Linux (#if os(iOS)); a table's rows are all there to select"
)
@MainActor
public protocol UIScrollViewDelegate: AnyObject {}

extension UINavigationController {
    /// Unavailable: see `UINavigationControllerDelegate`.
    @available(
        *,
        unavailable,
        message:
            "scenehost does not call a navigation controller's delegate: do the work in the shown controller's viewWillAppear(_:) and viewDidAppear(_:)"
    )
    public var delegate: AnyObject? {
        get { nil }
        set {}
    }
}

extension UITabBarController {
    /// Unavailable: see `UITabBarControllerDelegate`.
    @available(
        *,
        unavailable,
        message:
            "scenehost does not call a tab bar controller's delegate: do the work in the selected tab's viewDidAppear(_:)"
    )
    public var delegate: AnyObject? {
        get { nil }
        set {}
    }
}
