import Protocol
import Testing

@testable import SceneWorker

/// A window made in code, as programmatic UIKit apps start: `UIWindow(windowScene:)`, a
/// `rootViewController`, `makeKeyAndVisible()` in `scene(_:willConnectTo:options:)`.
@MainActor
@Suite struct WindowInCodeTests {
    final class AppDelegate: UIResponder, UIApplicationDelegate {}

    final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
        var window: UIWindow?
        /// What the delegate puts in its window: nil makes none.
        static var makeRoot: (@MainActor () -> [UIViewController])?

        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
            guard let windowScene = scene as? UIWindowScene, let makeRoot = Self.makeRoot else { return }
            let window = UIWindow(windowScene: windowScene)
            let controllers = makeRoot()
            let navigationController = AppNavigationController(rootViewController: controllers[0])
            if controllers.count > 1 { navigationController.setViewControllers(controllers, animated: false) }
            window.rootViewController = navigationController
            self.window = window
            window.makeKeyAndVisible()
        }
    }

    final class ItemsViewController: UIViewController {}
    /// An app's own navigation controller class.
    final class AppNavigationController: UINavigationController {
        var theme = "dark"
    }
    final class DetailViewController: UIViewController {}

    static func app() -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { AppDelegate() },
            makeSceneDelegate: { SceneDelegate() },
            makeViewController: { UIViewController(restorationIdentifier: $0) }
        )
    }

    @Test func theWindowsRootReplacesTheHostsAndTheHostHearsOfIt() {
        SceneDelegate.makeRoot = { [ItemsViewController()] }
        defer { SceneDelegate.makeRoot = nil }
        let h = Harness(app: Self.app())
        #expect(
            h.connect() == [
                "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                "change setStack ItemsViewController", "ItemsViewController.loadView",
                "ItemsViewController.viewDidLoad",
            ] + firstAppearance("ItemsViewController") + ["reply 1"]
        )
        let scene = h.session.scene as? UIWindowScene
        #expect(scene?.window.rootViewController.topViewController is ItemsViewController)
        #expect((scene?.window.rootViewController as? AppNavigationController)?.theme == "dark")
        #expect((h.session.sceneDelegate as? SceneDelegate)?.window === scene?.window)
        // Navigation goes on in the window made in code.
        #expect(h.send(.push(viewController: "Detail")).last == "reply 2")
        #expect(scene?.window.rootViewController.viewControllers.count == 2)
    }

    @Test func aStackMadeInCodeLoadsAsARestoredOne() {
        SceneDelegate.makeRoot = { [ItemsViewController(), DetailViewController()] }
        defer { SceneDelegate.makeRoot = nil }
        let h = Harness(app: Self.app())
        let connect = h.connect()
        #expect(connect.contains("change setStack ItemsViewController,DetailViewController"))
        #expect(connect.contains("DetailViewController.loadView@app"))
        #expect(connect.contains("DetailViewController.viewDidAppear"))
    }

    @Test func aWindowWithNoRootIsNotShown() {
        SceneDelegate.makeRoot = { [UIViewController(restorationIdentifier: "")] }
        defer { SceneDelegate.makeRoot = nil }
        let h = Harness(app: Self.app())
        let connect = h.connect()
        #expect(!connect.contains { $0.hasPrefix("change") })
        #expect(connect.contains("Root.loadView"))
    }
}
