// swift-format-ignore-file
import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = (scene as? UIWindowScene) else { return }
        // A programmatic app's start (the host's root is then replaced), when asked for.
        guard ProcessInfo.processInfo.environment["WINDOW_IN_CODE"] == "1" else { return }
        window = UIWindow(windowScene: windowScene)
        window?.rootViewController = UINavigationController(rootViewController: ListViewController())
        window?.makeKeyAndVisible()
    }

    func scene(_ scene: UIScene, restoreInteractionStateWith stateRestorationActivity: NSUserActivity) {
        Journal.shared.note("restoreInteractionState \(stateRestorationActivity.activityType)")
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        Journal.shared.note("sceneDidEnterBackground")
    }

    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        return scene.userActivity
    }
}
