import Protocol

/// A navigation stack of view controllers, shaped like `UINavigationController`.
///
/// Each scene's window holds one. Pushing and popping run exactly the callback orders of
/// `docs/LIFECYCLE.md` once the stack is on screen (after the scene's first appearance);
/// before that they only change the stack. The runtime drives it for the host's `push`
/// and `pop` operations. App code may call `pushViewController(_:animated:)`,
/// `popViewController(animated:)` and `setViewControllers(_:animated:)` on its scene's
/// stack: the worker checks the change with the host's rules, runs it and reports it to
/// the host as app-initiated (docs/LIFECYCLE.md §3b). A change requested while
/// the worker carries out a host request (from inside a callback) runs right after that
/// request's reply; an illegal one (navigation in the background, popping the root) is
/// ignored and logged on stderr, with nothing changed.
///
/// A view controller, as UIKit's, so a window's `rootViewController` may be one. Open for an
/// app's own subclass (`class AppNavigationController: UINavigationController`); its methods
/// are the runtime's, and a container's own callbacks are not the model's (its controllers
/// report theirs), so an override of one fails to compile, saying so.
@MainActor
open class NavigationController: ContainerViewController {
    /// The stack, root first. Empty only once the scene disconnected.
    public private(set) var viewControllers: [UIViewController]

    /// The session of the scene that shows this stack: it checks, runs and reports the
    /// app's changes. nil for a stack no scene shows (the changes then apply directly).
    var changeHandler: WorkerSession? {
        get { changeLink?.session }
        set { changeLink = newValue?.link }
    }
    /// The link to `changeHandler` (a session is reached through its `SessionLink`).
    private weak var changeLink: SessionLink?
    /// Whether the stack has appeared (the scene's first appearance ran).
    var isOnScreen = false
    /// The size the visible controller lays out at.
    var size: Size
    /// The window that shows this stack, if any.
    weak var window: Window?
    /// A stack the runtime keeps a plain root (a window's or a tab's) in: the app does not
    /// see it (the root's `navigationController` is nil), the host does (it pushes onto it).
    let isImplicit: Bool
    /// A navigation controller the app presented (a compose sheet with its bar buttons): its
    /// root is the presented controller of the model, and it holds its root alone.
    var isPresentedContainer = false

    /// The bar: how it looks (kept, not drawn).
    public private(set) lazy var navigationBar = UINavigationBar()
    /// Whether the bar is hidden: the navigation items' titles and bar button items (of the
    /// stack's controllers and their children) are then neither in the visible tree nor within
    /// the user's reach, as on a device. A controller's own `title` stays in the tree.
    public var isNavigationBarHidden = false

    /// The swipe from the left edge that pops the top controller (the host's `swipeBack`):
    /// disable it, or give it a delegate, as in UIKit.
    public let interactivePopGestureRecognizer: UIGestureRecognizer? = UIGestureRecognizer()
    /// The navigation controller's own rules for that swipe: its recognizer's first delegate.
    private let swipeBackRules = SwipeBackRules()

