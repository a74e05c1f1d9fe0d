import Protocol

/// Navigation the app asked for while the worker was busy, run once it is not.
enum DeferredAppChange {
    case push(UIViewController)
    case pop
    /// `popToRootViewController(animated:)`.
    case popToRoot
    /// `popToViewController(_:animated:)`: to this controller, wherever it is by then (held
    /// weakly: waiting, it must not outlive a pop before it that releases it).
    case popTo(WeakController, name: String)
    /// `present(_:animated:completion:)`; the completion runs once the presentation ran.
    case present(UIViewController, in: NavigationController?, completion: (@MainActor () -> Void)?)
    /// `dismiss(animated:completion:)` called on this controller: what it dismisses is judged
    /// when the change runs (held weakly: waiting, it must not outlive a dismissal before it
    /// that releases it).
    case dismiss(from: WeakController, completion: (@MainActor () -> Void)?)
    /// `TabBarController.selectedIndex = index`.
    case selectTab(Int, TabBarController)
    /// `setViewControllers(_:animated:)` on the stack on screen: these controllers, bottom
    /// first, judged against the stack the change finds.
    case setStack([UIViewController])
    /// `parent.addChild(child)` (LIFECYCLE.md §3a).
    case addChild(UIViewController, parent: UIViewController)
    /// `child.removeFromParent()`.
    case removeChild(UIViewController, parent: UIViewController)
}

/// The changes app code makes on its own (docs/LIFECYCLE.md §3b): checked with the rules
/// of the equivalent host request (`refusal(of:)`), run with the callbacks of that request,
/// and reported as a `change` message followed by those callbacks marked `origin: app`.
///
/// Navigation requested while a host request or another app change runs waits for it: it
/// runs right after the request's reply, so the host never sees one transition inside
/// another. Background tasks run at once (UIKit's calls are synchronous and return an
/// identifier), even in the middle of a host transition. An illegal change is refused in the
/// app's API, with nothing changed and nothing sent.
extension WorkerSession {
    /// At most this many app changes run or wait between two host frames; beyond it the app
    /// navigates from its own navigation's callbacks without end, and further requests fail.
    static let maximumAppChangesPerTurn = 64

    // MARK: - Requests from the app's API

    func appRequestsPush(_ controller: UIViewController, on navigationController: NavigationController) {
        let name = controller.restorationIdentifier
        guard !name.isEmpty else {
            return refuse("pushViewController", "the controller has an empty restorationIdentifier")
        }
        guard !controller.isContainer else {
            return refuse("pushViewController(\(name))", "a container is pushed nowhere (push its view controller)")
        }
        // The limits a client's push obeys (SceneLimits): the app's own may not exceed them.
        if let refusal = SceneLimits.viewControllerNameRefusal(name) { return refuse("pushViewController", refusal) }
        let queuedPushes = deferredChanges.count { if case .push = $0 { true } else { false } }
        guard navigationController.viewControllers.count + queuedPushes < SceneLimits.maximumStackDepth else {
            return refuse(
                "pushViewController(\(name))",
                "the navigation stack is at its limit of \(SceneLimits.maximumStackDepth) view controllers"
            )
        }
        guard !navigationController.viewControllers.contains(where: { $0 === controller }),
            !deferredChanges.contains(where: { if case .push(let queued) = $0 { queued === controller } else { false } }
            )
        else {
            return refuse("pushViewController(\(name))", "the controller is already in the stack")
        }
        if isInWillConnectTo {
            // Before the scene appears a push only adds to the stack, as UIKit's does: the
            // same change as rebuilding the stack with `setViewControllers`, and as bounded
            // as every other app change (each sends the whole stack).
            guard appChangesThisTurn < Self.maximumAppChangesPerTurn else {
                return refuse(
                    "pushViewController(\(name))",
                    "more than \(Self.maximumAppChangesPerTurn) app changes in a row"
                )
            }
            appChangesThisTurn += 1
            return appRequestsSetStack(navigationController.viewControllers + [controller], on: navigationController)
        }
        if let refusal = refusal(of: .push(viewController: name)) {
            return refuse("pushViewController(\(name))", refusal.message)
        }
        request(.push(controller), describedAs: "pushViewController(\(name))")
    }

    func appRequestsPop(on navigationController: NavigationController) -> UIViewController? {
        if let refusal = notShown(navigationController) ?? refusal(of: .pop)?.message {
            refuse("popViewController", refusal)
            return nil
        }
        let top = navigationController.topViewController
        return request(.pop, describedAs: "popViewController") ? top : nil
    }

