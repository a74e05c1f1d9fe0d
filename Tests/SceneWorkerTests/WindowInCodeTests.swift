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

        /// A root the delegate sets instead (on a window of its own, or on the scene's).
        static var makeOtherRoot: (@MainActor () -> UIViewController)?
        static var setsTheScenesOwnWindow = false

        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
            guard let windowScene = scene as? UIWindowScene else { return }
            if let makeOtherRoot = Self.makeOtherRoot {
                if Self.setsTheScenesOwnWindow {
                    window?.rootViewController = makeOtherRoot()
                    return
                }
                let window = UIWindow(windowScene: windowScene)
                window.rootViewController = makeOtherRoot()
                self.window = window
                window.makeKeyAndVisible()
                return
            }
            guard let makeRoot = Self.makeRoot else { return }
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

    /// A harness whose scene delegate sets `root` as the window's root while connecting (on
    /// a window of its own, or on the scene's), and what the connect said.
    static func connect(
        root: @escaping @MainActor () -> UIViewController,
        onTheScenesOwnWindow: Bool = false
    ) -> (Harness, [String]) {
        SceneDelegate.makeOtherRoot = root
        SceneDelegate.setsTheScenesOwnWindow = onTheScenesOwnWindow
        defer {
            SceneDelegate.makeOtherRoot = nil
            SceneDelegate.setsTheScenesOwnWindow = false
        }
        let h = Harness(app: app())
        return (h, h.connect())
    }

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
        #expect(scene?.window.navigationStack.topViewController is ItemsViewController)
        #expect((scene?.window.rootViewController as? AppNavigationController)?.theme == "dark")
        #expect((h.session.sceneDelegate as? SceneDelegate)?.window === scene?.window)
        // Navigation goes on in the window made in code.
        #expect(h.send(.push(viewController: "Detail")).last == "reply 2")
        #expect(scene?.window.navigationStack.viewControllers.count == 2)
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

    /// A plain controller as the root: shown as the host's root would be, without a navigation
    /// controller (as in UIKit), while the host's own push still navigates.
    @Test func aPlainControllerIsTheRootWithoutANavigationController() {
        let (h, connect) = Self.connect(root: { ItemsViewController() })
        #expect(connect.contains("change setStack ItemsViewController"))
        #expect(connect.contains("ItemsViewController.viewDidAppear"))
        let window = (h.session.scene as? UIWindowScene)?.window
        let root = window?.rootViewController
        #expect(root is ItemsViewController)
        #expect(root?.navigationController == nil)
        #expect(h.send(.push(viewController: "Detail")).last == "reply 2")
        #expect(window?.rootViewController === root)
        #expect(window?.navigationStack.viewControllers.count == 2)
    }

    /// A root set on the scene's own window while connecting replaces the host's as a window
    /// made in code does: the host hears of it.
    @Test func aRootSetOnTheScenesOwnWindowIsShown() {
        let (h, connect) = Self.connect(
            root: { UINavigationController(rootViewController: ItemsViewController()) },
            onTheScenesOwnWindow: true
        )
        #expect(connect.contains("change setStack ItemsViewController"))
        #expect(!connect.contains("Root.loadView"))
        #expect((h.session.scene as? UIWindowScene)?.window.navigationStack.topViewController is ItemsViewController)
    }

    /// A shown window keeps its root: a later assignment changes nothing (it is logged).
    @Test func aShownWindowKeepsItsRoot() {
        let h = Harness(app: Self.app())
        _ = h.connect()
        let window = (h.session.scene as? UIWindowScene)?.window
        let root = window?.rootViewController
        #expect(root is UINavigationController)
        window?.rootViewController = ItemsViewController()
        window?.rootViewController = nil
        #expect(window?.rootViewController === root)
        #expect(window?.navigationStack.topViewController?.restorationIdentifier == "Root")
    }

    /// A tab bar made in code is the root: the host hears of its tabs, the selected tab's
    /// root loads as the launch's, another tab's only when the host selects it.
    @Test func aTabBarMadeInCodeIsTheRoot() {
        let (h, connect) = Self.connect(root: {
            let tabBar = AppTabBarController()
            tabBar.viewControllers = [
                UINavigationController(rootViewController: ItemsViewController()), DetailViewController(),
            ]
            return tabBar
        })
        #expect(connect.contains("change setTabs ItemsViewController,DetailViewController 0"))
        #expect(connect.contains("ItemsViewController.viewDidAppear"))
        #expect(!connect.contains { $0.hasPrefix("DetailViewController") || $0.hasPrefix("Root.") })
        let window = (h.session.scene as? UIWindowScene)?.window
        #expect(window?.rootViewController is AppTabBarController)
        #expect(window?.navigationStack.topViewController?.tabBarController === window?.rootViewController)
        #expect(window?.navigationStack.topViewController?.splitViewController == nil)
        let select = h.send(.selectTab(index: 1))
        #expect(select.first == "DetailViewController.loadView")
        #expect(select.contains("ItemsViewController.viewDidDisappear"))
        #expect(window?.navigationStack.topViewController is DetailViewController)
        #expect(window?.navigationStack.topViewController?.navigationController == nil)
        // The tab bar presents over its selected tab, as UIKit's.
        _ = h.session.takeOutput()
        window?.rootViewController?.present(UIViewController(restorationIdentifier: "Sheet"), animated: true)
        #expect(h.render(h.session.takeOutput()).first == "change present Sheet pageSheet")
    }

    /// A tab selected before the tab bar is shown is the one that loads first.
    @Test func aTabBarMadeInCodeShowsTheTabSelectedFirst() {
        let (_, connect) = Self.connect(root: {
            let tabBar = AppTabBarController()
            tabBar.viewControllers = [ItemsViewController(), DetailViewController()]
            tabBar.selectedIndex = 1
            return tabBar
        })
        #expect(connect.contains("change setTabs ItemsViewController,DetailViewController 1"))
        #expect(connect.contains("DetailViewController.viewDidAppear"))
        #expect(!connect.contains { $0.hasPrefix("ItemsViewController") })
    }

    /// A tab bar whose tab holds more than its root is not shown (logged): the host's root stays.
    @Test func aTabBarWithADeepTabIsNotShown() {
        let (h, connect) = Self.connect(root: {
            let list = UINavigationController(rootViewController: ItemsViewController())
            list.setViewControllers([list.viewControllers[0], DetailViewController()], animated: false)
            let tabBar = AppTabBarController()
            tabBar.viewControllers = [list]
            return tabBar
        })
        #expect(!connect.contains { $0.hasPrefix("change") })
        #expect(connect.contains("Root.loadView"))
        #expect((h.session.scene as? UIWindowScene)?.window.rootViewController is UINavigationController)
    }

    /// An app's own tab bar class, as UIKit's: its tabs are navigation controllers or plain
    /// controllers, each plain one kept in a stack the app does not see.
    @Test func aTabBarControllerSubclassHoldsAnyControllers() {
        let list = UINavigationController(rootViewController: ItemsViewController())
        let plain = DetailViewController()
        let tabBar = AppTabBarController()
        tabBar.viewControllers = [list, plain]
        #expect(tabBar.viewControllers?.count == 2)
        #expect(tabBar.viewControllers?[0] === list)
        #expect(tabBar.viewControllers?[1] === plain)
        #expect(plain.navigationController == nil)
        #expect(tabBar.selectedViewController === list)
        tabBar.selectedIndex = 1
        #expect(tabBar.selectedViewController === plain)
    }

    /// An app's own tab bar class with state of its own: that it compiles is the point.
    final class AppTabBarController: UITabBarController {
        var badge = 3
    }
}

