import Protocol

/// The app's own containment changes (`addChild(_:)`, `removeFromParent()`,
/// docs/LIFECYCLE.md §3a and §3b): checked with the rules of the host's `addChild` and
/// `removeChild`, run as app changes, refused in the app's API (logged, nothing changed).
extension WorkerSession {
    func appRequestsAddChild(_ child: UIViewController, to parent: UIViewController) {
        let name = child.restorationIdentifier
        let action = "addChild(\(name))"
        if child.isContainer { return refuse(action, "a container is a child nowhere (add its view controller)") }
        if let reason = addChildRefusal(child, to: parent) {
            // In its `viewDidLoad`, a controller of the stack that is not frontmost in the
            // foreground yet (the root at launch, one a deep link loads below its top) keeps
            // the child until it is: UIKit adds it at once.
            guard parent.isLoadingView,
                parent.containingStack?.viewControllers.contains(where: { $0 === parent }) == true
            else { return refuse(action, reason) }
            if let reason = waitingChildRefusal(child, to: parent) { return refuse(action, reason) }
            waitingChildren.append(WaitingChild(parent: WeakController(parent), child: child))
            child.addingSession = self
            return
        }
        // Set first: the add may run at once, inside `request`.
        child.addingSession = self
        if !request(.addChild(child, parent: parent), describedAs: action) { child.abandonAddingAsChild() }
    }

    /// Calls off the add of `child` that still waits (queued, or for its parent): the app
    /// removed it before it joined, so nothing is reported, as if it had joined and left.
    /// What leaves the lists is released after they changed.
    func cancelAddingAsChild(_ child: UIViewController) {
        var dropped: (WaitingChild?, DeferredAppChange?) = (nil, nil)
        if let index = waitingChildren.firstIndex(where: { $0.child === child }) {
            dropped.0 = waitingChildren.remove(at: index)
        }
        if let index = deferredChanges.firstIndex(where: {
            if case .addChild(let queued, _) = $0 { queued === child } else { false }
        }) {
            dropped.1 = deferredChanges.remove(at: index)
        }
        child.abandonAddingAsChild()
        withExtendedLifetime(dropped) {}
    }

    /// Why `child` cannot wait for `parent`, or nil: the checks of an `addChild` that do not
    /// depend on where the parent is, against its children and the ones waiting for it.
    private func waitingChildRefusal(_ child: UIViewController, to parent: UIViewController) -> String? {
        let name = child.restorationIdentifier
        guard !name.isEmpty else { return "the controller has an empty restorationIdentifier" }
        if let refusal = SceneLimits.viewControllerNameRefusal(name) { return refusal }
        guard child.parent == nil, !child.isViewLoaded, child !== parent,
            !waitingChildren.contains(where: { $0.child === child })
        else {
            return "the controller is already shown, loaded or being added"
        }
        let waiting = waitingChildren.filter { $0.parent.controller === parent }.map(\.child.restorationIdentifier)
        let names = parent.children.map(\.restorationIdentifier) + waiting
        guard !names.contains(name) else { return "the parent already has a child named \(name)" }
        guard names.count < SceneSnapshot.maximumChildren else {
            return "the parent has \(SceneSnapshot.maximumChildren) children already"
        }
        return nil
    }

    /// Queues, as app changes, the children waiting for the frontmost controller once the
    /// scene is in the foreground, ahead of the changes queued since (they were asked for
    /// first: a push the parent's `viewDidAppear` asked for must not cover it before they
    /// join). Forgets the ones whose parent left its stack. Each counts against the turn's
    /// budget, as any `addChild`.
    func queueWaitingChildren() {
        guard !waitingChildren.isEmpty else { return }
        // Taken out first: a child dropped here is released when `waiting` goes, after the
        // list is changed (its `deinit` is app code).
        let waiting = waitingChildren
        waitingChildren = []
        let frontmost = state == .foregroundActive || state == .foregroundInactive ? frontmostController : nil
        var ready: [DeferredAppChange] = []
        for entry in waiting {
            guard let parent = entry.parent.controller,
                parent.containingStack?.viewControllers.contains(where: { $0 === parent }) == true
            else {
                entry.child.abandonAddingAsChild()
                continue
            }
            guard parent === frontmost else {
                waitingChildren.append(entry)
                continue
            }
            guard appChangesThisTurn < Self.maximumAppChangesPerTurn else {
                entry.child.abandonAddingAsChild()
                refuse(
                    "addChild(\(entry.child.restorationIdentifier))",
                    "more than \(Self.maximumAppChangesPerTurn) app changes in a row"
                )
                continue
            }
            appChangesThisTurn += 1
            ready.append(.addChild(entry.child, parent: parent))
        }
        if !ready.isEmpty { deferredChanges.insert(contentsOf: ready, at: 0) }
    }

    func appRequestsRemoveChild(_ child: UIViewController, from parent: UIViewController) {
        let action = "removeFromParent(\(child.restorationIdentifier))"
        if let reason = removeChildRefusal(child, from: parent) { return refuse(action, reason) }
        request(.removeChild(child, parent: parent), describedAs: action)
    }

    /// Runs a queued `addChild`, checked again against the state it finds.
    func runAddChild(_ child: UIViewController, to parent: UIViewController) {
        child.addingSession = nil
        let name = child.restorationIdentifier
        if let reason = addChildRefusal(child, to: parent) {
            child.abandonAddingAsChild()
            return refuse("addChild(\(name))", reason)
        }
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

/// A child added in its parent's `viewDidLoad` before the parent could take it: the parent
/// is held weakly (it goes with its stack as if it had no child waiting), the child strongly.
struct WaitingChild {
    let parent: WeakController
    let child: UIViewController
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
