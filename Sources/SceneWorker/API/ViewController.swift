import Protocol

/// A view controller, shaped like `UIViewController`: subclass it and override the
/// lifecycle methods you care about.
///
/// The runtime calls these methods in the orders of `docs/LIFECYCLE.md` and reports each call
/// to the host itself (a callback is reported just before your override runs), so overrides
/// need not call `super` and need not report anything (a `UITableViewController`'s
/// `viewWillAppear(_:)` and `setEditing(_:animated:)` do work of UIKit's: call `super` there).
///
/// `deinit` is reported from this base class's real `deinit`. A controller that your code
/// keeps alive after it was popped (or after the scene disconnected) — stored in a delegate,
/// captured strongly by a closure, kept in a global — never reports `deinit`, and the host
/// sees the missing callback: a leak shows up in the trace.
@MainActor
open class UIViewController {
    /// The controller's identity: the `vc` field the protocol and the trace name it by, and
    /// what restoration rebuilds it from. Fixed for the controller's life. Controllers the
    /// host creates (`makeViewController(name, payload)`) must carry the name they were
    /// created for. Defaults to the class's name (`"DetailViewController"`).
    ///
    /// Unlike UIKit's (an optional, settable `String?`), it is never nil and never changes,
    /// so that every callback of one controller names the same controller.
    public let restorationIdentifier: String

    /// The title to display, as UIKit's: any string, changed at will (`title = item.name`).
    /// The trace does not report it; the identity is `restorationIdentifier`.
    public var title: String? {
        // As UIKit's: the title is the tab's too (a tab bar item already made takes it; a
        // system item keeps the system's).
        didSet { ownTabBarItem?.title = title }
    }

    private var ownTabBarItem: UITabBarItem?
    /// Whether the app set `tabBarItem` (not only read it).
    private(set) var tabBarItemWasSet = false
    /// The item the tab bar shows for this controller, as UIKit's: made on first use with the
    /// controller's title; set one to give the tab its own title, image and badge.
    public var tabBarItem: UITabBarItem! {
        get {
            if let ownTabBarItem { return ownTabBarItem }
            let item = UITabBarItem(title: title, image: nil, tag: 0)
            ownTabBarItem = item
            return item
        }
        set {
            ownTabBarItem = newValue
            tabBarItemWasSet = true
        }
    }

    /// The title the tab of this controller shows: its tab bar item's (which follows `title`
    /// once made), else its title.
    var tabTitle: String? { ownTabBarItem.map(\.shownTitle) ?? title }

    /// Whether the navigation bar that would show this controller's navigation item is shown:
    /// the bar of the nearest navigation controller up its parents, if any.
    var showsNavigationBar: Bool {
        var controller: UIViewController? = self
        while let current = controller {
            if let navigation = current.navigationController { return !navigation.isNavigationBarHidden }
            controller = current.parent
        }
        return true
    }

    /// What the navigation bar shows while this controller is on top: its title and bar
    /// button items (`navigationItem.rightBarButtonItem = UIBarButtonItem(…)`).
    public private(set) lazy var navigationItem = UINavigationItem()

    /// The root view, set by `loadView()`. Implicitly unwrapped, as UIKit's (`view.window`).
    ///
    /// scenehost loads a view when its controller is shown (pushed, presented, added as a
    /// child, a window's root or selected tab), in the model's order, not on the first read
    /// as UIKit does: reading it before then stops the app with a message saying so, rather
    /// than handing back nil (a crash without a reason) or configuring nothing
    /// (`vc.view?.backgroundColor = …`, `_ = vc.view`). `isViewLoaded` and `viewIfLoaded`
    /// read it safely. A child's, read right after `addChild(_:)` while the add waits (Apple's
    /// container pattern: `view.addSubview(child.view)`), is the view it then loads into.
    /// A container's (navigation, tab bar, split view controller) has no
    /// callbacks of its own here: its view is made, empty, on the first read. Views are never
    /// unloaded: setting nil is ignored, and logged.
    public var view: View! {
        get {
            if let loadedView { return loadedView }
            if let premadeView { return premadeView }
            if isBeingAddedAsChild {
                // The container's own code reads it right after `addChild(_:)`, to add it to
                // its view (Apple's pattern), while the add waits for its transition: the view
                // `loadView` will keep, made now, empty; `loadView` and `viewDidLoad` run as
                // the child is added.
                let view = View(
                    size: parent?.loadedView?.size ?? Application.shared.connectedScene?.window.size ?? .zero
                )
                view.owner = self
                premadeView = view
                return view
            }
            guard isContainer else { viewReadBeforeLoading() }
            let view = View(size: Application.shared.connectedScene?.window.size ?? .zero)
            view.owner = self
            loadedView = view
            return view
        }
        set {
            guard let newValue else {
                writeError("scenehost worker: \(Self.self).view = nil ignored: views are not unloaded under scenehost")
                return
            }
            loadedView = newValue
        }
    }