    /// Hides or shows the bar (`animated` is accepted; nothing is drawn).
    public func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        isNavigationBarHidden = hidden
    }

    /// A stack holding `rootViewController` alone.
    public init(rootViewController: UIViewController) {
        viewControllers = [rootViewController]
        size = .zero
        isImplicit = false
        super.init()
        swipeBackRules.stack = self
        interactivePopGestureRecognizer?.delegate = swipeBackRules
        rootViewController.containingStack = self
    }

    /// The stack the runtime keeps `root` in, a window's or a tab's plain root.
    init(implicitRoot root: UIViewController) {
        viewControllers = [root]
        size = .zero
        isImplicit = true
        super.init()
        root.containingStack = self
    }

    /// Not made from a storyboard under scenehost: always nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// The controller on top of the stack (the visible one).
    public var topViewController: UIViewController? { viewControllers.last }

    /// Pushes `viewController` on the stack. On screen: B `loadView`, B `viewDidLoad`
    /// (unless already loaded), A `viewWillDisappear`, B `viewWillAppear`, B's layout pair,
    /// A `viewDidDisappear`, B `viewDidAppear`.
    ///
    /// On a scene's stack this is an app-initiated push: legal in the foreground only; from
    /// inside a callback of a host request it runs right after that request. Inside
    /// `scene(_:willConnectTo:options:)` it only adds to the stack, as `setViewControllers`
    /// does (restoring a detail screen before the scene appears). A controller already in the
    /// stack, or one with an empty `restorationIdentifier`, is ignored (UIKit would raise).
    public func pushViewController(_ viewController: UIViewController, animated: Bool) {
        guard !refusesPresentedChange("pushViewController(\(viewController.restorationIdentifier))") else { return }
        if let changeHandler {
            changeHandler.appRequestsPush(viewController, on: self)
            return
        }
        performPush(viewController, animated: animated)
    }

    /// Pops the top controller and returns it; nil (and nothing happens) at the root.
    /// On screen: B `viewWillDisappear`, A `viewWillAppear`, A `viewIsAppearing`, A's layout
    /// pair (only when A's layout is dirty: it has not laid out since the last size change),
    /// B `viewDidDisappear`, A `viewDidAppear`.
    ///
    /// B reports `deinit` when the last reference to it goes: the runtime drops the popped
    /// controller at once; if you keep the returned one, it stays alive (and its `deinit`
    /// comes later or never).
    ///
    /// On a scene's stack this is an app-initiated pop: legal in the foreground with two or
    /// more controllers; from inside a callback of a host request it runs right after that
    /// request, and the controller it will pop is returned at once.
    @discardableResult
    public func popViewController(animated: Bool) -> UIViewController? {
        guard !refusesPresentedChange("popViewController") else { return nil }
        if let changeHandler {
            return changeHandler.appRequestsPop(on: self)
        }
        return performPop(animated: animated)
    }

    /// Pops every controller but the root (real-ios-orders-3 c22). On screen: the top's
    /// `viewWillDisappear`, the root's `viewWillAppear` and `viewIsAppearing` (its layout pair
    /// when dirty), the middle controllers released top-most first with no appearance
    /// callbacks, the top's `viewDidDisappear`, the root's `viewDidAppear`, then the top is
    /// released.
    ///
    /// On a scene's stack this is an app-initiated change, as `popViewController(animated:)`
    /// is: legal in the foreground with two or more controllers; from inside a callback of a
    /// host request it runs right after that request. Returns nil rather than the popped
    /// controllers: they are released in the transition, as iOS releases those no caller
    /// keeps (a returned array would keep them alive past it).
    @discardableResult
    public func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard !refusesPresentedChange("popToRootViewController") else { return nil }
        if let changeHandler {
            changeHandler.appRequestsPopToRoot(on: self)
            return nil
        }
        performPop(to: 0, animated: animated)
        return nil
    }

    /// Pops the controllers above `viewController`, which must be in this stack: the root's
    /// the same as `popToRootViewController(animated:)`, the top's nothing. On screen:
    /// `popToRootViewController`'s callbacks, with `viewController` where the root appears
    /// there (UIKit pops to the root through this method).
    ///
    /// On a scene's stack this is an app-initiated change: legal in the foreground, on the
    /// stack on screen; from inside a callback of a host request it runs right after that
    /// request, where the controller is by then. A controller not in the stack is ignored and
    /// logged (UIKit raises). Returns nil rather than the popped controllers, as
    /// `popToRootViewController(animated:)` does, so that they are released in the transition.
    @discardableResult
    public func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        let action = "popToViewController(\(viewController.restorationIdentifier))"
        guard !refusesPresentedChange(action) else { return nil }
        if let changeHandler {
            changeHandler.appRequestsPop(to: viewController, on: self)
            return nil
        }
        guard let index = viewControllers.firstIndex(where: { $0 === viewController }) else {
            writeError("scenehost worker: \(action) ignored: the controller is not in the stack")
            return nil
        }
        performPop(to: index, animated: animated)
        return nil
    }

    /// Replaces the whole stack, root first (docs/LIFECYCLE.md §3b).
    ///
    /// Inside `scene(_:willConnectTo:options:)` (rebuilding the stack saved in
    /// `stateRestorationActivity(for:)`), the root the host connected the scene with comes
    /// first; nothing loads during the call: once `willConnectTo` returns, every controller
    /// of the stack loads, bottom first, and the top one appears.
    ///
    /// On the stack on screen, with a new controller on top (`[home]` after a login, `[root,
    /// other]` for the top), UIKit's push transition runs to it, then the controllers the new
    /// stack leaves out are released, top-most first; with part of the stack (its bottom
    /// controllers, in order), a pop to that part's top (`popToViewController(_:animated:)`);
    /// with the stack itself, nothing. New controllers below a new top (a deep link, `[root,
    /// inbox, thread]`) load before the transition, bottom first, where UIKit would load each
    /// once a pop reveals it (scenehost loads every controller of a stack it shows); they come
    /// above the stack's controllers the new stack keeps, which keep their order.
    ///
    /// No controller twice, no empty `restorationIdentifier`; anything else is ignored and
    /// logged. Without a scene the stack is simply replaced.
    public func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        guard !refusesPresentedChange("setViewControllers") else { return }
        if let changeHandler {
            changeHandler.appRequestsSetStack(viewControllers, on: self)
            return
        }
        guard !viewControllers.isEmpty else { return }
        replaceStack(with: viewControllers)
    }

    /// Whether `action` is refused (and logged) because this stack is a presented one: the
    /// model has no stack in a sheet, so it keeps its root alone.
    private func refusesPresentedChange(_ action: String) -> Bool {
        guard isPresentedContainer else { return false }
        writeError(
            "scenehost worker: \(action) ignored: a presented navigation controller holds its root alone under scenehost"
        )
        return true
    }

    // MARK: - What the runtime runs

    /// The push itself, without any check (the runtime checked it).
    func performPush(_ viewController: UIViewController, animated: Bool) {
        guard !viewControllers.contains(where: { $0 === viewController }) else { return }
        if viewController.sink == nil {
            viewController.sink = sink
        }
        let previous = topViewController
        viewControllers.append(viewController)
        viewController.containingStack = self
        guard isOnScreen else { return }
        runPushTransition(from: previous, to: viewController, animated: animated)
    }

    /// A push's callbacks: `controller` loads and appears over `previous`, which disappears.
    private func runPushTransition(from previous: UIViewController?, to controller: UIViewController, animated: Bool) {
        controller.isMovingToParent = true
        defer { controller.isMovingToParent = false }
        controller.runLoadViewIfNeeded()
        previous?.runViewWillDisappear(animated)
        controller.runViewWillAppear(animated)
        controller.runLayout(size: size)
        previous?.runViewDidDisappear(animated)
        controller.runViewDidAppear(animated)
    }

    /// The pop itself, without any check beyond the root's.
    @discardableResult
    func performPop(animated: Bool) -> UIViewController? {
        guard viewControllers.count >= 2 else { return nil }
        let popped = viewControllers.removeLast()
        let revealed = viewControllers[viewControllers.count - 1]
        if isOnScreen {
            popped.isMovingFromParent = true
            defer { popped.isMovingFromParent = false }
            popped.runViewWillDisappear(animated)
            revealed.runViewWillAppear(animated)
            // Only a dirty layout runs again: a clean controller does not lay out on pop.
            revealed.runLayoutIfNeeded(size: size)
            popped.runViewDidDisappear(animated)
            revealed.runViewDidAppear(animated)
        }
        popped.containingStack = nil
        return popped
    }

    /// The pop to the controller at `target` (0: the root, the host's `popToRoot`,
    /// real-ios-orders-3 c22): Top `viewWillDisappear`, Target `viewWillAppear`,
    /// `viewIsAppearing` (layout when dirty), the middle controllers released top-most first
    /// with no appearance callbacks, Top `viewDidDisappear`, Target `viewDidAppear`, then Top
    /// released.
    func performPop(to target: Int, animated: Bool = true) {
        guard target >= 0, target < viewControllers.count - 1 else { return }
        let top = viewControllers.removeLast()
        var middle = Array(viewControllers.dropFirst(target + 1))
        let shown = viewControllers[target]
        viewControllers = Array(viewControllers.prefix(target + 1))
        top.isMovingFromParent = true
        if isOnScreen {
            top.runViewWillDisappear(animated)
            shown.runViewWillAppear(animated)
            shown.runLayoutIfNeeded(size: size)
        }
        // Each middle controller's last reference goes at the end of its turn: its deinit runs
        // there, unless app code keeps it.
        while let controller = middle.popLast() {
            controller.containingStack = nil
        }
        if isOnScreen {
            top.runViewDidDisappear(animated)
            shown.runViewDidAppear(animated)
        }
        top.isMovingFromParent = false
        top.containingStack = nil
    }

    /// The replacement of the stack (`setViewControllers(_:animated:)` with a new top, the
    /// runtime checked it): the stack becomes the controllers at `kept`, the new ones `below`
    /// and `controller`; those below load, bottom first, then a push's callbacks run over the
    /// old top; once the new top appeared, the controllers left out are released, top-most
    /// first.
    func performReplace(
        keeping kept: [Int],
        below: [UIViewController] = [],
        top controller: UIViewController,
        animated: Bool = true
    ) {
        var leftOut: [UIViewController] = []
        // Scoped, so that no other reference to the old stack outlives the transition: the
        // controllers left out are released one by one below.
        do {
            let old = viewControllers
            guard let previous = old.last, !old.contains(where: { $0 === controller }) else { return }
            leftOut = old.indices.filter { !kept.contains($0) }.map { old[$0] }
            for new in below + [controller] {
                if new.sink == nil {
                    new.sink = sink
                }
                new.containingStack = self
            }
            viewControllers = kept.map { old[$0] } + below + [controller]
            if isOnScreen {
                for new in below { new.runLoadViewIfNeeded() }
                previous.isMovingFromParent = leftOut.last === previous
                defer { previous.isMovingFromParent = false }
                runPushTransition(from: previous, to: controller, animated: animated)
            }
        }
        // Each one's last reference goes at the end of its turn: its deinit runs there, unless
        // app code keeps it.
        while let gone = leftOut.popLast() {
            gone.containingStack = nil
        }
    }

    /// Replaces the stack without callbacks (only before it is on screen).
    func replaceStack(with newStack: [UIViewController]) {
        for controller in viewControllers where !newStack.contains(where: { $0 === controller }) {
            controller.containingStack = nil
        }
        for controller in newStack {
            if controller.sink == nil {
                controller.sink = sink
            }
            controller.containingStack = self
        }
        viewControllers = newStack
    }

    /// Releases every controller, top of the stack first, so their `deinit`s run in that
    /// order (for those nothing else keeps alive). The stack is empty afterwards: only for
    /// a disconnecting scene.
    func releaseAllTopFirst() {
        while presentedViewController != nil { releasePresented() }
        while !viewControllers.isEmpty {
            releaseTop()
        }
    }

    private func releaseTop() {
        let top = viewControllers.removeLast()
        top.containingStack = nil
    }
}
