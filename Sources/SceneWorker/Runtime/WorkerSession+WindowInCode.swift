import Protocol

/// A window the app made in `scene(_:willConnectTo:options:)` (`UIWindow(windowScene:)`, a
/// `rootViewController`, `makeKeyAndVisible()`), or a root it set on the scene's window there,
/// as programmatic UIKit apps start: its stack (a navigation controller's, or the one the
/// runtime keeps a plain root in) replaces the one the runtime made on the host's root, and
/// the host hears of the new stack as the app's change (`setStack`, docs/LIFECYCLE.md §3b).
extension WorkerSession {
    /// Takes the scene's window or root if the app replaced either, or puts the runtime's
    /// back (logged) when the app's cannot be shown: a root with no identity, a name over the
    /// limit, a stack too deep, a tab bar (not supported yet), a scene the host connected with
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
            if window.tabBarController != nil {
                "a tab bar root made in code is not supported (connect the scene with tabs)"
            } else if original.tabBarController != nil {
                "the scene was connected with tabs: its root is the host's tab bar"
            } else {
                Self.refusal(ofRoot: controllers)
            }
        if let refusal {
            writeError("scenehost worker: the window made in code is not shown: \(refusal)")
            if let originalRoot { original.installRoot(originalRoot) }
            scene.window = original
            return
        }
        navigationController.sink = sink
        navigationController.changeHandler = self
        navigationController.size = window.size
        for controller in controllers where controller.sink == nil { controller.sink = sink }
        // The runtime's root never loaded: it goes without a trace.
        if controllers.first !== root { root.sink = nil }
        if let delegate = sceneDelegate as? any UIWindowSceneDelegate, delegate.window !== window {
            delegate.window = window
        }
        guard controllers.first !== root || controllers.count > 1 else { return }
        // Nothing loads now: the stack loads once willConnectTo returns (the root, then
        // `loadRestoredControllers`), as for a stack the app restores.
        sink.send(.change(.setStack(controllers.map(\.restorationIdentifier))))
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
            if controller.restorationIdentifier.isEmpty {
                return "a view controller has an empty restorationIdentifier"
            }
            if let refusal = SceneLimits.viewControllerNameRefusal(controller.restorationIdentifier) { return refusal }
            if controllers[..<index].contains(where: { $0 === controller }) {
                return "\(controller.restorationIdentifier) is in the stack twice"
            }
        }
        return nil
    }
}