    /// The view once loaded (what `view` sets and reads): the runtime's own reads, which must
    /// not stop the app.
    var loadedView: View?

    /// The navigation controller whose stack holds this controller, if any: nil for a
    /// window's or a tab's plain root, as in UIKit.
    public var navigationController: NavigationController? {
        guard let containingStack, !containingStack.isImplicit else { return nil }
        return containingStack
    }
    /// The stack that holds this controller: a navigation controller, or the one the runtime
    /// keeps a plain root in (the app does not see it).
    weak var containingStack: NavigationController?
    /// The navigation controller the app presented with this controller as its root, kept
    /// alive while this one is presented.
    var presentedContainer: NavigationController?

    /// Where this controller reports its callbacks: set when a session adopts it.
    var sink: CallbackSink?
    /// Set while `loadView` and `viewDidLoad` run: a child added then, before the controller
    /// can take one, waits for it (`WorkerSession.appRequestsAddChild`).
    var isLoadingView = false
    /// The session holding an app's `addChild(_:)` of this controller while it waits to run
    /// (`removeFromParent()` calls it off there).
    weak var addingSession: WorkerSession?
    /// Whether that add waits: reading `view` then makes the view it will load into
    /// (`premadeView`).
    var isBeingAddedAsChild: Bool { addingSession != nil }
    /// The view read before this child was added: the base `loadView` keeps it, and a view an
    /// override makes takes its place in its superview.
    var premadeView: View?
    /// `.app` once the app popped this controller itself: its `deinit`, whenever it comes,
    /// belongs to that change (and so do its children's, released with it).
    var deinitOrigin: CallbackOrigin? {
        didSet { for child in children { child.deinitOrigin = deinitOrigin } }
    }

    /// The child controllers this one contains, in the order they were added (LIFECYCLE.md
    /// §3a): they hear its appearance, size changes and memory warnings right after it.
    public internal(set) var children: [UIViewController] = []
    /// The controller that contains this one as a child, while it does.
    public internal(set) weak var parent: UIViewController?

    /// The window that shows this controller: its stack's, its parent's, or, while it is
    /// presented, its presenter's (a presented controller's view is in the same window).
    var windowShowingIt: Window? {
        if let containingStack, !containingStack.isPresentedContainer { return containingStack.window }
        if let parent { return parent.windowShowingIt }
        return presentingViewController?.windowShowingIt
    }

    /// How this controller covers its presenter when presented. The host's `present`
    /// sets it to the style it names.
    public var modalPresentationStyle: ModalPresentationStyle = .pageSheet
    /// When true, a swipe down does not dismiss this presented sheet: its presentation
    /// controller's delegate gets `presentationControllerDidAttemptToDismiss` instead.
    public var isModalInPresentation = false
    /// The controller this one presents, if any.
    public internal(set) var presentedViewController: UIViewController?
    /// The controller that presents this one, while it is presented.
    public internal(set) weak var presentingViewController: UIViewController?
    /// The presentation this controller is shown by (set its `delegate` before presenting).
    public private(set) var presentationController: PresentationController?
    /// The traits the controller last appeared or changed size with.
    public internal(set) var traitCollection = TraitCollection(size: .zero)
    /// True during the appearance callbacks that come of adding this controller to its parent,
    /// as UIKit's: a push, `addChild`, and the first appearance of a navigation controller's
    /// stack (the window's, a tab's).
    public internal(set) var isMovingToParent = false
    /// True during the disappearance callbacks of the pop that removes this controller.
    public internal(set) var isMovingFromParent = false
    /// True during the appearance callbacks of this controller's presentation. A controller
    /// presented in a navigation controller is not being presented: its navigation controller is.
    public internal(set) var isBeingPresented = false
    /// True during the disappearance callbacks of this controller's dismissal, a swipe's from
    /// its start (until it springs back). As with `isBeingPresented`, a wrapped controller's
    /// navigation controller is the one being dismissed.
    public internal(set) var isBeingDismissed = false