    func appRequestsPopToRoot(on navigationController: NavigationController) {
        if let refusal = notShown(navigationController) ?? refusal(of: .popToRoot)?.message {
            return refuse("popToRootViewController", refusal)
        }
        request(.popToRoot, describedAs: "popToRootViewController")
    }

    /// Where the controller is, and whether it is the top, is judged when the pop runs: a
    /// push the app asked for before it may still wait.
    func appRequestsPop(to controller: UIViewController, on navigationController: NavigationController) {
        let name = controller.restorationIdentifier
        let action = "popToViewController(\(name))"
        if let refusal = notShown(navigationController) ?? refusal(of: .popToRoot)?.message {
            return refuse(action, refusal)
        }
        request(.popTo(WeakController(controller), name: name), describedAs: action)
    }

    /// Why the app may not pop `navigationController`: it is not the stack on screen (another
    /// tab's, or a column's), which the model does not follow; nil for the shown one.
    func notShown(_ navigationController: NavigationController) -> String? {
        navigationController === scene?.window.navigationStack
            ? nil : "the stack is not the one on screen (another tab's or column's): only the shown stack pops here"
    }

    func appRequestsSelectTab(_ index: Int, on tabBarController: TabBarController) {
        let action = "selectedIndex = \(index)"
        // Before the scene appears there is no switch to run (choice: the launch shows the first tab).
        guard !isInWillConnectTo else { return refuse(action, "the scene has not appeared yet") }
        if let refusal = refusal(of: .selectTab(index: index)) { return refuse(action, refusal.message) }
        request(.selectTab(index, tabBarController), describedAs: action)
    }

    func appRequestsSetStack(_ controllers: [UIViewController], on navigationController: NavigationController) {
        let action = "setViewControllers"
        guard isInWillConnectTo else { return appRequestsReplaceStack(controllers, on: navigationController) }
        guard let root = navigationController.viewControllers.first, controllers.first === root else {
            return refuse(action, "the stack must start with the root the scene connected with")
        }
        if let refusal = Self.stackRefusal(controllers) { return refuse(action, refusal) }
        let unchanged =
            controllers.count == navigationController.viewControllers.count
            && zip(controllers, navigationController.viewControllers).allSatisfy { $0 === $1 }
        guard !unchanged else { return }
        navigationController.replaceStack(with: controllers)
        // Nothing loads now: the stack loads once willConnectTo returns (`loadRestoredControllers`).
        sink.send(.change(.setStack(controllers.map(\.restorationIdentifier))))
    }

    func appRequestsPresent(
        _ controller: UIViewController,
        on navigationController: NavigationController,
        completion: (@MainActor () -> Void)?
    ) {
        // A navigation controller presented with its root alone (a compose sheet with its bar
        // buttons) presents that root, in the navigation controller's style.
        var container: NavigationController?
        var controller = controller
        if let navigationController = controller as? NavigationController, !navigationController.isImplicit,
            navigationController.window == nil, !navigationController.isPresentedContainer,
            navigationController.viewControllers.count == 1
        {
            container = navigationController
            controller = navigationController.viewControllers[0]
        }
        let name = controller.restorationIdentifier
        guard !name.isEmpty else { return refuse("present", "the controller has an empty restorationIdentifier") }
        guard !controller.isContainer else {
            return refuse(
                "present(\(name))",
                "only a navigation controller holding its root alone is presented (present its view controller)"
            )
        }
        let style = container?.modalPresentationStyle ?? controller.modalPresentationStyle
        if let refusal = SceneLimits.viewControllerNameRefusal(name) { return refuse("present", refusal) }
        if let refusal = Self.shownRefusal(controller, presentedIn: container, over: navigationController) {
            return refuse("present(\(name))", refusal)
        }
        if let refusal = refusal(of: .present(viewController: name, style: style)) {
            return refuse("present(\(name))", refusal.message)
        }
        request(.present(controller, in: container, completion: completion), describedAs: "present(\(name))")
    }

    /// Why `controller` cannot be presented (`container`: the navigation controller presented
    /// with it as its root) over `navigationController`'s scene, or nil: it must be shown
    /// nowhere yet (not presented, not a child, in no stack but its container), as UIKit
    /// raises for a controller presented already or a child of another.
    static func shownRefusal(
        _ controller: UIViewController,
        presentedIn container: NavigationController?,
        over navigationController: NavigationController
    ) -> String? {
        guard controller.presentingViewController == nil, controller.parent == nil,
            controller.containingStack == nil || controller.containingStack === container,
            !navigationController.viewControllers.contains(where: { $0 === controller })
        else {
            return "the controller is already shown (presented, a child, or in a stack)"
        }
        return nil
    }

