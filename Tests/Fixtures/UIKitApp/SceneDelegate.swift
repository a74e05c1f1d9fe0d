// swift-format-ignore-file
import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = (scene as? UIWindowScene) else { return }
        // A programmatic app's start (the host's root is then replaced), when asked for: a
        // navigation controller, or a plain controller from the storyboard.
        switch ProcessInfo.processInfo.environment["WINDOW_IN_CODE"] {
        case "1":
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = UINavigationController(rootViewController: ListViewController())
            window?.makeKeyAndVisible()
        case "tabs":
            let tabBarController = UITabBarController()
            tabBarController.viewControllers = [UINavigationController(rootViewController: ListViewController()), SettingsViewController()]
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = tabBarController
            window?.makeKeyAndVisible()
        case "split":
            let splitViewController = UISplitViewController(style: .doubleColumn)
            splitViewController.setViewController(ListViewController(), for: .primary)
            splitViewController.setViewController(SettingsViewController(), for: .secondary)
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = splitViewController
            window?.makeKeyAndVisible()
        case "plain":
            let storyboard = UIStoryboard(name: "Main", bundle: Bundle.main)
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = storyboard.instantiateViewController(withIdentifier: "ListViewController")
            window?.makeKeyAndVisible()
        default:
            break
        }
    }

    func scene(_ scene: UIScene, restoreInteractionStateWith stateRestorationActivity: NSUserActivity) {
        Journal.shared.note("restoreInteractionState \(stateRestorationActivity.activityType)")
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        // The usual save: inside a background task, begun and ended within the method; with
        // ASYNC_SAVE, ended a second later from the main queue, as an upload's completion would.
        let task = UIApplication.shared.beginBackgroundTask(withName: "save", expirationHandler: nil)
        Journal.shared.note("sceneDidEnterBackground")
        if ProcessInfo.processInfo.environment["ASYNC_SAVE"] == "1" {
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                UIApplication.shared.endBackgroundTask(task)
            }
        } else {
            UIApplication.shared.endBackgroundTask(task)
        }
    }

    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        return scene.userActivity
    }
}

/// A plain controller in a tab of its own.
class SettingsViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Settings"
    }
}
