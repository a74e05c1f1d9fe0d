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
            let notes = UINavigationController(rootViewController: ListViewController())
            notes.navigationBar.prefersLargeTitles = true
            let settings = SettingsViewController()
            settings.tabBarItem = UITabBarItem(title: "Preferences", image: UIImage(systemName: "gear"), tag: 1)
            tabBarController.viewControllers = [notes, settings]
            tabBarController.tabBar.tintColor = .systemOrange
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
        case "early-view":
            // Configuring a controller's view before it is shown: UIKit loads it on the read;
            // scenehost stops the app, saying why.
            let list = ListViewController()
            list.view.backgroundColor = .systemBackground
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = UINavigationController(rootViewController: list)
            window?.makeKeyAndVisible()
        case "dashboard":
            window = UIWindow(windowScene: windowScene)
            window?.rootViewController = UINavigationController(rootViewController: DashboardViewController())
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

/// A plain controller in a tab of its own: a screen built in code as UIKit apps build them,
/// with colors, fonts, a stack view and Auto Layout.
class SettingsViewController: UIViewController {
    let stack = UIStackView()
    let heading = UILabel()
    let nameField = UITextField()
    let status = UILabel()
    private let padding: CGFloat = 16

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Settings"
        view.backgroundColor = .systemBackground

        heading.text = "Account"
        heading.font = .preferredFont(forTextStyle: .headline)
        heading.textColor = .secondaryLabel
        heading.numberOfLines = 0
        heading.textAlignment = .center
        nameField.placeholder = "Name"
        nameField.borderStyle = .roundedRect
        nameField.keyboardType = .default
        nameField.returnKeyType = .done
        nameField.layer.cornerRadius = 8
        nameField.layer.borderColor = UIColor.separator.cgColor
        let save = UIButton(type: .system, primaryAction: UIAction(title: "Save") { _ in })
        save.setTitleColor(.white, for: .normal)
        save.backgroundColor = UIColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        save.layer.cornerRadius = padding / 2

        stack.axis = .vertical
        stack.spacing = 12
        stack.alignment = .fill
        stack.translatesAutoresizingMaskIntoConstraints = false
        stack.addArrangedSubview(heading)
        stack.addArrangedSubview(save)
        stack.insertArrangedSubview(nameField, at: 1)
        stack.setCustomSpacing(24, after: heading)
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor, constant: padding),
            stack.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor, constant: -padding),
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: padding),
            save.heightAnchor.constraint(equalToConstant: 44),
        ])
        let bottom = stack.bottomAnchor.constraint(lessThanOrEqualTo: view.bottomAnchor)
        bottom.priority = .defaultHigh
        bottom.isActive = true
        save.setContentHuggingPriority(.required, for: .vertical)

        status.accessibilityIdentifier = "status"
        status.text = "constraints \(view.constraints.count + save.constraints.count), "
            + "arranged \(stack.arrangedSubviews.count), width \(Int(view.bounds.width)), "
            + (UIDevice.current.userInterfaceIdiom == .phone && traitCollection.userInterfaceIdiom == .phone ? "phone" : "pad")
        stack.addArrangedSubview(status)
    }
}
