/// A gesture recognizer, as `UIGestureRecognizer`: here only the one a navigation controller
/// swipes back with (`interactivePopGestureRecognizer`), which the host's `swipeBack` is.
@MainActor
open class UIGestureRecognizer {
    /// Whether the gesture may begin: a disabled swipe-back recognizer refuses `swipeBack`.
    public var isEnabled = true

    /// Who decides whether the gesture begins (`gestureRecognizerShouldBegin(_:)`): a
    /// navigation controller's recognizer starts with the navigation controller's own rules,
    /// which an app may keep aside and put back; nil lets every gesture begin, as in UIKit.
    public weak var delegate: (any UIGestureRecognizerDelegate)?

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

/// A navigation controller's own rules for its swipe back, the first delegate of its
/// `interactivePopGestureRecognizer`, as UIKit's: the bar is shown, and the top controller
/// shows its back button (not hidden, not replaced by a leading bar button item unless
/// `leftItemsSupplementBackButton`).
@MainActor
final class SwipeBackRules: UIGestureRecognizerDelegate {
    weak var stack: NavigationController?

    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { refusal == nil }

    /// Why the swipe does not begin, nil when it does.
    var refusal: String? {
        guard let stack else { return nil }
        if stack.isNavigationBarHidden { return "the navigation bar is hidden" }
        guard let top = stack.topViewController else { return nil }
        let item = top.navigationItem
        if item.hidesBackButton {
            return "\(top.restorationIdentifier) hides its back button (navigationItem.hidesBackButton)"
        }
        if let leading = item.leftBarButtonItems, !leading.isEmpty, !item.leftItemsSupplementBackButton {
            return "\(top.restorationIdentifier)'s leading bar button item replaces its back button "
                + "(unless leftItemsSupplementBackButton)"
        }
        return nil
    }
}

extension NavigationController {
    /// Why a swipe back from the left edge does not begin on this stack, as UIKit decides it;
    /// nil when it begins. A stack the runtime keeps for a plain root has no navigation
    /// controller, so no gesture of its own to refuse with: the host's push onto it is a
    /// choice of the model's, and so is its swipe back.
    func swipeBackRefusal() -> String? {
        guard !isImplicit, let recognizer = interactivePopGestureRecognizer else { return nil }
        guard recognizer.isEnabled else {
            return "the navigation controller's interactivePopGestureRecognizer is disabled"
        }
        guard let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) else {
            return nil
        }
        if let rules = delegate as? SwipeBackRules, let refusal = rules.refusal {
            return refusal + " (a delegate of interactivePopGestureRecognizer of your own may let it begin)"
        }
        return "the interactivePopGestureRecognizer's delegate says it should not begin"
    }
}
