/// A gesture recognizer, as `UIGestureRecognizer`: here only the one a navigation controller
/// swipes back with (`interactivePopGestureRecognizer`), which the host's `swipeBack` is.
@MainActor
open class UIGestureRecognizer {
    /// Whether the gesture may begin: a disabled swipe-back recognizer refuses `swipeBack`.
    public var isEnabled = true

    /// Who decides whether the gesture begins (`gestureRecognizerShouldBegin(_:)`). A
    /// navigation controller's recognizer starts with the navigation controller's own rules;
    /// setting a delegate replaces them with its answer, and setting nil with none (the gesture
    /// always begins), as in UIKit.
    public weak var delegate: (any UIGestureRecognizerDelegate)? {
        didSet { delegateWasSet = true }
    }

    /// Whether the app set `delegate` (to nil too): the owner's own rules no longer apply.
    private(set) var delegateWasSet = false

    /// A recognizer (it recognizes nothing on its own: the host's operations are the gestures).
    public init() {}
}

/// What decides whether a gesture begins, as `UIGestureRecognizerDelegate`.
@MainActor
public protocol UIGestureRecognizerDelegate: AnyObject {
    /// Whether `gestureRecognizer` may begin. Default: true.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
}

extension UIGestureRecognizerDelegate {
    /// Returns true.
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
}

extension NavigationController {
    /// Why a swipe back from the left edge does not begin on this stack, as UIKit decides it;
    /// nil when it begins. The navigation controller's own rules: the bar is shown, and the
    /// top controller shows its back button (not hidden, not replaced by a leading bar button
    /// item unless `leftItemsSupplementBackButton`).
    func swipeBackRefusal() -> String? {
        guard let recognizer = interactivePopGestureRecognizer, recognizer.isEnabled else {
            return "the navigation controller's interactivePopGestureRecognizer is disabled"
        }
        if recognizer.delegateWasSet {
            guard let delegate = recognizer.delegate else { return nil }
            return delegate.gestureRecognizerShouldBegin(recognizer)
                ? nil : "the interactivePopGestureRecognizer's delegate says it should not begin"
        }
        if isNavigationBarHidden {
            return "the navigation bar is hidden (a swipe back needs it shown, or a delegate of "
                + "interactivePopGestureRecognizer that lets it begin)"
        }
        guard let top = topViewController else { return nil }
        let item = top.navigationItem
        if item.hidesBackButton {
            return "\(top.restorationIdentifier) hides its back button (navigationItem.hidesBackButton)"
        }
        if let leading = item.leftBarButtonItems, !leading.isEmpty, !item.leftItemsSupplementBackButton {
            return "\(top.restorationIdentifier)'s leading bar button item replaces its back button "
                + "(set leftItemsSupplementBackButton, or a delegate of interactivePopGestureRecognizer)"
        }
        return nil
    }
}
