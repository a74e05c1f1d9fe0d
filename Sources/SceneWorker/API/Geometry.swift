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

/// What `viewWillTransition(to:with:)` receives besides the new size, as
/// `UIViewControllerTransitionCoordinator` (without animation blocks: transitions here are instant).
public struct TransitionCoordinator: Sendable, Hashable {
    /// The size before the transition.
    public var fromSize: Size
    /// The size after the transition (the same value as the `size` argument).
    public var toSize: Size
    /// Whether the transition is animated. Host-driven size changes are not.
    public var isAnimated: Bool

    /// Runs `animation` at once (transitions here are instant), then `completion`; returns
    /// true, as UIKit's does when the animations will run.
    @MainActor
    @discardableResult
    public func animate(
        alongsideTransition animation: (@MainActor (TransitionCoordinator) -> Void)?,
        completion: (@MainActor (TransitionCoordinator) -> Void)? = nil
    ) -> Bool {
        animation?(self)
        completion?(self)
        return true
    }

    /// A coordinator for a transition from `fromSize` to `toSize`.
    public init(fromSize: Size, toSize: Size, isAnimated: Bool = false) {
        self.fromSize = fromSize
        self.toSize = toSize
        self.isAnimated = isAnimated
    }
}
