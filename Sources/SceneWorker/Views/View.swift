/// A view, as `UIView`: a node of the view tree with no drawing and no layout engine. It
/// carries what a user would see and touch (labels, fields, buttons, tables are views), so
/// `inspect` can show it and the user's hands can find it.
///
/// The runtime keeps a controller's root view's `size` equal to the window's before each
/// layout pass (`viewWillLayoutSubviews` / `viewDidLayoutSubviews`).
@MainActor
open class View {
    /// The view's size; the runtime sets a root view's to the window's size before layout.
    public var size: Size

    /// The controller whose root view this is (set when its view loads).
    weak var owner: UIViewController?

    /// The views this one contains, in the order they were added.
    public private(set) var subviews: [View] = []

    /// The view that contains this one, while one does.
    public private(set) weak var superview: View?

    /// The name tests and the user's hands find this view by (`typeText --field`,
    /// `tapControl --control`), as UIKit's accessibility identifier.
    public var accessibilityIdentifier: String?

    /// A hidden view, and everything in it, is left out of the visible tree and cannot be
    /// touched.
    public var isHidden = false

    /// An integer the app may use to find the view, as UIKit's.
    public var tag = 0

    // What the view looks like: kept, not drawn (Appearance.swift).

    /// The background color, as UIKit's (nil: none).
    public var backgroundColor: UIColor?
    private var ownTintColor: UIColor?
    /// The tint color: the view's own, else its superview's (a root view's: its controller's
    /// parent's view's), else the system tint, as UIKit's.
    public var tintColor: UIColor! {
        get { ownTintColor ?? (superview ?? owner?.parent?.loadedView)?.tintColor ?? .systemBlue }
        set { ownTintColor = newValue }
    }
    /// The view's opacity, 0...1: its layer's `opacity`, as UIKit's.
    public var alpha: Double {
        get { Double(layer.opacity) }
        set { layer.opacity = Float(min(max(newValue, 0), 1)) }
    }
    /// Whether the view is opaque (a drawing hint).
    public var isOpaque = true
    /// The view's layer: its corner, border and shadow settings.
    public private(set) lazy var layer = CALayer()
    /// Whether subviews are clipped to the view's bounds (the layer's `masksToBounds`).
    public var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    // Auto Layout: kept, not solved (AutoLayout.swift).

    /// Whether the view's size comes from its autoresizing mask (true) or its constraints, as
    /// UIKit's; nothing is solved either way.
    public var translatesAutoresizingMaskIntoConstraints = true
    /// The active constraints this view holds (`NSLayoutConstraint.isActive`).
    var activeConstraints: [NSLayoutConstraint] = []
    /// The constraints the view holds, as UIKit's: the active ones whose items' nearest common
    /// ancestor it is, and those added to it.
    public var constraints: [NSLayoutConstraint] { activeConstraints }
    private var huggingPriorities = AxisPriorities(.defaultLow)
    private var compressionResistancePriorities = AxisPriorities(.defaultHigh)
    /// The layout guides added to the view.
    public private(set) var layoutGuides: [UILayoutGuide] = []
    /// The area not covered by bars, as UIKit's `safeAreaLayoutGuide`.
    public private(set) lazy var safeAreaLayoutGuide = ownedGuide("UIViewSafeAreaLayoutGuide")
    /// The area inside the view's margins, as UIKit's `layoutMarginsGuide`.
    public private(set) lazy var layoutMarginsGuide = ownedGuide("UIViewLayoutMarginsGuide")
    /// The area of readable width, as UIKit's `readableContentGuide`.
    public private(set) lazy var readableContentGuide = ownedGuide("UIViewReadableContentGuide")

    private func ownedGuide(_ identifier: String) -> UILayoutGuide {
        let guide = UILayoutGuide()
        guide.owningView = self
        guide.identifier = identifier
        return guide
    }

    /// Activates `constraint`, held by this view (UIKit's pre-anchor form). A view that does
    /// not contain both items' views cannot hold it (UIKit raises): logged, not activated.
    public func addConstraint(_ constraint: NSLayoutConstraint) {
        guard constraint.itemsAreWithin(self) else {
            writeError("scenehost worker: constraint not added: the view does not contain its items (UIKit raises)")
            return
        }
        constraint.activate(heldBy: self)
    }

