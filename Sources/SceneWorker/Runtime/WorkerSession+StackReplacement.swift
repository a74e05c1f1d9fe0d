import Protocol

/// `setViewControllers(_:animated:)` on the stack on screen (docs/LIFECYCLE.md §3b): with
/// a new controller on top, UIKit's push transition to it, then the controllers the new
/// stack leaves out released (`change replaceStack`); with the bottom part of the stack, a
/// pop to that part's top; with the stack itself, nothing.
///
/// scenehost loads every controller of a stack it shows, where UIKit loads a controller
/// below the top only once it appears: so new controllers below a new top (a deep link)
/// load before the transition, bottom first, and must come above the controllers of the
/// stack the new one keeps, which keep their order. A new stack that keeps the top but
/// drops controllers below it (UIKit's change without a transition), or mixes new
/// controllers in among kept ones, is refused and logged, with nothing changed.
extension WorkerSession {
    /// What a new stack does to the stack on screen.
    enum StackReplacement: Equatable {
        /// The same controllers: nothing runs.
        case unchanged
        /// The bottom part of the stack, up to this index: a pop to that controller.
        case popTo(Int)
        /// The stack and a new top: a push.
        case push
        /// The controllers at these indices of the stack, then `newBelow` new controllers,
        /// then a new top.
        case replace(kept: [Int], newBelow: Int)
        /// Not one of the above: why.
        case refused(String)
    }

    /// Checks the new stack's controllers, then runs the replacement or queues it behind
    /// what runs (it is judged against the stack it finds then).
    func appRequestsReplaceStack(_ controllers: [UIViewController], on navigationController: NavigationController) {
        let action = "setViewControllers"
        if let refusal = notShown(navigationController) { return refuse(action, refusal) }
        guard !controllers.isEmpty else { return refuse(action, "the new stack is empty") }
        if let refusal = Self.stackRefusal(controllers) { return refuse(action, refusal) }
        request(.setStack(controllers), describedAs: action)
    }

    /// Why `controllers` cannot be a stack, or nil: within the depth a client's requests
    /// obey, each a named, plain controller (no container) whose name obeys the client's
    /// limit, none twice.
    static func stackRefusal(_ controllers: [UIViewController]) -> String? {
        guard controllers.count <= SceneLimits.maximumStackDepth else {
            return "the stack may hold at most \(SceneLimits.maximumStackDepth) view controllers"
        }
        for (index, controller) in controllers.enumerated() {
            guard !controller.restorationIdentifier.isEmpty else {
                return "a controller has an empty restorationIdentifier"
            }
            guard !controller.isContainer else {
                return "a container is in a stack nowhere (put its view controller in)"
            }
            if let refusal = SceneLimits.viewControllerNameRefusal(controller.restorationIdentifier) {
                return refusal
            }
            guard !controllers[..<index].contains(where: { $0 === controller }) else {
                return "\(controller.restorationIdentifier) is in the stack twice"
            }
        }
        return nil
    }

    /// Runs a replacement asked for with `controllers`, against the stack as it is now.
    func runStackReplacement(_ controllers: [UIViewController], in navigationController: NavigationController) {
        let action = "setViewControllers"
        // Judged in a call of its own: no copy of the stack outlives it, to keep alive the
        // controllers the change releases.
        switch Self.replacement(of: navigationController.viewControllers, by: controllers) {
        case .unchanged:
            return
        case .popTo(let index):
            if let refusal = refusal(of: .popToRoot) { return refuse(action, refusal.message) }
            runPop(to: index, in: navigationController)
        case .push:
            let top = controllers[controllers.count - 1]
            if let refusal = newTopRefusal(top) { return refuse(action, refusal) }
            runAppChange(.push(viewController: top.restorationIdentifier)) {
                navigationController.performPush(top, animated: true)
            }
        case .replace(let kept, let newBelow):
            let top = controllers[controllers.count - 1]
            let below = Array(controllers[kept.count..<kept.count + newBelow])
            let belowRefusal = below.lazy.compactMap { Self.newControllerRefusal($0, "below the new top") }.first
            if let refusal = belowRefusal ?? newTopRefusal(top) {
                return refuse(action, refusal)
            }
            let change = AppChange.replaceStack(
                kept: kept,
                below: below.map(\.restorationIdentifier),
                viewController: top.restorationIdentifier
            )
            runAppChange(change) {
                Self.markLeftOut(of: navigationController, keeping: kept)
                navigationController.performReplace(keeping: kept, below: below, top: top, animated: true)
            }
        case .refused(let reason):
            refuse(action, reason)
        }
    }

    /// Marks the controllers of the stack not at `kept` as released by the app: their
    /// deinits, whenever they come, belong to its change. (A call of its own: the copy of
    /// the stack it reads goes with it.)
    private static func markLeftOut(of navigationController: NavigationController, keeping kept: [Int]) {
        for (index, controller) in navigationController.viewControllers.enumerated() where !kept.contains(index) {
            controller.deinitOrigin = .app
        }
    }

    /// Why the new `controller` (`role`: where in the new stack) cannot join it, or nil: it
    /// must be held nowhere yet (not presented, not a child, in no other stack), and its view
    /// not loaded (its `loadView` and `viewDidLoad` run as it joins).
    private static func newControllerRefusal(_ controller: UIViewController, _ role: String) -> String? {
        let name = controller.restorationIdentifier
        guard controller.presentingViewController == nil, controller.parent == nil, controller.containingStack == nil
        else {
            return "\(name), \(role), is shown already (presented, a child, or in another stack)"
        }
        guard !controller.isViewLoaded else {
            return "\(name), \(role), has its view loaded already "
                + "(scenehost loads a new stack's controllers as it shows them: make a new one)"
        }
        return nil
    }

    /// Why `top` cannot be pushed as a new stack's top now, or nil: a new controller, and the
    /// rules of a push.
    private func newTopRefusal(_ top: UIViewController) -> String? {
        Self.newControllerRefusal(top, "the new top")
            ?? refusal(of: .push(viewController: top.restorationIdentifier))?.message
    }

    /// What replacing `stack` with `controllers` (not empty, none twice) does.
    static func replacement(of stack: [UIViewController], by controllers: [UIViewController]) -> StackReplacement {
        if controllers.count <= stack.count, zip(controllers, stack).allSatisfy({ $0 === $1 }) {
            return controllers.count == stack.count ? .unchanged : .popTo(controllers.count - 1)
        }
        let top = controllers[controllers.count - 1]
        guard !stack.contains(where: { $0 === top }) else {
            return .refused(
                "its top \(top.restorationIdentifier) is in the stack, and the new stack is no bottom part of it "
                    + "(scenehost replaces a stack with a new top, or pops to a controller of it)"
            )
        }
        // The stack's controllers kept, in their order, then the new ones.
        var kept: [Int] = []
        var newBelow = 0
        for controller in controllers.dropLast() {
            guard let index = stack.firstIndex(where: { $0 === controller }) else {
                newBelow += 1
                continue
            }
            guard newBelow == 0, index > kept.last ?? -1 else {
                return .refused(
                    "\(controller.restorationIdentifier), below the new top, is not in the stack in that order, "
                        + "below the new controllers (scenehost keeps a stack's controllers in their order, at "
                        + "its bottom)"
                )
            }
            kept.append(index)
        }
        return kept.count == stack.count && newBelow == 0 ? .push : .replace(kept: kept, newBelow: newBelow)
    }
}