    func appRequestsDismiss(
        from caller: UIViewController,
        on navigationController: NavigationController,
        completion: (@MainActor () -> Void)?
    ) {
        if let refusal = refusal(of: .dismiss) {
            return refuse("dismiss", refusal.message)
        }
        request(.dismiss(from: WeakController(caller), completion: completion), describedAs: "dismiss")
    }

    /// Whether the app may begin a background task now (its API returns `.invalid` if not).
    /// A begin counts as one of the turn's app changes, and needs room for its end too: a
    /// loop that begins and ends tasks cannot grow one turn's output without end, and a task
    /// it began can always be ended.
    func appMayBeginBackgroundTask() -> Bool {
        guard exitStatus == nil, refusal(of: .beginBackgroundTask) == nil else { return false }
        guard appChangesThisTurn + 2 <= Self.maximumAppChangesPerTurn else {
            refuse("beginBackgroundTask", "more than \(Self.maximumAppChangesPerTurn) app changes in a row")
            return false
        }
        appChangesThisTurn += 1
        return true
    }

    /// Whether the app may end its background task now (else the call is ignored). Never
    /// refused for the turn's budget (UIKit's end cannot fail: a refused one would leave the
    /// task to expire); it counts, and a begin left room for it.
    func appMayEndBackgroundTask() -> Bool {
        guard exitStatus == nil, refusal(of: .endBackgroundTask) == nil else { return false }
        appChangesThisTurn += 1
        return true
    }

    // MARK: - Running them

    /// Runs `change` now if nothing else runs, else queues it. False when refused.
    @discardableResult
    func request(_ change: DeferredAppChange, describedAs action: String) -> Bool {
        guard exitStatus == nil else {
            refuse(action, "the worker is exiting")
            return false
        }
        guard appChangesThisTurn < Self.maximumAppChangesPerTurn else {
            refuse(action, "more than \(Self.maximumAppChangesPerTurn) app changes in a row")
            return false
        }
        appChangesThisTurn += 1
        deferredChanges.append(change)
        if !isCarryingOutRequest && !isRunningAppChange {
            runDeferredAppChanges()
        }
        return true
    }

