import Protocol

/// A tab bar root, shaped like `UITabBarController`: each tab is its own navigation stack,
/// the first one selected at launch (docs/LIFECYCLE.md §3a).
///
/// A scene connected with `tabs` shows one. A tab's root loads the first time the tab is
/// selected; until then it reports nothing (not even its `deinit`). Switching from one tab
/// to another runs: the new top's `loadView`/`viewDidLoad` (first time), `viewWillAppear`,
/// `viewIsAppearing`, its layout (when dirty), then the old top's `viewWillDisappear`,
/// `viewDidDisappear`, and the new top's `viewDidAppear`. Push and pop act on the selected
/// tab's stack (the window's `rootViewController`).
///
/// App code may set `selectedIndex`: the worker checks the change with the host's rules
/// (foreground, nothing presented, an index in range), runs it and reports it to the host as
/// app-initiated (docs/LIFECYCLE.md §3b); an illegal one is ignored and logged on stderr.
@MainActor
public final class TabBarController {
    /// The tabs' navigation stacks, in tab order.
    public let viewControllers: [NavigationController]

    /// The session of the scene that shows this tab bar: it checks, runs and reports the
    /// app's selections. nil for a tab bar no scene shows (selections then apply directly).
    weak var changeHandler: WorkerSession?

    private var selected = 0

    /// A tab bar of `viewControllers` (at least one), the first selected.
    public init(viewControllers: [NavigationController]) {
        precondition(!viewControllers.isEmpty, "a tab bar needs at least one tab")
        self.viewControllers = viewControllers
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

    /// The selected tab's navigation stack.
    public var selectedViewController: NavigationController { viewControllers[selected] }

    /// Every other tab's stack that has loaded, in tab order.
    var otherLoadedTabs: [NavigationController] {
        viewControllers.indices.filter { $0 != selected }.map { viewControllers[$0] }.filter(\.hasLoaded)
    }

    /// The switch itself, without any check beyond the index's.
    func performSelect(_ index: Int) {
        guard viewControllers.indices.contains(index), index != selected else { return }
        let old = viewControllers[selected]
        let new = viewControllers[index]
        selected = index
        guard old.isOnScreen, let leaving = old.visibleViewController, let arriving = new.topViewController else {
            return
        }
        new.size = old.size
        new.activateSinks()
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
