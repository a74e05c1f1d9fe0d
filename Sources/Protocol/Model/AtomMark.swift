/// What an atom's branch tells the trace checker about the scene, at the point it is reached:
/// a zero-width step the checker passes over as soon as the step before it matched.
///
/// Push and present begin with the same callbacks, and so do pop and an interactive pop:
/// which one ran is known only once their branches part, and that is where a mark sits.
public enum AtomMark: Sendable, Hashable {
    /// The controller on top is now presented, in this style.
    case presented(PresentationStyle)
    /// The controller `fromTop` places below the top (0: the top) just laid out: its layout
    /// is clean.
    case laidOut(fromTop: Int)
    /// Every controller's layout is dirty (a size change began); the visible one lays out next.
    case sizeChanged
    /// The launch took the app-based branch (docs/LIFECYCLE.md §3d): the worker's app has no
    /// scene support, so the app delegate's transitions replace the scene's.
    case appBased
    /// A child was added to the frontmost controller (LIFECYCLE.md §3a).
    case childAdded(String)
    /// A child of the frontmost controller was removed: its `deinit` comes next.
    case childRemoved(String)
    /// A pop to the controller at this index began (0: the root): the stack's top is
    /// released last, after the middle ones.
    case poppingTo(Int)
    /// A replaced stack's new top appeared: the stack is now the controllers kept (these
    /// indices of the old one), the `added` new ones loaded below the new top, and the new
    /// top; the others' `deinit`s come next.
    case replacingStack(kept: [Int], added: Int)
}