    /// Runs the queued changes in order, each checked again against the state it finds
    /// (the transition it waited for may have made it illegal: then it is dropped and logged).
    func runDeferredAppChanges() {
        while true {
            // Each change may have made a controller with waiting children frontmost.
            queueWaitingChildren()
            guard !deferredChanges.isEmpty else { return }
            let change = deferredChanges.removeFirst()
            guard exitStatus == nil, let navigationController = scene?.window.navigationStack else {
                continue
            }
            switch change {
            case .push(let controller):
                if let refusal = refusal(of: .push(viewController: controller.restorationIdentifier)) {
                    refuse("pushViewController(\(controller.restorationIdentifier))", refusal.message)
                    continue
                }
                runAppChange(.push(viewController: controller.restorationIdentifier)) {
                    navigationController.performPush(controller, animated: true)
                }
            case .pop:
                if let refusal = refusal(of: .pop) {
                    refuse("popViewController", refusal.message)
                    continue
                }
                runAppChange(.pop) {
                    navigationController.performPop(animated: true)?.deinitOrigin = .app
                }
            case .popToRoot:
                if let refusal = refusal(of: .popToRoot) {
                    refuse("popToRootViewController", refusal.message)
                    continue
                }
                runPop(to: 0, in: navigationController)
            case .popTo(let target, let name):
                let action = "popToViewController(\(name))"
                // Where it is by then (a change before it may have pushed it, moved it or
                // popped it). No copy of the stack is kept past this line: it would keep the
                // controllers the pop releases alive, and their deinits late.
                guard let controller = target.controller,
                    let index = navigationController.viewControllers.firstIndex(where: { $0 === controller })
                else {
                    refuse(action, "the controller is not in the stack")
                    continue
                }
                // The top's pops nothing, as UIKit's.
                guard index < navigationController.viewControllers.count - 1 else { continue }
                if let refusal = refusal(of: .popToRoot) {
                    refuse(action, refusal.message)
                    continue
                }
                runPop(to: index, in: navigationController)
            case .present(let controller, let container, let completion):
                let style = container?.modalPresentationStyle ?? controller.modalPresentationStyle
                // Checked again: a change queued before it may have shown it since (a push, a
                // deep link that put it in the stack, a presentation of its own).
                if let refusal = Self.shownRefusal(controller, presentedIn: container, over: navigationController) {
                    refuse("present(\(controller.restorationIdentifier))", refusal)
                    continue
                }
                if let refusal = refusal(of: .present(viewController: controller.restorationIdentifier, style: style)) {
                    refuse("present(\(controller.restorationIdentifier))", refusal.message)
                    continue
                }
                if let container {
                    // The root is presented in its navigation controller's style (UIKit presents
                    // the navigation controller); the rest reads through `presentedContainer`.
                    container.isPresentedContainer = true
                    controller.presentedContainer = container
                    controller.modalPresentationStyle = style
                }
                runAppChange(.present(viewController: controller.restorationIdentifier, style: style)) {
                    navigationController.performPresent(controller)
                }
                completion?()
            case .dismiss(let caller, let completion):
                guard let count = navigationController.presentedCountDismissed(by: caller) else {
                    refuse("dismiss", "the controller it was called on is gone")
                    continue
                }
                // Each dismissal is a change of its own, and counts as one against the turn's
                // budget, as a client's would (the call counted one when it was asked for).
                guard appChangesThisTurn + max(count, 1) - 1 <= Self.maximumAppChangesPerTurn else {
                    refuse("dismiss", "more than \(Self.maximumAppChangesPerTurn) app changes in a row")
                    continue
                }
                appChangesThisTurn += max(count, 1) - 1
                // One dismissal each, the top first (LIFECYCLE.md §3b, choice): the model's
                // programmatic dismissal, which UIKit runs for the top one. Nothing left to
                // dismiss (a change before it did) is refused and logged; the completion runs
                // once a dismissal ran, as a refused presentation's does not.
                var dismissed = 0
                for _ in 0..<max(count, 1) {
                    if let refusal = refusal(of: .dismiss) {
                        refuse("dismiss", refusal.message)
                        break
                    }
                    runAppChange(.dismiss) {
                        // Its deinit, whenever it comes, belongs to the app's dismissal.
                        navigationController.presentedChain.last?.deinitOrigin = .app
                        navigationController.performDismiss()
                    }
                    dismissed += 1
                }
                if dismissed > 0 { completion?() }
            case .setStack(let controllers):
                runStackReplacement(controllers, in: navigationController)
            case .addChild(let child, let parent):
                runAddChild(child, to: parent)
            case .removeChild(let child, let parent):
                runRemoveChild(child, from: parent)
            case .selectTab(let index, let tabBarController):
                if let refusal = refusal(of: .selectTab(index: index)) {
                    refuse("selectedIndex = \(index)", refusal.message)
                    continue
                }
                // The selected tab again: nothing runs and nothing is reported.
                guard index != tabBarController.selectedIndex else { continue }
                runAppChange(.selectTab(index: index)) {
                    tabBarController.performSelect(index)
                }
            }
        }
    }

    /// Runs a pop to the controller at `index`, reported as `popToRoot` for the root and as
    /// `popTo` above it.
    func runPop(to index: Int, in navigationController: NavigationController) {
        runAppChange(index == 0 ? .popToRoot : .popTo(index: index)) {
            // Their deinits, whenever they come, belong to the app's pop.
            for controller in navigationController.viewControllers.dropFirst(index + 1) {
                controller.deinitOrigin = .app
            }
            navigationController.performPop(to: index, animated: true)
        }
    }

    /// Reports `change`, then runs `body` with every callback marked as the app's.
    func runAppChange(_ change: AppChange, _ body: () -> Void) {
        isRunningAppChange = true
        sink.send(.change(change))
        sink.origin = .app
        body()
        sink.origin = nil
        isRunningAppChange = false
    }

    /// After `willConnectTo` and the root's load: the rest of a stack the app rebuilt loads,
    /// bottom first, as the app's callbacks (choice: eager, so the trace names the whole
    /// restored stack).
    func loadRestoredControllers() {
        guard let stack = scene?.window.navigationStack.viewControllers, stack.count > 1 else { return }
        sink.origin = .app
        for controller in stack.dropFirst() {
            controller.runLoadViewIfNeeded()
        }
        sink.origin = nil
    }

    /// Logs a refused change on stderr (UIKit logs, or raises, and changes nothing).
    func refuse(_ action: String, _ reason: String) {
        writeError("scenehost worker: \(action) ignored: \(reason)")
    }
}