    /// True while the controller appears in an interactive swipe that is cancelled (a swipe
    /// back or down the user lets go of): UIKit leaves a table controller's selection alone
    /// until an interactive transition completes.
    var isInCancelledSwipe = false

    /// Whether the view must lay out when it next appears: it has not laid out since it
    /// loaded or since the last size change (docs/LIFECYCLE.md §3).
    var needsLayout = true

    /// Where the view is: in its window's hierarchy from `viewIsAppearing` until
    /// `viewDidDisappear`, as UIKit puts it there (so `view.window` is nil in `viewDidLoad`,
    /// in `viewWillAppear`, under a push, in a tab not shown, under a full-screen cover).
    var viewPlacement = ViewPlacement.offScreen

    /// See `viewPlacement`.
    enum ViewPlacement {
        /// Not shown: never yet, or since `viewDidDisappear`.
        case offScreen
        /// Being shown, not in the window yet: from `viewWillAppear` until `viewIsAppearing`.
        case appearing
        /// In the window's hierarchy.
        case inWindow
    }

    /// A controller identified as `restorationIdentifier`, or by its class's name when nil.
    /// Its view is not loaded yet.
    public init(restorationIdentifier: String? = nil) {
        self.restorationIdentifier = restorationIdentifier ?? String(describing: Self.self)
        isContainer = false
        presentationController = PresentationController(presentedViewController: self)
    }

    /// A container (`ContainerViewController`), named by its class.
    init(container: Void) {
        restorationIdentifier = String(describing: Self.self)
        isContainer = true
        presentationController = PresentationController(presentedViewController: self)
    }

    /// Whether this is a container (navigation, tab bar, split view): it reports nothing of its
    /// own. Stored, not a type check, because the nonisolated `deinit` reads it.
    let isContainer: Bool

    /// A controller made the storyboard way, as UIKit's required `init?(coder:)`: identified by
    /// its class's name. The runtime makes the storyboard's initial controller with it (the
    /// `UIKit` module's `@main`), so a subclass with initializers of its own implements it, as
    /// in UIKit (`required init?(coder: NSCoder) { fatalError("init(coder:) has not been
    /// implemented") }` is enough when the storyboard never makes it).
    public required init?(coder: NSCoder) {
        // A storyboard's controller carries the restoration identifier the storyboard gives it.
        if case .string(let identifier)? = coder.decodeValue(forKey: "UIRestorationIdentifier"), !identifier.isEmpty {
            restorationIdentifier = identifier
        } else {
            restorationIdentifier = String(describing: Self.self)
        }
        isContainer = false
        presentationController = PresentationController(presentedViewController: self)
    }

    /// UIKit's designated initializer, so `super.init(nibName: nil, bundle: nil)` compiles
    /// unchanged: there are no nibs, and a `nibName` serves as the identity.
    public init(nibName: String?, bundle: NibBundle?) {
        restorationIdentifier = nibName ?? String(describing: Self.self)
        isContainer = false
        presentationController = PresentationController(presentedViewController: self)
    }

    // Not `isolated`, so that subclasses can declare a plain `deinit`. A controller released
    // off the main thread cannot report (the runtime never runs code off the main thread).
    deinit {
        // A container is not a controller of the model: its stack's controllers report.
        guard !isContainer, let sink, sink.isCurrentThread else { return }
        let event = CallbackEvent(.deinit, viewController: restorationIdentifier, origin: deinitOrigin)
        MainActor.assumeIsolated {
            sink.report(event)
        }
    }

