import Protocol

/// A navigation stack of view controllers, shaped like `UINavigationController`.
///
/// Each scene's window holds one. Pushing and popping run exactly the callback orders of
/// `docs/LIFECYCLE.md` once the stack is on screen (after the scene's first appearance);
/// before that they only change the stack. The runtime drives it for the host's `push`
/// and `pop` operations; app code may call it too, but the host checks every callback
/// against its model, so a push or pop the host did not ask for is a protocol violation.
@MainActor
public final class NavigationController {
    /// The stack, root first. Empty only once the scene disconnected.
    public private(set) var viewControllers: [ViewController]

    /// Where pushed controllers report their callbacks.
    var sink: CallbackSink?
    /// Whether the stack has appeared (the scene's first appearance ran).
    var isOnScreen = false
    /// The size the visible controller lays out at.
    var size: Size

    /// A stack holding `rootViewController` alone.
    public init(rootViewController: ViewController) {
        viewControllers = [rootViewController]
        size = .zero
        rootViewController.navigationController = self
    }

    /// The controller on top of the stack (the visible one).
    public var topViewController: ViewController? { viewControllers.last }

    /// Pushes `viewController` on the stack. On screen: B `loadView`, B `viewDidLoad`
    /// (unless already loaded), A `viewWillDisappear`, B `viewWillAppear`, B's layout pair,
    /// A `viewDidDisappear`, B `viewDidAppear`.
    ///
    /// A controller already in the stack is ignored (UIKit would raise).
    public func pushViewController(_ viewController: ViewController, animated: Bool) {
        guard !viewControllers.contains(where: { $0 === viewController }) else { return }
        if viewController.sink == nil {
            viewController.sink = sink
        }
        let previous = topViewController
        viewControllers.append(viewController)
        viewController.navigationController = self
        guard isOnScreen else { return }
        viewController.runLoadViewIfNeeded()
        previous?.runViewWillDisappear(animated)
        viewController.runViewWillAppear(animated)
        viewController.runLayout(size: size)
        previous?.runViewDidDisappear(animated)
        viewController.runViewDidAppear(animated)
    }

    /// Pops the top controller and returns it; nil (and nothing happens) at the root.
    /// On screen: B `viewWillDisappear`, A `viewWillAppear`, A's layout pair,
    /// B `viewDidDisappear`, A `viewDidAppear`.
    ///
    /// B reports `deinit` when the last reference to it goes: the runtime drops the returned
    /// controller at once; if you keep it, it stays alive (and its `deinit` comes later or never).
    @discardableResult
    public func popViewController(animated: Bool) -> ViewController? {
        guard viewControllers.count >= 2 else { return nil }
        let popped = viewControllers.removeLast()
        let revealed = viewControllers[viewControllers.count - 1]
        if isOnScreen {
            popped.runViewWillDisappear(animated)
            revealed.runViewWillAppear(animated)
            revealed.runLayout(size: size)
            popped.runViewDidDisappear(animated)
            revealed.runViewDidAppear(animated)
        }
        popped.navigationController = nil
        return popped
    }

    /// Releases every controller, top of the stack first, so their `deinit`s run in that
    /// order (for those nothing else keeps alive). The stack is empty afterwards: only for
    /// a disconnecting scene.
    func releaseAllTopFirst() {
        while !viewControllers.isEmpty {
            releaseTop()
        }
    }

    private func releaseTop() {
        let top = viewControllers.removeLast()
        top.navigationController = nil
    }
}
