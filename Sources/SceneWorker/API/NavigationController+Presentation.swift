/// Presentation over the stack and the interactive transitions, in docs/LIFECYCLE.md §3a's
/// orders. The runtime drives these for the host's `present`, `dismiss`, `swipeDismiss` and
/// `swipeBack`, after checking them with the model's rules.
extension NavigationController {
    /// Every loaded controller, root first, the presented ones last (memory warnings, size
    /// changes).
    var allControllers: [UIViewController] { viewControllers + presentedChain }

    /// The controllers presented over the stack, the first presented first: a presented
    /// controller may present another (real-ios-orders-3 c23).
    var presentedChain: [UIViewController] {
        var chain: [UIViewController] = []
        var next = presentedViewController
        while let controller = next {
            chain.append(controller)
            next = controller.presentedViewController
        }
        return chain
    }

    /// How many presented controllers `dismiss(animated:completion:)` called on `caller`
    /// dismisses, as UIKit's: called on the last presented one, that one; on one lower in the
    /// chain, every one presented above it; on a controller of the stack (or a child, or a
    /// presented navigation controller, through the controller holding it), every one of the
    /// chain. Nil when `caller` is gone. (A function of its own: the strong reference it
    /// takes goes before any dismissal runs.)
    func presentedCountDismissed(by caller: WeakController) -> Int? {
        guard let caller = caller.controller else { return nil }
        let chain = presentedChain
        var current: UIViewController? = caller
        while let controller = current {
            if let index = chain.firstIndex(where: { $0 === controller }) {
                return index == chain.count - 1 ? 1 : chain.count - 1 - index
            }
            if let container = controller as? NavigationController, container.isPresentedContainer {
                current = container.viewControllers.first
            } else {
                current = controller.parent
            }
        }
        return chain.count
    }

    /// The controller on screen: the last presented one, else the stack's top.
    var visibleViewController: UIViewController? { presentedChain.last ?? topViewController }

    /// Presents `controller` over the frontmost controller in `controller.modalPresentationStyle`.
    /// Full screen: B loads, A `viewWillDisappear`, B appears (`viewWillAppear`,
    /// `viewIsAppearing`, layout, `viewDidAppear`), then A `viewDidDisappear`. Page sheet, over
    /// full screen, alert: A hears nothing.
    func performPresent(_ controller: UIViewController) {
        guard let presenter = visibleViewController else { return }
        if controller.sink == nil {
            controller.sink = sink
        }
        if presentedViewController == nil { presentedViewController = controller }
        presenter.presentedViewController = controller
        controller.presentingViewController = presenter
        // UIKit presents a navigation controller the app wrapped the controller in: that one
        // is being presented (its root is not), as the app's `navigationController?.` checks expect.
        let shown = controller.presentedContainer ?? controller
        shown.isBeingPresented = true
        defer { shown.isBeingPresented = false }
        controller.runLoadViewIfNeeded()
        let coversPresenter = controller.modalPresentationStyle == .fullScreen
        if coversPresenter { presenter.runViewWillDisappear(true) }
        controller.runViewWillAppear(true)
        controller.runLayout(size: size)
        controller.runViewDidAppear(true)
        if coversPresenter { presenter.runViewDidDisappear(true) }
    }

    /// Dismisses the presented controller (programmatic: no delegate callbacks). Full screen:
    /// B `viewWillDisappear`, A reappears (layout only if dirty), B `viewDidDisappear`
    /// before A `viewDidAppear`; page sheet: B's disappearance only. B is released.
    func performDismiss() {
        guard let presented = presentedChain.last, let presenter = presented.presentingViewController else {
            return
        }
        let coveredPresenter = presented.modalPresentationStyle == .fullScreen
        let shown = presented.presentedContainer ?? presented
        shown.isBeingDismissed = true
        defer { shown.isBeingDismissed = false }
        presented.runViewWillDisappear(true)
        if coveredPresenter {
            presenter.runViewWillAppear(true)
            presenter.runLayoutIfNeeded(size: size)
        }
        presented.runViewDidDisappear(true)
        if coveredPresenter { presenter.runViewDidAppear(true) }
        releasePresented()
    }

    /// The user swipes the sheet down and lets go (`completes`) or lets it spring back.
    /// Returns whether the sheet was dismissed: a controller `isModalInPresentation` is never,
    /// its delegate only hears of the attempt.
    func performSwipeDismiss(completes: Bool) -> Bool {
        guard let presented = presentedChain.last else { return false }
        // Modal in presentation, or the delegate asked first says to keep it (UIKit's order:
        // should dismiss, then will and did dismiss): the attempt alone.
        let isModal = presented.isModalInPresentation || presented.presentedContainer?.isModalInPresentation == true
        if isModal
            || presented.presentationWithDelegate.map({ $0.delegate?.presentationControllerShouldDismiss($0) == false })
                == true
        {
            presented.runPresentationControllerCallback(.presentationControllerDidAttemptToDismiss)
            return false
        }
        // Being dismissed from the swipe's start, until it springs back.
        let shown = presented.presentedContainer ?? presented
        shown.isBeingDismissed = true
        defer { shown.isBeingDismissed = false }
        presented.runViewWillDisappear(true)
        guard completes else {
            shown.isBeingDismissed = false
            presented.isInCancelledSwipe = true
            defer { presented.isInCancelledSwipe = false }
            presented.runViewWillAppear(true)
            presented.runViewDidAppear(true)
            return false
        }
        presented.runPresentationControllerCallback(.presentationControllerWillDismiss)
        presented.runViewDidDisappear(true)
        presented.runPresentationControllerCallback(.presentationControllerDidDismiss)
        releasePresented()
        return true
    }

    /// The user swipes back from the screen's edge. Completed: a pop. Cancelled: B
    /// `viewWillDisappear`, A `viewWillAppear`, `viewIsAppearing` (layout if dirty), then A
    /// disappears again and B reappears; A never gets `viewDidAppear`, B stays.
    func performSwipeBack(completes: Bool) {
        guard completes else {
            guard viewControllers.count >= 2 else { return }
            // UIKit says the top is moving from its parent until the swipe is cancelled.
            let moving = viewControllers[viewControllers.count - 1]
            moving.isMovingFromParent = true
            defer { moving.isMovingFromParent = false }
            let top = viewControllers[viewControllers.count - 1]
            let below = viewControllers[viewControllers.count - 2]
            top.isInCancelledSwipe = true
            below.isInCancelledSwipe = true
            defer {
                top.isInCancelledSwipe = false
                below.isInCancelledSwipe = false
            }
            top.runViewWillDisappear(true)
            below.runViewWillAppear(true)
            below.runLayoutIfNeeded(size: size)
            below.runViewWillDisappear(true)
            below.runViewDidDisappear(true)
            top.runViewWillAppear(true)
            top.runViewDidAppear(true)
            return
        }
        performPop(animated: true)
    }

    /// Drops the last reference the stack holds to the last presented controller, so that
    /// its `deinit` runs now unless app code keeps it.
    func releasePresented() {
        guard let presented = presentedChain.last else { return }
        presented.presentingViewController?.presentedViewController = nil
        presented.presentingViewController = nil
        if presentedViewController === presented { presentedViewController = nil }
        // A presented navigation controller goes with its root (the app may present it again).
        presented.presentedContainer?.isPresentedContainer = false
        presented.presentedContainer = nil
    }
}
