/// A row or column of views, as `UIStackView`: its arranged views are subviews, and the user
/// (the visible tree, the user's hands) sees them in their arranged order. Nothing is laid out.
@MainActor
open class UIStackView: View {
    /// How arranged views share the stack's length, as `UIStackView.Distribution`.
    public enum Distribution: Int, Sendable {
        case fill, fillEqually, fillProportionally, equalSpacing, equalCentering
    }

    /// How arranged views sit across the stack, as `UIStackView.Alignment`.
    public enum Alignment: Int, Sendable {
        case fill, leading, firstBaseline, center, trailing, lastBaseline
        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }

    /// What `customSpacing(after:)` returns for a view with no custom spacing: use `spacing`.
    public static let spacingUseDefault = Double.greatestFiniteMagnitude
    /// A custom spacing that asks for the system's spacing.
    public static let spacingUseSystem = -Double.greatestFiniteMagnitude

    /// The views the stack arranges, in order.
    public private(set) var arrangedSubviews: [View] = []
    /// A row (horizontal) or a column (vertical).
    public var axis = NSLayoutConstraint.Axis.horizontal
    public var distribution = Distribution.fill
    public var alignment = Alignment.fill
    /// The space between arranged views, in points.
    public var spacing: Double = 0
    public var isLayoutMarginsRelativeArrangement = false
    private var customSpacings: [ObjectIdentifier: Double] = [:]

    /// A stack of `views`, in order.
    public init(arrangedSubviews views: [View]) {
        super.init(size: .zero)
        for view in views { addArrangedSubview(view) }
    }

    /// An empty stack.
    public override init(size: Size = .zero) {
        super.init(size: size)
    }

    /// Adds `view` at the end of the arranged views (and of the subviews, if it is not one).
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` among the arranged views at `index` (clamped to their count); a view
    /// that is not a subview yet is added at the end of the subviews, as UIKit adds it.
    public func insertArrangedSubview(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else { return }
        if view.superview !== self { addSubview(view) }
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(index, 0), arrangedSubviews.count))
    }

    /// Stops arranging `view`; it stays a subview, as with UIKit (take it out of the stack with
    /// `removeFromSuperview()`, which also ends its arrangement).
    public func removeArrangedSubview(_ view: View) {
        arrangedSubviews.removeAll { $0 === view }
        customSpacings[ObjectIdentifier(view)] = nil
    }

    /// The space after `view`, in place of `spacing`.
    public func setCustomSpacing(_ spacing: Double, after view: View) {
        customSpacings[ObjectIdentifier(view)] = spacing
    }

    /// The space set after `view`, or `UIStackView.spacingUseDefault` (use `spacing`).
    public func customSpacing(after view: View) -> Double {
        customSpacings[ObjectIdentifier(view)] ?? Self.spacingUseDefault
    }

    open override func willRemoveSubview(_ subview: View) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    /// The arranged views in their order, then the other subviews. (Only views still in the
    /// stack count: a subclass's `willRemoveSubview` may not have called `super`.)
    override var subviewsInVisibleOrder: [View] {
        let arranged = arrangedSubviews.filter { $0.superview === self }
        let ids = Set(arranged.map(ObjectIdentifier.init))
        return arranged + subviews.filter { !ids.contains(ObjectIdentifier($0)) }
    }
}
