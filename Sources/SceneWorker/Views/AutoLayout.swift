// Auto Layout, as code writes it: anchors, constraints, priorities and layout guides. The
// constraints are kept, not solved (there is no layout engine): `NSLayoutConstraint.activate`
// and `isActive` run as written and read back what was set, and a view's size stays the one
// it was given (a root view's is the window's).

/// A constraint between two views' attributes (or one attribute and a constant), as
/// `NSLayoutConstraint`. An active one is held, as UIKit holds it, by the nearest common
/// ancestor of its items' views (`View.constraints`), or by the view it was added to
/// (`addConstraint`); it does not keep its items alive.
@MainActor
public final class NSLayoutConstraint {
    /// The attributes of a view a constraint relates, as `NSLayoutConstraint.Attribute`.
    public enum Attribute: Int, Sendable {
        case left = 1
        case right, top, bottom, leading, trailing, width, height, centerX, centerY
        case lastBaseline, firstBaseline
        case notAnAttribute = 0
    }

    /// How the two sides compare, as `NSLayoutConstraint.Relation`.
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1
        case equal = 0
        case greaterThanOrEqual = 1
    }

    /// The two axes, as `NSLayoutConstraint.Axis` (hugging and compression resistance).
    public enum Axis: Int, Sendable {
        case horizontal, vertical
    }

    /// The item on the left side (a view or a layout guide).
    public private(set) weak var firstItem: AnyObject?
    public let firstAttribute: Attribute
    public let relation: Relation
    /// The item on the right side, nil for a constant size.
    public private(set) weak var secondItem: AnyObject?
    public let secondAttribute: Attribute
    public let multiplier: Double
    /// The constant added to the right side; code may change it later, as with UIKit.
    public var constant: Double
    public var priority = UILayoutPriority.required
    public var identifier: String?
    /// The view that holds the constraint while it is active.
    private(set) weak var holder: View?

    /// Whether the constraint is active: held by the nearest common ancestor of its items'
    /// views. Items with no common ancestor (UIKit raises) leave it inactive, logged.
    public var isActive: Bool {
        get { holder != nil }
        set {
            guard newValue != isActive else { return }
            if newValue {
                guard let ancestor = commonAncestor else {
                    writeError(
                        "scenehost worker: constraint not activated: its items have no common ancestor (UIKit raises)"
                    )
                    return
                }
                activate(heldBy: ancestor)
            } else {
                holder?.activeConstraints.removeAll { $0 === self }
                holder = nil
            }
        }
    }

    /// Activates the constraint, held by `view` (which `addConstraint` names).
    func activate(heldBy view: View) {
        isActive = false
        holder = view
        view.activeConstraints.append(self)
    }

    /// The view an item stands for: itself, or the view a layout guide belongs to.
    static func view(of item: AnyObject?) -> View? {
        (item as? View) ?? (item as? UILayoutGuide)?.owningView
    }

    /// Whether the constraint refers to `item`, or to a view in `subtree`'s tree.
    func refers(to item: AnyObject?, orInto subtree: View?) -> Bool {
        [firstItem, secondItem].contains { other in
            guard let other else { return false }
            if let item, other === item { return true }
            guard let subtree, let view = Self.view(of: other) else { return false }
            return view.isDescendant(of: subtree)
        }
    }

    /// Whether `view` contains the views of both items.
    func itemsAreWithin(_ view: View) -> Bool {
        [firstItem, secondItem].allSatisfy { item in
            guard let item else { return true }
            return Self.view(of: item)?.isDescendant(of: view) ?? false
        } && firstItem != nil
    }

    /// The nearest view that contains both items' views (the first's, for a constant).
    private var commonAncestor: View? {
        guard let first = Self.view(of: firstItem) else { return nil }
        guard secondItem != nil else { return first }
        guard let second = Self.view(of: secondItem) else { return nil }
        var ancestor: View? = first
        while let candidate = ancestor {
            if second.isDescendant(of: candidate) { return candidate }
            ancestor = candidate.superview
        }
        return nil
    }

    /// `item.attribute relation toItem.attribute × multiplier + constant`, as the
    /// initializer UIKit has had since iOS 6.
    public init(
        item: AnyObject,
        attribute: Attribute,
        relatedBy relation: Relation,
        toItem: AnyObject?,
        attribute secondAttribute: Attribute,
        multiplier: Double,
        constant: Double
    ) {
        firstItem = item
        firstAttribute = attribute
        self.relation = relation
        secondItem = toItem
        self.secondAttribute = secondAttribute
        self.multiplier = multiplier
        self.constant = constant
    }

    /// Activates every constraint of `constraints`.
    public static func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Deactivates every constraint of `constraints`.
    public static func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }
}