    /// Whether the controller is in editing mode (`setEditing(_:animated:)`, its
    /// `editButtonItem`). Setting it calls `setEditing(_:animated:)`, unanimated, as UIKit's.
    open var isEditing: Bool {
        get { editingState }
        set { setEditing(newValue, animated: false) }
    }
    private var editingState = false
    private var ownEditButtonItem: UIBarButtonItem?

    /// Enters or leaves editing mode: the base implementation sets `isEditing` and retitles
    /// `editButtonItem` ("Edit", "Done"); a table controller's puts its table in the same mode.
    open func setEditing(_ editing: Bool, animated: Bool) {
        editingState = editing
        ownEditButtonItem?.showEditing(editing)
    }

    /// An item titled "Edit" that toggles editing mode (`setEditing(!isEditing, animated:
    /// true)`), titled "Done" while editing: `navigationItem.rightBarButtonItem = editButtonItem`.
    open var editButtonItem: UIBarButtonItem {
        if let ownEditButtonItem { return ownEditButtonItem }
        let item = UIBarButtonItem(title: "Edit")
        item.primaryAction = UIAction(title: "Edit") { [weak self] _ in
            guard let self else { return }
            setEditing(!isEditing, animated: true)
        }
        item.showEditing(isEditing)
        ownEditButtonItem = item
        return item
    }

    /// Whether the view is loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// The view if it has loaded, else nil (reading it loads nothing), as UIKit's.
    public var viewIfLoaded: View? { loadedView }

    /// Stops the app: `view` was read before it loaded (see `view`). The controller is named
    /// by its type, and by its identity where that differs (the name the host gave it): the
    /// host keeps a crashed worker's last stderr lines, not where it crashed.
    private func viewReadBeforeLoading() -> Never {
        let type = String(describing: Swift.type(of: self))
        let name =
            restorationIdentifier == type || restorationIdentifier.isEmpty
            ? type : "\(type) \"\(restorationIdentifier)\""
        fatalError(
            "the view of \(name) was read before it loaded: scenehost loads a controller's view when the "
                + "controller is shown (pushed, presented, added as a child, a window's root or selected tab; "
                + "one asked for inside a callback runs once the callback returns), not on the first read as "
                + "UIKit does. Set the view up in the controller's viewDidLoad; before then, read viewIfLoaded "
                + "or isViewLoaded."
        )
    }

    /// Creates the view. The base implementation sets `view` to an empty `View` the size of
    /// the window that is to show the controller, or of the scene's window when it is not in
    /// one yet (UIKit's is the screen's, so `viewDidLoad` reads a full-size `view.bounds`); an
    /// override that does not set `view` gets an empty one anyway once it returns. Either is
    /// resized to its place before its first layout.
    open func loadView() {
        let size = (windowShowingIt ?? Application.shared.connectedScene?.window)?.size ?? .zero
        if let premadeView {
            premadeView.size = size
            view = premadeView
        } else {
            view = View(size: size)
        }
    }

    /// Called once, after the view loaded. The base implementation does nothing.
    open func viewDidLoad() {}

    /// Called once on a controller made from a storyboard (a `WorkerApp` whose
    /// `rootFromStoryboard` is set: its root), right after it was made and before the scene's
    /// `willConnectTo`. The base implementation does nothing.
    open func awakeFromNib() {}

    /// The view is about to appear. The base implementation does nothing.
    open func viewWillAppear(_ animated: Bool) {}

    /// The view is being added to the hierarchy, right after `viewWillAppear(_:)`: its traits
    /// and size are known. The base implementation does nothing.
    open func viewIsAppearing(_ animated: Bool) {}

    /// The traits changed (the first appearance, or a size-class change); `previous` is
    /// nil the first time. The base implementation does nothing.
    open func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {}

    /// A size-class change is coming (`newCollection`): called for every loaded controller
    /// before its `traitCollectionDidChange(_:)`. The base implementation does nothing.
    open func willTransition(to newCollection: TraitCollection, with coordinator: TransitionCoordinator) {}

    /// The view appeared. The base implementation does nothing.
    open func viewDidAppear(_ animated: Bool) {}

    /// The view is about to disappear. The base implementation does nothing.
    open func viewWillDisappear(_ animated: Bool) {}

