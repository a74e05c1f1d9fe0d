/// A size in points, as `CGSize` but integral: the host sends sizes as integers.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// The width in points.
    public var width: Int
    /// The height in points.
    public var height: Int

    /// A size of `width` × `height` points.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)

    /// `"800x600"`.
    public var description: String { "\(width)x\(height)" }
}

/// A view controller's root view: a minimal stand-in for `UIView`.
///
/// The runtime keeps its `size` equal to the window's before each layout pass
/// (`viewWillLayoutSubviews` / `viewDidLayoutSubviews`).
@MainActor
public final class View {
    /// The view's size; the runtime sets it to the window's size before layout.
    public var size: Size

    /// The controller whose root view this is (set when its view loads).
    weak var owner: UIViewController?

    /// The window the view is in, as UIKit's: its controller's scene's window, while the
    /// controller is in that scene's stack; nil otherwise.
    public var window: Window? { owner?.navigationController?.window }

    /// A view of the given size (the runtime resizes it before its first layout pass).
    public init(size: Size = .zero) {
        self.size = size
    }
}

/// What `viewWillTransition(to:with:)` receives besides the new size, as
/// `UIViewControllerTransitionCoordinator` (without animation blocks: transitions here are instant).
public struct TransitionCoordinator: Sendable, Hashable {
    /// The size before the transition.
    public var fromSize: Size
    /// The size after the transition (the same value as the `size` argument).
    public var toSize: Size
    /// Whether the transition is animated. Host-driven size changes are not.
    public var isAnimated: Bool

    /// A coordinator for a transition from `fromSize` to `toSize`.
    public init(fromSize: Size, toSize: Size, isAnimated: Bool = false) {
        self.fromSize = fromSize
        self.toSize = toSize
        self.isAnimated = isAnimated
    }
}