/// A constraint's priority, as `UILayoutPriority`: 1...1000, `required` by default.
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    public static let required = UILayoutPriority(1000)
    public static let defaultHigh = UILayoutPriority(750)
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    public static let sceneSizeStayPut = UILayoutPriority(500)
    public static let defaultLow = UILayoutPriority(250)
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue + rhs)
    }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue - rhs)
    }
}

/// One attribute of a view or layout guide that constraints are made from, as
/// `NSLayoutAnchor`: an anchor relates only to anchors of its own kind (`AnchorType`), as
/// UIKit's do.
@MainActor
public class NSLayoutAnchor<AnchorType: AnyObject> {
    let item: AnyObject
    let attribute: NSLayoutConstraint.Attribute

    init(_ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute) {
        self.item = item
        self.attribute = attribute
    }

    public func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant: Double = 0) -> NSLayoutConstraint {
        constraint(.equal, anchor, constant: constant)
    }

    public func constraint(
        greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, anchor, constant: constant)
    }

    public func constraint(
        lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, anchor, constant: constant)
    }

    func constraint(
        _ relation: NSLayoutConstraint.Relation,
        _ other: NSLayoutAnchor<AnchorType>?,
        multiplier: Double = 1,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        NSLayoutConstraint(
            item: item,
            attribute: attribute,
            relatedBy: relation,
            toItem: other?.item,
            attribute: other?.attribute ?? .notAnAttribute,
            multiplier: multiplier,
            constant: constant
        )
    }
}

/// A horizontal position (leading, trailing, left, right, center X), as `NSLayoutXAxisAnchor`.
@MainActor
public final class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {
    /// The system spacing (8 points) after `anchor`, times `multiplier`.
    public func constraint(
        equalToSystemSpacingAfter anchor: NSLayoutXAxisAnchor,
        multiplier: Double
    ) -> NSLayoutConstraint {
        constraint(.equal, anchor, constant: 8 * multiplier)
    }
}

/// A vertical position (top, bottom, center Y, baselines), as `NSLayoutYAxisAnchor`.
@MainActor
public final class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {
    /// The system spacing (8 points) below `anchor`, times `multiplier`.
    public func constraint(
        equalToSystemSpacingBelow anchor: NSLayoutYAxisAnchor,
        multiplier: Double
    ) -> NSLayoutConstraint {
        constraint(.equal, anchor, constant: 8 * multiplier)
    }
}

/// A width or height, as `NSLayoutDimension`: also relates to a constant, or to another
/// dimension times a multiplier.
@MainActor
public final class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    public func constraint(
        equalTo anchor: NSLayoutDimension,
        multiplier: Double,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        constraint(.equal, anchor, multiplier: multiplier, constant: constant)
    }

    public func constraint(
        greaterThanOrEqualTo anchor: NSLayoutDimension,
        multiplier: Double,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }

    public func constraint(
        lessThanOrEqualTo anchor: NSLayoutDimension,
        multiplier: Double,
        constant: Double = 0
    ) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }

    public func constraint(equalToConstant constant: Double) -> NSLayoutConstraint {
        constraint(.equal, nil, constant: constant)
    }

    public func constraint(greaterThanOrEqualToConstant constant: Double) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, nil, constant: constant)
    }

    public func constraint(lessThanOrEqualToConstant constant: Double) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, nil, constant: constant)
    }
}

/// The anchors every view and layout guide has.
@MainActor
public protocol LayoutAnchors: AnyObject {}

extension LayoutAnchors {
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }
}

extension View: LayoutAnchors {
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .firstBaseline) }
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .lastBaseline) }
}

/// A rectangle constraints can refer to, as `UILayoutGuide` (a view's safe area, its margins).
@MainActor
public final class UILayoutGuide: LayoutAnchors {
    /// The view the guide belongs to.
    public internal(set) weak var owningView: View?
    public var identifier = ""

    public init() {}
}

/// A priority for each axis (a view's hugging, its compression resistance), stored inline:
/// every view has two, and a view is made for each label and field.
struct AxisPriorities {
    private var horizontal: UILayoutPriority
    private var vertical: UILayoutPriority

    init(_ priority: UILayoutPriority) {
        (horizontal, vertical) = (priority, priority)
    }

    subscript(axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        get { axis == .horizontal ? horizontal : vertical }
        set {
            if axis == .horizontal { horizontal = newValue } else { vertical = newValue }
        }
    }
}