    /// The view disappeared. The base implementation does nothing.
    open func viewDidDisappear(_ animated: Bool) {}

    /// The view is about to lay out its subviews (its `size` is already current).
    /// The base implementation does nothing.
    open func viewWillLayoutSubviews() {}

    /// The view laid out its subviews. The base implementation does nothing.
    open func viewDidLayoutSubviews() {}

    /// The window is about to change to `size`. Called on every controller of the stack,
    /// root first. The base implementation does nothing.
    open func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {}

    /// The process received a memory warning. The base implementation does nothing.
    open func didReceiveMemoryWarning() {}

    /// A tap began on this controller (the frontmost one, its scene active). The base
    /// implementation calls `touchesBegan(_:with:)`, UIKit's form, with no event.
    open func touchesBegan(_ touches: Set<Touch>) { touchesBegan(touches, with: nil) }

    /// A tap ended on this controller. The base implementation calls `touchesEnded(_:with:)`,
    /// UIKit's form, with no event.
    open func touchesEnded(_ touches: Set<Touch>) { touchesEnded(touches, with: nil) }

    /// UIKit's form of `touchesBegan(_:)`, which ported code overrides: a worker has no
    /// event object to pass, so `event` is nil. The base implementation does nothing.
    open func touchesBegan(_ touches: Set<Touch>, with event: UIEvent?) {}

    /// UIKit's form of `touchesEnded(_:)`; `event` is nil. The base implementation does nothing.
    open func touchesEnded(_ touches: Set<Touch>, with event: UIEvent?) {}

    /// The controller is about to be added to `parent` as a child, or (nil) removed from its
    /// parent. The runtime calls it (`addChild(_:)` and `removeFromParent()` do); an explicit
    /// call from app code runs only your override. The base implementation does nothing.
    open func willMove(toParent parent: UIViewController?) {}

    /// The controller was added to `parent` (or, nil, removed). The runtime calls it once the
    /// child appeared (or disappeared); an explicit call from app code runs only your
    /// override. The base implementation does nothing.
    open func didMove(toParent parent: UIViewController?) {}
}

// MARK: - Driving the callbacks (each reported, then run)

extension UIViewController {
    private func report(_ name: CallbackName) {
        sink?.report(name, viewController: restorationIdentifier)
    }

    /// `initWithCoder` (reported: the controller was made by the storyboard), `awakeFromNib`.
    func runStoryboardInstantiation() {
        report(.initWithCoder)
        report(.awakeFromNib)
        awakeFromNib()
    }

    /// Forgets an app's `addChild(_:)` of this controller that will not run (refused when its
    /// turn came, or its parent gone): the view read early leaves the container's, and
    /// reading `view` stops the app again, as for any controller not shown.
    func abandonAddingAsChild() {
        addingSession = nil
        premadeView?.removeFromSuperview()
        premadeView = nil
    }

    /// `loadView`, `viewDidLoad`, unless the view is already loaded.
    func runLoadViewIfNeeded() {
        guard !isViewLoaded else { return }
        isLoadingView = true
        defer { isLoadingView = false }
        report(.loadView)
        loadView()
        if loadedView == nil {
            loadedView = premadeView ?? View()
        }
        if let premadeView {
            self.premadeView = nil
            if let loadedView, loadedView !== premadeView { loadedView.replace(premadeView) }
        }
        loadedView?.owner = self
        report(.viewDidLoad)
        viewDidLoad()
    }

    /// `viewWillAppear`, then `viewIsAppearing` (every appearance runs both), with the traits
    /// of the window it appears in and, when it lays out next, the size it lays out at: set
    /// before `viewWillAppear`, silently (c26), so `viewIsAppearing` sees both up to date
    /// (Apple: "traits and geometry … up to date") whether it is pushed, presented, a tab's or a child.
    func runViewWillAppear(_ animated: Bool) {
        if let window = windowShowingIt {
            traitCollection = window.traitCollection
            if needsLayout, let loadedView { loadedView.size = parent?.loadedView?.size ?? window.size }
        }
        // Appearing again in a cancelled swipe, it never left the window.
        if viewPlacement == .offScreen { viewPlacement = .appearing }
        report(.viewWillAppear)
        viewWillAppear(animated)
        viewPlacement = .inWindow
        report(.viewIsAppearing)
        viewIsAppearing(animated)
        // Forwarded to the children, parent first (§3a): after the parent's viewIsAppearing.
        for child in children { child.runViewWillAppear(animated) }
    }

