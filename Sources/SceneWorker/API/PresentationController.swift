import Protocol

/// How a presented controller covers its presenter (`UIModalPresentationStyle`): `pageSheet`
/// (the default) or `fullScreen`.
public typealias ModalPresentationStyle = PresentationStyle

/// Hears of the user's swipes on a presented sheet, as
/// `UIAdaptivePresentationControllerDelegate`. None of these runs for a programmatic
/// dismissal (docs/LIFECYCLE.md §3a).
@MainActor
public protocol AdaptivePresentationControllerDelegate: AnyObject {
    /// The user starts to swipe the sheet down: false keeps it (the delegate then hears
    /// `presentationControllerDidAttemptToDismiss`), as `isModalInPresentation` does. Not
    /// asked when the sheet is modal in presentation. Default: true.
    func presentationControllerShouldDismiss(_ presentationController: PresentationController) -> Bool
    /// A swipe down is about to dismiss the sheet (it may still be cancelled).
    func presentationControllerWillDismiss(_ presentationController: PresentationController)
    /// A swipe down dismissed the sheet.
    func presentationControllerDidDismiss(_ presentationController: PresentationController)
    /// The user swiped down a sheet whose controller is `isModalInPresentation`, or whose
    /// delegate said it should not dismiss: nothing was dismissed.
    func presentationControllerDidAttemptToDismiss(_ presentationController: PresentationController)
}

extension AdaptivePresentationControllerDelegate {
    public func presentationControllerShouldDismiss(_ presentationController: PresentationController) -> Bool { true }
    public func presentationControllerWillDismiss(_ presentationController: PresentationController) {}
    public func presentationControllerDidDismiss(_ presentationController: PresentationController) {}
    public func presentationControllerDidAttemptToDismiss(_ presentationController: PresentationController) {}
}

/// The object that manages a presentation, as `UIPresentationController`: set its `delegate`
/// to hear of swipes on the sheet.
@MainActor
public final class PresentationController {
    /// The controller this presentation shows.
    public private(set) weak var presentedViewController: UIViewController?
    /// Hears of the user's swipes (held weakly, as UIKit does).
    public weak var delegate: (any AdaptivePresentationControllerDelegate)?

    init(presentedViewController: UIViewController) {
        self.presentedViewController = presentedViewController
    }
}

extension UIViewController {
    /// Presents `viewControllerToPresent` over the scene's stack in its
    /// `modalPresentationStyle`, as UIKit's `present(_:animated:completion:)`: an app-initiated
    /// change (docs/LIFECYCLE.md §3b) with §3a's order. Legal in the foreground with nothing
    /// presented yet; from inside a callback of a host request it runs right after that
    /// request, and `completion` runs once it ran. An illegal one is ignored and logged.
    public func present(
        _ viewControllerToPresent: UIViewController,
        animated: Bool,
        completion: (@MainActor () -> Void)? = nil
    ) {
        guard let navigationController = sceneNavigationController, let session = navigationController.changeHandler
        else {
            writeError(
                "scenehost worker: present(\(viewControllerToPresent.restorationIdentifier)) ignored: not in a scene"
            )
            return
        }
        // UIKit refuses a second presentation from the same presenter ("already presenting");
        // the presented controller itself may present (real-ios-orders-3 c23).
        if let presented = presentedViewController {
            writeError(
                "scenehost worker: present(\(viewControllerToPresent.restorationIdentifier)) ignored: "
                    + "\(restorationIdentifier) is already presenting \(presented.restorationIdentifier)"
            )
            return
        }
        session.appRequestsPresent(viewControllerToPresent, on: navigationController, completion: completion)
    }

    /// Dismisses, as UIKit's `dismiss(animated:completion:)`, this controller if it is the last
    /// presented one, else every controller presented above it (called on a controller of
    /// the stack: every presented one): app-initiated changes, one dismissal each, the top
    /// first, without presentation-controller delegate callbacks; `completion` runs after the
    /// last.
    public func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        guard let navigationController = sceneNavigationController, let session = navigationController.changeHandler
        else {
            writeError("scenehost worker: dismiss ignored: not in a scene")
            return
        }
        session.appRequestsDismiss(from: self, on: navigationController, completion: completion)
    }

    /// The scene's stack this controller is in, or presented over (however many
    /// presentations down), a child's through its parent.
    var sceneNavigationController: NavigationController? {
        var controller: UIViewController? = self
        while let current = controller {
            // A presented navigation controller is not the scene's: its root's presenter leads there.
            if let tabBarController = current as? TabBarController {
                return tabBarController.tabStacks.isEmpty ? nil : tabBarController.selectedStack
            }
            if let splitViewController = current as? SplitViewController { return splitViewController.collapsedStack }
            if let stack = current as? NavigationController ?? current.containingStack {
                guard stack.isPresentedContainer else { return stack }
                controller = stack.viewControllers.first?.presentingViewController
                continue
            }
            controller = current.presentingViewController ?? current.parent
        }
        return nil
    }
}
