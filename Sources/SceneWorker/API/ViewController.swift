import Protocol

/// A view controller, shaped like `UIViewController`: subclass it and override the
/// lifecycle methods you care about.
///
/// The runtime calls these methods in the orders of `docs/LIFECYCLE.md` and reports each call
/// to the host itself (a callback is reported just before your override runs), so overrides
/// need not call `super` and need not report anything.
///
/// `deinit` is reported from this base class's real `deinit`. A controller that your code
/// keeps alive after it was popped (or after the scene disconnected) — stored in a delegate,
/// captured strongly by a closure, kept in a global — never reports `deinit`, and the host
/// sees the missing callback: a leak shows up in the trace.
@MainActor
open class ViewController {
    /// The controller's name: the `vc` field the trace reports. Controllers the host creates
    /// (`makeViewController(name)`) must carry the name they were created for.
    public let title: String

    /// The root view, set by `loadView()`; nil until the view is loaded.
    public var view: View?

    /// The navigation controller whose stack holds this controller, if any.
    public internal(set) weak var navigationController: NavigationController?

    /// Where this controller reports its callbacks: set when a session adopts it.
    var sink: CallbackSink?
    /// `.app` once the app popped this controller itself: its `deinit`, whenever it comes,
    /// belongs to that change.
    var deinitOrigin: CallbackOrigin?

    /// A controller named `title`. Its view is not loaded yet.
    public init(title: String) {
        self.title = title
    }

    // Not `isolated`, so that subclasses can declare a plain `deinit`. A controller released
    // off the main thread cannot report (the runtime never runs code off the main thread).
    deinit {
        guard let sink, sink.isCurrentThread else { return }
        let event = CallbackEvent(.deinit, viewController: title, origin: deinitOrigin)
        MainActor.assumeIsolated {
            sink.report(event)
        }
    }

    /// Whether the view is loaded (`view` is not nil).
    public var isViewLoaded: Bool { view != nil }

    /// Creates the view. The base implementation sets `view` to an empty `View`; an override
    /// that does not set `view` gets one anyway once it returns.
    open func loadView() {
        view = View()
    }

    /// Called once, after the view loaded. The base implementation does nothing.
    open func viewDidLoad() {}

    /// The view is about to appear. The base implementation does nothing.
    open func viewWillAppear(_ animated: Bool) {}

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
    /// implementation does nothing.
    open func touchesBegan(_ touches: Set<Touch>) {}

    /// A tap ended on this controller. The base implementation does nothing.
    open func touchesEnded(_ touches: Set<Touch>) {}
}

// MARK: - Driving the callbacks (each reported, then run)

extension ViewController {
    private func report(_ name: CallbackName) {
        sink?.report(name, viewController: title)
    }

    /// `loadView`, `viewDidLoad`, unless the view is already loaded.
    func runLoadViewIfNeeded() {
        guard !isViewLoaded else { return }
        report(.loadView)
        loadView()
        if view == nil {
            view = View()
        }
        report(.viewDidLoad)
        viewDidLoad()
    }

    func runViewWillAppear(_ animated: Bool) {
        report(.viewWillAppear)
        viewWillAppear(animated)
    }

    func runViewDidAppear(_ animated: Bool) {
        report(.viewDidAppear)
        viewDidAppear(animated)
    }

    func runViewWillDisappear(_ animated: Bool) {
        report(.viewWillDisappear)
        viewWillDisappear(animated)
    }

    func runViewDidDisappear(_ animated: Bool) {
        report(.viewDidDisappear)
        viewDidDisappear(animated)
    }

    /// One layout pass at `size`: `viewWillLayoutSubviews`, `viewDidLayoutSubviews`.
    func runLayout(size: Size) {
        view?.size = size
        report(.viewWillLayoutSubviews)
        viewWillLayoutSubviews()
        report(.viewDidLayoutSubviews)
        viewDidLayoutSubviews()
    }

    func runViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        report(.viewWillTransition)
        viewWillTransition(to: size, with: coordinator)
    }

    func runDidReceiveMemoryWarning() {
        report(.didReceiveMemoryWarning)
        didReceiveMemoryWarning()
    }
}