    /// `addConstraint` of each of `constraints`.
    public func addConstraints(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { addConstraint(constraint) }
    }
    /// Deactivates `constraint`.
    public func removeConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = false }
    /// Deactivates every constraint of `constraints`.
    public func removeConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.deactivate(constraints) }

    /// Adds `guide` to the view.
    public func addLayoutGuide(_ guide: UILayoutGuide) {
        guide.owningView = self
        layoutGuides.append(guide)
    }

    /// Removes `guide` from the view, and the constraints that refer to it, as UIKit does.
    public func removeLayoutGuide(_ guide: UILayoutGuide) {
        guard guide.owningView === self else { return }
        deactivateConstraints(referringTo: guide, orInto: nil)
        layoutGuides.removeAll { $0 === guide }
        guide.owningView = nil
    }

    /// Deactivates the constraints this view and its ancestors hold that refer to `item` or
    /// to a view of `subtree`.
    private func deactivateConstraints(referringTo item: AnyObject?, orInto subtree: View?) {
        var holder: View? = self
        while let current = holder {
            for constraint in current.activeConstraints where constraint.refers(to: item, orInto: subtree) {
                constraint.isActive = false
            }
            holder = current.superview
        }
    }

    /// Whether this view is `view` or inside it.
    public func isDescendant(of view: View) -> Bool {
        var ancestor: View? = self
        while let current = ancestor {
            if current === view { return true }
            ancestor = current.superview
        }
        return false
    }

    /// How much the view resists growing along `axis`.
    public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        huggingPriorities[axis]
    }

    public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        huggingPriorities[axis] = priority
    }

    /// How much the view resists shrinking along `axis`.
    public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        compressionResistancePriorities[axis]
    }

    public func setContentCompressionResistancePriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis)
    {
        compressionResistancePriorities[axis] = priority
    }

    /// The window the view is in, as UIKit's: its tree's controller's window while that
    /// controller's view is in the window's hierarchy, from `viewIsAppearing` until
    /// `viewDidDisappear`; nil otherwise (in `viewDidLoad` and `viewWillAppear`, under a push,
    /// in a tab not shown, under a full-screen presentation, out of every controller's tree).
    /// So `view.window != nil` tells whether a controller is on screen as a device does: a
    /// presenter under a page sheet, and a scene in the background, keep their window.
    public var window: Window? {
        guard let owner = outermostOwner, owner.viewPlacement == .inWindow else { return nil }
        return owner.windowShowingIt
    }

    /// The window that shows this view's controller, or is about to: where it can take the
    /// keyboard (`becomeFirstResponder()` from `viewWillAppear` works, as the keyboard comes up
    /// with a push on a device; in `viewDidLoad` or under a push, it fails).
    var hostingWindow: Window? {
        guard let owner = outermostOwner, owner.viewPlacement != .offScreen else { return nil }
        return owner.windowShowingIt
    }

    /// The controller of the outermost view of this view's tree that has one: a child's
    /// view added to its parent's is in the window exactly when the parent's is (it enters
    /// and leaves with the parent's tree, before the child's own callbacks run).
    private var outermostOwner: UIViewController? {
        var owner: UIViewController?
        var view: View? = self
        while let current = view {
            if let found = current.owner { owner = found }
            view = current.superview
        }
        return owner
    }

    /// A view of the given size (the runtime resizes a root view before its first layout pass).
    public init(size: Size = .zero) {
        self.size = size
    }

    /// Adds `view` on top of this view's subviews, taking it from its old superview.
    /// Adding a view to itself or to one of its own subviews is ignored (UIKit would raise).
    public func addSubview(_ view: View) {
        if isDescendant(of: view) { return }
        // Already one of this view's: brought to the front, nothing removed (its constraints
        // and a stack's arrangement stay), as UIKit's.
        if view.superview === self {
            subviews.removeAll { $0 === view }
            subviews.append(view)
            return
        }
        // A move keeps a first responder in the moved tree only while it stays in its window.
        let responder = view.superview == nil ? nil : view.firstResponderInTree
        view.detachFromSuperview()
        subviews.append(view)
        view.superview = self
        if let responder, responder.hostingWindow !== responder.firstResponderWindow { responder.endFirstResponder() }
        didAddSubview(view)
    }

    /// Inserts `view` among this view's subviews at `index` (clamped to their count), taking
    /// it from its old superview.
    public func insertSubview(_ view: View, at index: Int) {
        addSubview(view)
        guard view.superview === self, let from = subviews.lastIndex(where: { $0 === view }) else { return }
        subviews.remove(at: from)
        subviews.insert(view, at: min(max(index, 0), subviews.count))
    }

    /// Puts this view where `other` is in its superview (the same position), taking `other`
    /// out: a child's own view replacing the one its container added before it loaded.
    /// In a stack view that arranged `other`, this view is arranged in its place.
    func replace(_ other: View) {
        guard let superview = other.superview, let index = superview.subviews.firstIndex(where: { $0 === other })
        else { return }
        let arranged = (superview as? UIStackView)?.arrangedSubviews.firstIndex { $0 === other }
        other.removeFromSuperview()
        superview.insertSubview(self, at: index)
        if let arranged, let stack = superview as? UIStackView { stack.insertArrangedSubview(self, at: arranged) }
    }

    /// Takes the view out of its superview. The constraints that tie its tree to the views
    /// it leaves go, as UIKit removes them, and a first responder in its tree resigns,
    /// unasked, as it leaves the window.
    public func removeFromSuperview() {
        guard superview != nil else { return }
        firstResponderInTree?.endFirstResponder()
        detachFromSuperview()
    }

    /// Takes the view out of its superview, its constraints with it (`addSubview` decides
    /// about a first responder in a moved tree).
    private func detachFromSuperview() {
        guard let superview else { return }
        superview.willRemoveSubview(self)
        superview.deactivateConstraints(referringTo: nil, orInto: self)
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
    }

    /// Called when `subview` was added, as UIKit's. The base implementation does nothing.
    open func didAddSubview(_ subview: View) {}

    /// Called before `subview` is taken out, as UIKit's. The base implementation does nothing.
    open func willRemoveSubview(_ subview: View) {}

    /// The first view in this view's tree (itself included) whose `tag` is `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: First responder (the rest in View+FirstResponder.swift)

    /// The window whose first responder this view is; nil when it is none.
    weak var firstResponderWindow: Window?

    /// Whether the view can become its window's first responder, as UIKit's. Default: false
    /// (a text field: true while it is enabled).
    open var canBecomeFirstResponder: Bool { false }

    /// Makes the view its window's first responder, as UIKit's: only a view that can become
    /// one, in a window or in the tree of a controller about to appear in one
    /// (`hostingWindow`); the window's current first responder resigns first, and when it
    /// refuses it stays, and false is returned.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard canBecomeFirstResponder, let window = hostingWindow else { return false }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        // What the resigning one's callbacks did stands: they may have made a view first
        // responder already (this one, or the one that resigned, taking it back).
        if let now = window.firstResponder { return now === self }
        window.firstResponder = self
        firstResponderWindow = window
        return true
    }

    /// Gives up first responder status, as UIKit's (true when the view is not first responder).
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return true }
        endFirstResponder()
        return true
    }

    /// What the view does when it stops being first responder (a text field ends editing).
    func firstResponderEnded() {}

    /// UIKit's layout hooks, for code that calls them: there is no layout engine, so they
    /// do nothing.
    public func setNeedsLayout() {}
    /// See `setNeedsLayout()`.
    public func layoutIfNeeded() {}

    /// The subviews in the order the user sees them (a stack view's: as it arranges them).
    var subviewsInVisibleOrder: [View] { subviews }

    /// Every visible view of the tree under this one (this one included), depth first.
    var visibleDescendants: [View] {
        guard !isHidden else { return [] }
        // A child controller's view added to its parent's is the child's: its own controller
        // lists it, once (a removed child's left behind is its old parent's).
        return [self] + subviewsInVisibleOrder.filter { $0.owner?.parent == nil }.flatMap(\.visibleDescendants)
    }
}
