import Protocol

/// A window the app made in `scene(_:willConnectTo:options:)` (`UIWindow(windowScene:)`, a
/// `rootViewController`, `makeKeyAndVisible()`), or a root it set on the scene's window there,
/// as programmatic UIKit apps start: its stack (a navigation controller's, or the one the
/// runtime keeps a plain root in) replaces the one the runtime made on the host's root, and
/// the host hears of the new stack as the app's change (`setStack`, docs/LIFECYCLE.md §3b).
extension WorkerSession {
    /// Takes the scene's window or root if the app replaced either, or puts the runtime's
    /// back (logged) when the app's cannot be shown: a root with no identity, a name over the
    /// limit, a stack too deep, a tab that holds more than its root, a scene the host connected with
    /// tabs.
    func adoptWindowMadeInCode(
        _ scene: UIWindowScene,
        replacing original: Window,
        originalRoot: UIViewController?,
        root: UIViewController
    ) {
        let window = scene.window
        guard window !== original || window.rootViewController !== originalRoot else { return }
        let navigationController = window.navigationStack
        let controllers = navigationController.viewControllers
        let refusal: String? =
            if original.tabBarController != nil {
                "the scene was connected with tabs: its root is the host's tab bar"
            } else if let tabBarController = window.tabBarController {
                Self.refusal(ofTabs: tabBarController.tabStacks)
            } else {
                Self.refusal(ofRoot: controllers)
            }
        if let refusal {
            writeError("scenehost worker: the window made in code is not shown: \(refusal)")
            if let originalRoot { original.installRoot(originalRoot) }
            scene.window = original
            return
        }
        if let delegate = sceneDelegate as? any UIWindowSceneDelegate, delegate.window !== window {
            delegate.window = window
        }
        if let tabBarController = window.tabBarController {
            adoptTabBar(tabBarController, of: window, replacing: root)
            return
        }
        navigationController.sink = sink
        navigationController.changeHandler = self
        navigationController.size = window.size
        for controller in controllers where controller.sink == nil { controller.sink = sink }
        // The runtime's root never loaded: it goes without a trace.
        if controllers.first !== root { root.sink = nil }
        guard controllers.first !== root || controllers.count > 1 else { return }
        // Nothing loads now: the stack loads once willConnectTo returns (the root, then
        // `loadRestoredControllers`), as for a stack the app restores.
        sink.send(.change(.setStack(controllers.map(\.restorationIdentifier))))
    }

    /// A tab bar root made in code: the selected tab's root loads once willConnectTo returns,
    /// as the launch's root; the other tabs' report nothing until their first selection (as
    /// a host's tab bar's). The host hears of it as the app's `setTabs`.
    private func adoptTabBar(_ tabBarController: TabBarController, of window: Window, replacing root: UIViewController)
    {
        tabBarController.changeHandler = self
        for stack in tabBarController.tabStacks {
            stack.sink = sink
            stack.changeHandler = self
            stack.size = window.size
        }
        tabBarController.selectedStack.activateSinks()
        let roots = tabBarController.tabStacks.map { $0.viewControllers[0] }
        // The runtime's root never loaded: it goes without a trace, or reports from its tab's
        // first selection on, as any other tab's.
        if root !== tabBarController.selectedStack.viewControllers.first { root.sink = nil }
        sink.send(.change(.setTabs(roots.map(\.restorationIdentifier), selected: tabBarController.selectedIndex)))
    }

    /// Why a tab bar made in code cannot be the window's root, or nil.
    private static func refusal(ofTabs stacks: [NavigationController]) -> String? {
        guard stacks.count <= SceneLimits.maximumTabs else {
            return "its tab bar has more than \(SceneLimits.maximumTabs) tabs"
        }
        var roots: [UIViewController] = []
        for stack in stacks {
            guard stack.viewControllers.count == 1 else {
                return "a tab holds more than its root (push once the scene is shown)"
            }
            let controller = stack.viewControllers[0]
            if let refusal = refusal(of: controller) { return refusal }
            if roots.contains(where: { $0 === controller }) {
                return "\(controller.restorationIdentifier) is in the tab bar twice"
            }
            roots.append(controller)
        }
        return nil
    }

    /// Why a stack made in code cannot be the window's, or nil.
    private static func refusal(ofRoot controllers: [UIViewController]) -> String? {
        guard let root = controllers.first, !root.restorationIdentifier.isEmpty else {
            return "its rootViewController holds no view controller (set one before makeKeyAndVisible())"
        }
        guard controllers.count <= SceneLimits.maximumStackDepth else {
            return "its stack holds more than \(SceneLimits.maximumStackDepth) view controllers"
        }
        for (index, controller) in controllers.enumerated() {
            if let refusal = refusal(of: controller) { return refusal }
            if controllers[..<index].contains(where: { $0 === controller }) {
                return "\(controller.restorationIdentifier) is in the stack twice"
            }
        }
        return nil
    }

    /// Why `controller` cannot be in a root made in code (a stack or a tab), or nil: the
    /// identity the host names it by, within the client's limit, and no container.
    private static func refusal(of controller: UIViewController) -> String? {
        if controller.restorationIdentifier.isEmpty { return "a view controller has an empty restorationIdentifier" }
        if controller.isContainer { return "a container is in its stack (put its view controller in)" }
        return SceneLimits.viewControllerNameRefusal(controller.restorationIdentifier)
    }
}
