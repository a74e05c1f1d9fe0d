import Protocol

/// A tab bar root, shaped like `UITabBarController`: each tab is its own navigation stack,
/// the first one selected at launch (docs/LIFECYCLE.md §3a).
///
/// A scene connected with `tabs` shows one. A tab's root loads the first time the tab is
/// selected; until then it reports nothing (not even its `deinit`). Switching from one tab
/// to another runs: the new top's `loadView`/`viewDidLoad` (first time), `viewWillAppear`,
/// `viewIsAppearing`, its layout (when dirty), then the old top's `viewWillDisappear`,
/// `viewDidDisappear`, and the new top's `viewDidAppear`. Push and pop act on the selected
/// tab's stack (`selectedViewController`).
///
/// App code may set `selectedIndex`: the worker checks the change with the host's rules
/// (foreground, nothing presented, an index in range), runs it and reports it to the host as
/// app-initiated (docs/LIFECYCLE.md §3b); an illegal one is ignored and logged on stderr.
///
/// A view controller, as UIKit's, open for an app's own subclass. Its `viewControllers` may
/// be navigation controllers or plain ones (a plain tab is kept in a stack the app does not
/// see, as a plain window root is). A tab bar root comes from the host (`connect --tabs`), or
/// from the app: one set as a window's `rootViewController` in `scene(_:willConnectTo:options:)`
/// is shown with the tab selected by then, each tab holding its root alone (docs/PORTING.md).
/// Like a navigation controller, its own callbacks are not called (overriding one fails to
/// compile).
@MainActor
open class TabBarController: ContainerViewController {
    /// The tabs' stacks, in tab order: a tab's navigation controller, or the one the runtime
    /// keeps a plain tab in.
    var tabStacks: [NavigationController] = []
    /// The bar: how it looks (kept, not drawn).
    public private(set) lazy var tabBar = UITabBar()

    /// The title each tab shows: its controller's tab bar item's, else its title (a
    /// navigation controller's own item if the app set one, else its root's).
    var tabTitles: [String] {
        tabStacks.map { stack in
            let shown = stack.isImplicit || !stack.tabBarItemWasSet ? stack.viewControllers.first : stack
            return shown?.tabTitle ?? ""
        }
    }

    /// The session of the scene that shows this tab bar: it checks, runs and reports the
    /// app's selections. nil for a tab bar no scene shows (selections then apply directly).
    var changeHandler: WorkerSession? {
        get { changeLink?.session }
        set { changeLink = newValue?.link }
    }
    /// The link to `changeHandler` (a session is reached through its `SessionLink`).
    private weak var changeLink: SessionLink?

    private var selected = 0

    /// A tab bar of `viewControllers` (at least one), the first selected.
    public convenience init(viewControllers: [NavigationController]) {
        precondition(!viewControllers.isEmpty, "a tab bar needs at least one tab")
        self.init()
        tabStacks = viewControllers
    }

    /// The tabs' root controllers, in tab order, as UIKit's: each tab's navigation controller,
    /// or its plain controller. Set them before the tab bar is shown (a window made in code in
    /// `scene(_:willConnectTo:options:)`); a shown tab bar keeps its tabs (setting them changes
    /// nothing and is logged), and so does setting none.
    public var viewControllers: [UIViewController]? {
        get { tabStacks.map { $0.isImplicit ? $0.viewControllers[0] : $0 } }
        set {
            guard tabStacks.first?.window == nil else {
                writeError(
                    "scenehost worker: viewControllers not changed: the tab bar is shown (its tabs are set before)"
                )
                return
            }
            guard let newValue, !newValue.isEmpty else {
                writeError("scenehost worker: viewControllers not changed: a tab bar needs at least one tab")
                return
            }
            tabStacks = newValue.map { $0 as? NavigationController ?? NavigationController(implicitRoot: $0) }
            selected = 0
        }
    }

    /// The selected tab's index. Setting it selects that tab (see the type's summary); the
    /// selected index again, or one out of range, changes nothing.
    public var selectedIndex: Int {
        get { selected }
        set {
            if let changeHandler {
                changeHandler.appRequestsSelectTab(newValue, on: self)
                return
            }
            performSelect(newValue)
        }
    }

    /// The selected tab's root controller (its navigation controller, or its plain one).
    public var selectedViewController: UIViewController? {
        viewControllers.flatMap { $0.indices.contains(selected) ? $0[selected] : nil }
    }

    /// The selected tab's stack.
    var selectedStack: NavigationController { tabStacks[selected] }

    /// Every other tab's stack that has loaded, in tab order.
    var otherLoadedTabs: [NavigationController] {
        tabStacks.indices.filter { $0 != selected }.map { tabStacks[$0] }.filter(\.hasLoaded)
    }

    /// The switch itself, without any check beyond the index's.
    func performSelect(_ index: Int) {
        guard tabStacks.indices.contains(index), index != selected else { return }
        let old = tabStacks[selected]
        let new = tabStacks[index]
        selected = index
        guard old.isOnScreen, let leaving = old.visibleViewController, let arriving = new.topViewController else {
            return
        }
        new.size = old.size
        // A navigation controller's stack appears for the first time: its controller is
        // moving to its parent, as at the window's first appearance.
        let firstAppearance = !new.hasLoaded && !new.isImplicit
        new.activateSinks()
        arriving.isMovingToParent = firstAppearance
        defer { arriving.isMovingToParent = false }
        arriving.runLoadViewIfNeeded()
        arriving.runViewWillAppear(true)
        arriving.runLayoutIfNeeded(size: new.size)
        leaving.runViewWillDisappear(true)
        leaving.runViewDidDisappear(true)
        old.isOnScreen = false
        new.isOnScreen = true
        arriving.runViewDidAppear(true)
    }
}

extension NavigationController {
    /// Whether the stack's root has loaded (a tab not yet selected has not).
    var hasLoaded: Bool { viewControllers.first?.isViewLoaded ?? false }

    /// Lets the stack's controllers report: a tab's do from its first selection on.
    func activateSinks() {
        for controller in viewControllers where controller.sink == nil { controller.sink = sink }
    }
}
