import Protocol

/// The app's own containment changes (`addChild(_:)`, `removeFromParent()`,
/// docs/LIFECYCLE.md §3a and §3b): checked with the rules of the host's `addChild` and
/// `removeChild`, run as app changes, refused in the app's API (logged, nothing changed).
extension WorkerSession {
    func appRequestsAddChild(_ child: UIViewController, to parent: UIViewController) {
        let name = child.restorationIdentifier
        let action = "addChild(\(name))"
        if child.isContainer { return refuse(action, "a container is a child nowhere (add its view controller)") }
        if let reason = addChildRefusal(child, to: parent) { return refuse(action, reason) }
        request(.addChild(child, parent: parent), describedAs: action)
    }

    func appRequestsRemoveChild(_ child: UIViewController, from parent: UIViewController) {
        let action = "removeFromParent(\(child.restorationIdentifier))"
        if let reason = removeChildRefusal(child, from: parent) { return refuse(action, reason) }
        request(.removeChild(child, parent: parent), describedAs: action)
    }

    /// Runs a queued `addChild`, checked again against the state it finds.
    func runAddChild(_ child: UIViewController, to parent: UIViewController) {
        let name = child.restorationIdentifier
        if let reason = addChildRefusal(child, to: parent) { return refuse("addChild(\(name))", reason) }
        runAppChange(.addChild(viewController: name)) {
            parent.performAddChild(child, asContainer: false)
        }
    }

    /// Runs a queued removal; the child's `deinit`, whenever it comes, is the app's.
    func runRemoveChild(_ child: UIViewController, from parent: UIViewController) {
        let name = child.restorationIdentifier
        if let reason = removeChildRefusal(child, from: parent) {
            return refuse("removeFromParent(\(name))", reason)
        }
        child.deinitOrigin = .app
        runAppChange(.removeChild(viewController: name)) {
            parent.performRemoveChild(child, asContainer: false)
        }
    }

    private func addChildRefusal(_ child: UIViewController, to parent: UIViewController) -> String? {
        let name = child.restorationIdentifier
        guard !name.isEmpty else { return "the controller has an empty restorationIdentifier" }
        if let refusal = SceneLimits.viewControllerNameRefusal(name) { return refusal }
        guard parent === frontmostController || isQueuedToBeFrontmost(parent) else {
            return "only the frontmost view controller (the presented one, else the top of the stack) adds children"
        }
        guard child.parent == nil, !child.isViewLoaded, child !== parent,
            !(scene?.window.allLoadedControllers.contains { $0 === child } ?? false)
        else {
            return "the controller is already shown or loaded (a child loads as it is added)"
        }
        if queuedContainment(of: child) { return "the controller is already being added" }
        return refusal(of: .addChild(viewController: name))?.message
    }

    private func removeChildRefusal(_ child: UIViewController, from parent: UIViewController) -> String? {
        guard parent === frontmostController else {
            return "only the frontmost view controller (the presented one, else the top of the stack) removes children"
        }
        guard parent.children.contains(where: { $0 === child }) else { return "the controller is not a child" }
        return refusal(of: .removeChild(viewController: child.restorationIdentifier))?.message
    }

    /// Whether a queued push, presentation or stack replacement (a deep link) makes
    /// `controller` the frontmost one: a child added to it now is added once that ran (each
    /// change is checked again when it runs).
    private func isQueuedToBeFrontmost(_ controller: UIViewController) -> Bool {
        deferredChanges.contains {
            switch $0 {
            case .push(let queued), .present(let queued, _, _): queued === controller
            case .setStack(let stack): stack.last === controller
            default: false
            }
        }
    }

    private func queuedContainment(of child: UIViewController) -> Bool {
        deferredChanges.contains {
            if case .addChild(let queued, _) = $0 { return queued === child }
            return false
        }
    }
}

extension WorkerOperation {
    /// For `addChild` and `removeChild`: the model's operation and the child's name.
    var containment: (LifecycleOperation, String)? {
        switch self {
        case .addChild(let name): (.addChild, name)
        case .removeChild(let name): (.removeChild, name)
        default: nil
        }
    }
}
