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

    /// The window the view is in, as UIKit's: its controller's scene's window while the
    /// controller is on screen there (in the scene's stack, presented over it, or a child of
    /// either); nil otherwise.
    public var window: Window? {
        var view: View? = self
        while let current = view {
            if let owner = current.owner { return owner.windowShowingIt }
            view = current.superview
        }
        return nil
    }

    /// A view of the given size (the runtime resizes a root view before its first layout pass).
    public init(size: Size = .zero) {
        self.size = size
    }

    /// Adds `view` on top of this view's subviews, taking it from its old superview.
    /// Adding a view to itself or to one of its own subviews is ignored (UIKit would raise).
    public func addSubview(_ view: View) {
        var ancestor: View? = self
        while let current = ancestor {
            if current === view { return }
            ancestor = current.superview
        }
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Takes the view out of its superview.
    public func removeFromSuperview() {
        guard let superview else { return }
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
    }

    /// The first view in this view's tree (itself included) whose `tag` is `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// UIKit's layout hooks, for code that calls them: there is no layout engine, so they
    /// do nothing.
    public func setNeedsLayout() {}
    /// See `setNeedsLayout()`.
    public func layoutIfNeeded() {}

    /// Every visible view of the tree under this one (this one included), depth first.
    var visibleDescendants: [View] {
        guard !isHidden else { return [] }
        return [self] + subviews.flatMap(\.visibleDescendants)
    }
}
