/// A row or column of views, as `UIStackView`: its arranged subviews are its subviews, in
/// order, so the visible tree and the user's hands find them. Nothing is laid out.
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

    /// The views the stack arranges, in order: a view taken from the stack
    /// (`removeFromSuperview()`) is no longer arranged, as with UIKit.
    public var arrangedSubviews: [View] { arranged.filter { $0.superview === self } }
    private var arranged: [View] = []
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

    /// Adds `view` at the end of the arranged views (and of the subviews).
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arranged.count)
    }

    /// Inserts `view` among the arranged views at `index` (clamped to their count).
    public func insertArrangedSubview(_ view: View, at index: Int) {
        guard view !== self else { return }
        // Taken out first (and put back below), so the positions below are its new ones.
        if view.superview === self { view.removeFromSuperview() }
        arranged = arrangedSubviews
        let position = min(max(index, 0), arranged.count)
        arranged.insert(view, at: position)
        // The subviews follow the arranged order, which is the order the user sees.
        let next = position + 1 < arranged.count ? subviews.firstIndex { $0 === arranged[position + 1] } : nil
        insertSubview(view, at: next ?? subviews.count)
    }

    /// Stops arranging `view`; it stays a subview, as with UIKit (remove it from its superview
    /// to take it away).
    public func removeArrangedSubview(_ view: View) {
        arranged.removeAll { $0 === view }
    }

    /// The space after `view`, in place of `spacing`.
    public func setCustomSpacing(_ spacing: Double, after view: View) {
        customSpacings[ObjectIdentifier(view)] = spacing
    }

    /// The space after `view`: its custom spacing, else `spacing`.
    public func customSpacing(after view: View) -> Double {
        customSpacings[ObjectIdentifier(view)] ?? spacing
    }
}
