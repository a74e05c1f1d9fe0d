// A controller's place among the containers, and UIKit's ways of showing another controller
// that depend on it.

extension UIViewController {
    /// The tab bar controller one of whose tabs holds this controller (or its parent), if
    /// any: nil for a presented controller, as in UIKit.
    public var tabBarController: TabBarController? {
        guard let stack = rootContainingStack, let tabBarController = stack.window?.tabBarController else { return nil }
        return tabBarController.tabStacks.contains { $0 === stack } ? tabBarController : nil
    }

    /// The split view controller whose stack holds this controller (or its parent), if any:
    /// nil for a presented controller, as in UIKit.
    public var splitViewController: SplitViewController? {
        guard let stack = rootContainingStack, let splitViewController = stack.window?.splitViewController else {
            return nil
        }
        return splitViewController.collapsedStack === stack ? splitViewController : nil
    }

    /// The scene's stack that holds this controller or its outermost parent; nil for a
    /// presented one.
    private var rootContainingStack: NavigationController? {
        var controller = self
        while let parent = controller.parent { controller = parent }
        guard let stack = controller.containingStack, !stack.isPresentedContainer else { return nil }
        return stack
    }

    /// Shows `viewController` as UIKit's `show(_:sender:)`: pushed onto this controller's
    /// navigation controller, else presented.
    public func show(_ viewController: UIViewController, sender: Any?) {
        if let navigationController {
            navigationController.pushViewController(viewController, animated: true)
        } else {
            present(viewController, animated: true)
        }
    }

    /// Shows `viewController` as the detail, as UIKit's `showDetailViewController(_:sender:)`:
    /// in a (collapsed) split view it is pushed onto the shown stack (the root of a navigation
    /// controller holding its root alone), else presented.
    public func showDetailViewController(_ viewController: UIViewController, sender: Any?) {
        if let stack = splitViewController?.collapsedStack {
            // Collapsed, a detail in a navigation controller of its own joins the shown stack.
            let detail = viewController as? NavigationController
            let shown =
                detail?.viewControllers.count == 1 ? detail?.viewControllers.first ?? viewController : viewController
            stack.pushViewController(shown, animated: true)
        } else {
            present(viewController, animated: true)
        }
    }
}