    func runTraitCollectionDidChange(to traits: TraitCollection) {
        let previous = traitCollection
        traitCollection = traits
        report(.traitCollectionDidChange)
        traitCollectionDidChange(previous)
        for child in children { child.runTraitCollectionDidChange(to: traits) }
    }

    /// `willTransition(to:with:)`, before a size-class change's `traitCollectionDidChange`.
    func runWillTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator) {
        report(.willTransition)
        willTransition(to: traits, with: coordinator)
        for child in children { child.runWillTransition(to: traits, with: coordinator) }
    }

    /// One layout pass, only when the layout is dirty (a controller that appears again).
    func runLayoutIfNeeded(size: Size) {
        guard needsLayout else { return }
        runLayout(size: size)
    }

    /// The presentation whose delegate hears of this presented controller's swipes: in a
    /// presented navigation controller the delegate may be set on either (UIKit presents the
    /// navigation controller).
    var presentationWithDelegate: PresentationController? {
        let containerPresentation = presentedContainer?.presentationController
        let presentation = containerPresentation?.delegate != nil ? containerPresentation : presentationController
        return presentation?.delegate != nil ? presentation : nil
    }

    func runPresentationControllerCallback(_ name: CallbackName) {
        report(name)
        guard let presentationController = presentationWithDelegate, let delegate = presentationController.delegate
        else { return }
        switch name {
        case .presentationControllerWillDismiss: delegate.presentationControllerWillDismiss(presentationController)
        case .presentationControllerDidDismiss: delegate.presentationControllerDidDismiss(presentationController)
        default: delegate.presentationControllerDidAttemptToDismiss(presentationController)
        }
    }

    func runViewDidAppear(_ animated: Bool) {
        report(.viewDidAppear)
        viewDidAppear(animated)
        for child in children { child.runViewDidAppear(animated) }
    }

    func runViewWillDisappear(_ animated: Bool) {
        report(.viewWillDisappear)
        viewWillDisappear(animated)
        for child in children { child.runViewWillDisappear(animated) }
    }

    func runViewDidDisappear(_ animated: Bool) {
        // Its view has left the window: a first responder in it resigns, unasked, as UIKit's.
        loadedView?.endEditing(true)
        viewPlacement = .offScreen
        report(.viewDidDisappear)
        viewDidDisappear(animated)
        for child in children { child.runViewDidDisappear(animated) }
    }

    /// One layout pass at `size`: `viewWillLayoutSubviews`, `viewDidLayoutSubviews`.
    func runLayout(size: Size) {
        loadedView?.size = size
        needsLayout = false
        report(.viewWillLayoutSubviews)
        viewWillLayoutSubviews()
        report(.viewDidLayoutSubviews)
        viewDidLayoutSubviews()
    }

    func runViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        needsLayout = true
        report(.viewWillTransition)
        viewWillTransition(to: size, with: coordinator)
        for child in children { child.runViewWillTransition(to: size, with: coordinator) }
    }

    func runDidReceiveMemoryWarning() {
        report(.didReceiveMemoryWarning)
        didReceiveMemoryWarning()
        for child in children { child.runDidReceiveMemoryWarning() }
    }

    /// Reports `willMoveToParent`; runs the override unless `callsOverride` is false (the
    /// call UIKit leaves to the app's code, which makes it itself).
    func runWillMove(toParent parent: UIViewController?, callsOverride: Bool = true) {
        report(.willMoveToParent)
        if callsOverride { willMove(toParent: parent) }
    }

    /// Reports `didMoveToParent`; runs the override unless `callsOverride` is false (as
    /// `runWillMove`).
    func runDidMove(toParent parent: UIViewController?, callsOverride: Bool = true) {
        report(.didMoveToParent)
        if callsOverride { didMove(toParent: parent) }
    }
}
