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
/// `UIViewControllerTransitionCoordinator` (transitions here are instant).
public struct TransitionCoordinator: Sendable, Hashable {
    /// The size before the transition.
    public var fromSize: Size
    /// The size after the transition (the same value as the `size` argument).
    public var toSize: Size
    /// Whether the transition is animated. Host-driven size changes are not.
    public var isAnimated: Bool
    /// The blocks `animate(alongsideTransition:completion:)` was given during the runtime's
    /// transition, run once it has applied the new size; nil for a coordinator made by hand.
    let pending: PendingTransitionBlocks?

    /// Runs `animation` once the transition has applied the new size (the window's, the
    /// views' and their layout), then `completion`, as UIKit runs them after every
    /// `viewWillTransition(to:with:)`; returns true, as UIKit's does when the animations will
    /// run. A coordinator made by hand, or kept and called after its transition, runs both
    /// at once.
    @MainActor
    @discardableResult
    public func animate(
        alongsideTransition animation: (@MainActor (TransitionCoordinator) -> Void)?,
        completion: (@MainActor (TransitionCoordinator) -> Void)? = nil
    ) -> Bool {
        // A coordinator kept and called after its transition ended runs them at once.
        guard let pending, !pending.isFinished else {
            animation?(self)
            completion?(self)
            return true
        }
        if let animation { pending.animations.append(animation) }
        if let completion { pending.completions.append(completion) }
        return true
    }

    public static func == (lhs: TransitionCoordinator, rhs: TransitionCoordinator) -> Bool {
        (lhs.fromSize, lhs.toSize, lhs.isAnimated) == (rhs.fromSize, rhs.toSize, rhs.isAnimated)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fromSize)
        hasher.combine(toSize)
        hasher.combine(isAnimated)
    }

    /// A coordinator for a transition from `fromSize` to `toSize`.
    public init(fromSize: Size, toSize: Size, isAnimated: Bool = false) {
        self.init(fromSize: fromSize, toSize: toSize, isAnimated: isAnimated, pending: nil)
    }

    init(fromSize: Size, toSize: Size, isAnimated: Bool = false, pending: PendingTransitionBlocks?) {
        self.fromSize = fromSize
        self.toSize = toSize
        self.isAnimated = isAnimated
        self.pending = pending
    }
}

/// The animation and completion blocks of one transition, in the order they were given.
@MainActor
final class PendingTransitionBlocks {
    var animations: [@MainActor (TransitionCoordinator) -> Void] = []
    var completions: [@MainActor (TransitionCoordinator) -> Void] = []
    /// The transition ended: blocks given later run at once.
    private(set) var isFinished = false

    /// Runs every animation, then every completion (a block may add more: they run too).
    func run(_ coordinator: TransitionCoordinator) {
        var index = 0
        while index < animations.count {
            animations[index](coordinator)
            index += 1
        }
        index = 0
        while index < completions.count {
            completions[index](coordinator)
            index += 1
        }
        animations = []
        completions = []
        isFinished = true
    }
}
