import Protocol

/// A window the app made in `scene(_:willConnectTo:options:)` (`UIWindow(windowScene:)`, a
/// `rootViewController`, `makeKeyAndVisible()`), as programmatic UIKit apps start: its stack
/// replaces the one the runtime made on the host's root, and the host hears of the new
/// stack as the app's change (`setStack`, docs/LIFECYCLE.md §3b).
extension WorkerSession {
    /// Takes the scene's window if the app replaced it, or puts the runtime's back (logged)
    /// when the app's cannot be shown: a root with no identity, a name over the limit, a
    /// stack too deep.
    func adoptWindowMadeInCode(_ scene: UIWindowScene, replacing original: Window, root: UIViewController) {
        guard scene.window !== original else { return }
        let window = scene.window
        let navigationController = window.rootViewController
        let controllers = navigationController.viewControllers
        if let refusal = Self.refusal(ofRoot: controllers) {
            writeError("scenehost worker: the window made in code is not shown: \(refusal)")
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