extension WindowInCodeTests {
    /// A container presented (a tab bar, or a navigation controller holding more than its
    /// root), pushed or added as a child has no place in the model: each is refused (logged)
    /// and nothing changes.
    @Test func aContainerOutOfPlaceChangesNothing() {
        let h = Harness(app: Self.app())
        _ = h.connect()
        let stack = (h.session.scene as? UIWindowScene)?.window.navigationStack
        let top = stack?.topViewController
        top?.present(UITabBarController(), animated: true)
        let deep = UINavigationController(rootViewController: DetailViewController())
        deep.setViewControllers([DetailViewController(), ItemsViewController()], animated: false)
        top?.present(deep, animated: true)
        top?.addChild(UITabBarController())
        stack?.pushViewController(UINavigationController(rootViewController: DetailViewController()), animated: true)
        #expect(h.session.deferredChanges.isEmpty)
        #expect(stack?.presentedViewController == nil)
        #expect(top?.children.isEmpty == true)
        #expect(stack?.viewControllers.count == 1)
    }
}

extension WindowInCodeTests {
    /// A split view root behaves as on an iPhone: collapsed to the primary column's stack (its
    /// controller wrapped in a navigation controller), the secondary pushed when shown.
    @Test func aSplitViewIsCollapsedAsOnAnIPhone() {
        let (h, connect) = Self.connect(root: {
            let split = UISplitViewController(style: .doubleColumn)
            split.setViewController(ItemsViewController(), for: .primary)
            split.setViewController(UINavigationController(rootViewController: DetailViewController()), for: .secondary)
            return split
        })
        #expect(connect.contains("change setStack ItemsViewController"))
        let window = (h.session.scene as? UIWindowScene)?.window
        weak let split = window?.rootViewController as? UISplitViewController
        weak let items = split?.viewController(for: .primary)
        #expect(split != nil && split?.isCollapsed == true)
        #expect(items?.navigationController != nil)
        #expect(items?.splitViewController === split)
        split?.show(.secondary)
        #expect(h.render(h.session.takeOutput()).first == "change push DetailViewController")
        #expect(window?.navigationStack.topViewController is DetailViewController)
        // Popped, the secondary goes as any popped controller does: the split holds it no more.
        split?.show(.primary)
        let pop = h.render(h.session.takeOutput())
        #expect(pop.first == "change pop")
        #expect(pop.last == "DetailViewController.deinit@app")
        #expect(split?.viewController(for: .secondary) == nil)
        // A detail in a navigation controller of its own joins the shown stack.
        items?.showDetailViewController(UINavigationController(rootViewController: DetailViewController()), sender: nil)
        #expect(window?.navigationStack.topViewController is DetailViewController)
        // At the end every controller of the stack deinits, top first.
        _ = h.send(.enterBackground)
        let end = h.send(.disconnect)
        #expect(
            end.filter { $0.hasSuffix(".deinit") } == ["DetailViewController.deinit", "ItemsViewController.deinit"]
        )
    }

    /// Containers inside a stack or a tab have no place in the model: a window whose root
    /// holds one is not shown (logged), and the host's root stays.
    @Test func aContainerInsideARootIsNotShown() {
        for makeRoot: @MainActor () -> UIViewController in [
            { UINavigationController(rootViewController: UITabBarController()) },
            {
                let tabBar = UITabBarController()
                tabBar.viewControllers = [UISplitViewController(style: .doubleColumn)]
                return tabBar
            },
        ] {
            let (_, connect) = Self.connect(root: makeRoot)
            #expect(!connect.contains { $0.hasPrefix("change") })
            #expect(connect.contains("Root.loadView"))
        }
    }

    /// `show(_:sender:)` pushes in a navigation controller, and presents without one.
    @Test func showPushesInAStackAndPresentsWithoutOne() {
        let (h, _) = Self.connect(root: { ItemsViewController() })
        let root = (h.session.scene as? UIWindowScene)?.window.rootViewController
        root?.show(DetailViewController(), sender: nil)
        #expect(h.render(h.session.takeOutput()).first == "change present DetailViewController pageSheet")
        let h2 = Harness(app: Self.app())
        _ = h2.connect()
        h2.session.scene?.window.navigationStack.topViewController?.show(DetailViewController(), sender: nil)
        #expect(h2.render(h2.session.takeOutput()).first == "change push DetailViewController")
    }
}
