import Protocol

/// A scene's window, as `UIWindow`: its size and its root (a navigation stack, a tab bar,
/// a split view or a plain controller).
@MainActor
public final class Window {
    /// The size of a window until the host resizes it.
    public static let defaultSize = Size(width: 390, height: 844)

    /// The window's root, as UIKit's: a navigation controller, a tab bar controller, or a
    /// plain controller. nil only for a window made in code whose root is not set yet.
    ///
    /// A window made in code (`UIWindow(windowScene:)`) takes any of these (or a split view) before
    /// `makeKeyAndVisible()` in `scene(_:willConnectTo:options:)`, and so does the scene's own
    /// window during that call; the root then replaces the one the host connected the scene
    /// with (docs/PORTING.md). A shown window keeps its root: setting it later, or to nil,
    /// changes nothing and is logged.
    public var rootViewController: UIViewController? {
        get {
            if let tabBarController { return tabBarController }
            if let splitViewController { return splitViewController }
            if stack.isImplicit { return stack.viewControllers.first }
            return hasRoot ? stack : nil
        }
        set { setRoot(newValue) }
    }

    /// The navigation stack the window shows: the selected tab's with a tab bar root, the one
    /// the runtime keeps a plain root in, or the root navigation controller. Push, pop and
    /// presentation act on it.
    var navigationStack: NavigationController { tabBarController?.selectedStack ?? stack }

    /// The view the user's typing goes to (`View.becomeFirstResponder()`).
    weak var firstResponder: View?

    /// The tab bar root, for a scene connected with tabs (docs/LIFECYCLE.md §3a) or a window
    /// whose `rootViewController` is a tab bar controller.
    public private(set) var tabBarController: TabBarController?

    /// The split view root, when a split view controller is the window's `rootViewController`.
    public private(set) var splitViewController: SplitViewController?

    /// The stack of a window without tabs (the first tab's otherwise).
    private var stack: NavigationController

    /// Whether a root was given: a window made in code has none until one is set.
    private var hasRoot = true

    /// The window's size; changes on the host's `resize`.
    public internal(set) var size: Size

    /// Light or dark, as the host connected the scene (`connect --style`).
    public internal(set) var userInterfaceStyle = UserInterfaceStyle.light

    /// The traits the window's controllers lay out for: its size classes and style.
    public var traitCollection: TraitCollection {
        TraitCollection(size: size, userInterfaceStyle: userInterfaceStyle)
    }

    /// The scene the window belongs to.
    public internal(set) var windowScene: UIWindowScene? {
        get { sceneLink?.scene }
        set { sceneLink = newValue?.link }
    }

    /// How the window reaches its scene: weakly, without a side table on the scene.
    private var sceneLink: WindowSceneLink?

    /// Whether the window is its scene's key window: the scene's one window always is.
    public var isKeyWindow: Bool { windowScene != nil }

    /// Shows the window: a window made in code (`UIWindow(windowScene:)`) becomes its scene's
    /// window, with the stack set as its `rootViewController`. Only in
    /// `scene(_:willConnectTo:options:)`, before the scene's controllers load (anywhere else it
    /// is ignored and logged); the scene's own window is key and shown already.
    public func makeKeyAndVisible() {
        guard let windowScene, windowScene.window !== self else { return }
        guard windowScene.acceptsWindowMadeInCode else {
            writeError(
                "scenehost worker: makeKeyAndVisible() ignored: a window is shown only in scene(_:willConnectTo:options:)"
            )
            return
        }
        windowScene.window = self
    }

    /// A window for `windowScene`, as `UIWindow(windowScene:)`: set its `rootViewController`
    /// (a navigation controller, a tab bar, a split view or a plain controller) and call
    /// `makeKeyAndVisible()` in `scene(_:willConnectTo:options:)`. Its size is the scene's.
    public convenience init(windowScene: UIWindowScene) {
        let placeholder = NavigationController(rootViewController: UIViewController(restorationIdentifier: ""))
        self.init(rootViewController: placeholder, size: windowScene.window.size)
        hasRoot = false
        self.windowScene = windowScene
        userInterfaceStyle = windowScene.window.userInterfaceStyle
    }

    init(rootViewController: NavigationController, size: Size) {
        self.stack = rootViewController
        self.tabBarController = nil
        self.size = size
        rootViewController.size = size
        rootViewController.window = self
    }

    init(tabBarController: TabBarController, size: Size) {
        self.stack = tabBarController.tabStacks[0]
        self.tabBarController = tabBarController
        self.size = size
        for tab in tabBarController.tabStacks {
            tab.size = size
            tab.window = self
        }
    }

    /// The root setter's work (see `rootViewController`).
    private func setRoot(_ root: UIViewController?) {
        if let windowScene, windowScene.window === self, !windowScene.acceptsWindowMadeInCode {
            writeError(
                "scenehost worker: rootViewController not changed: a shown window's root is set only in scene(_:willConnectTo:options:)"
            )
            return
        }
        guard let root else {
            writeError("scenehost worker: rootViewController not changed: a window's root cannot be nil")
            return
        }
        installRoot(root)
    }

    /// Makes `root` the window's root, without the setter's checks.
    func installRoot(_ root: UIViewController) {
        let tabBarController = root as? TabBarController
        let splitViewController = root as? SplitViewController
        // The stacks the root brings may be no other window's.
        let stacks =
            tabBarController?.tabStacks ?? splitViewController.map { $0.collapsedStack.map { [$0] } ?? [] }
            ?? (root as? NavigationController).map { [$0] } ?? []
        guard !stacks.contains(where: { $0.window != nil && $0.window !== self }) else {
            writeError("scenehost worker: rootViewController not changed: its stack is another window's")
            return
        }
        let shown: NavigationController
        if let tabBarController {
            guard let first = tabBarController.tabStacks.first else {
                writeError("scenehost worker: rootViewController not changed: the tab bar controller has no tabs")
                return
            }
            shown = first
        } else if let splitViewController {
            guard let collapsed = splitViewController.makeCollapsedStack() else {
                writeError(
                    "scenehost worker: rootViewController not changed: the split view has no primary column (setViewController(_:for: .primary))"
                )
                return
            }
            shown = collapsed
        } else {
            shown = root as? NavigationController ?? NavigationController(implicitRoot: root)
        }
        self.tabBarController = tabBarController
        self.splitViewController = splitViewController
        stack = shown
        hasRoot = true
        for tab in tabBarController?.tabStacks ?? [shown] {
            tab.window = self
            tab.size = size
        }
    }

    /// Every loaded controller: the shown stack's (root first, the presented one last), then
    /// each other loaded tab's, in tab order (size changes, memory warnings).
    var allLoadedControllers: [UIViewController] {
        navigationStack.allControllers + (tabBarController?.otherLoadedTabs ?? []).flatMap(\.allControllers)
    }
}
