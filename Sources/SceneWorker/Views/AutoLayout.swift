// Auto Layout, as code writes it: anchors, constraints, priorities and layout guides. The
// constraints are kept, not solved (there is no layout engine): `NSLayoutConstraint.activate`
// and `isActive` run as written and read back what was set, and a view's size stays the one
// it was given (a root view's is the window's).

/// A constraint between two views' attributes (or one attribute and a constant), as
/// `NSLayoutConstraint`. Active ones are kept by their first view (`View.constraints`).
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
    public let firstItem: AnyObject?
    public let firstAttribute: Attribute
    public let relation: Relation
    /// The item on the right side, nil for a constant size.
    public let secondItem: AnyObject?
    public let secondAttribute: Attribute
    public let multiplier: Double
    /// The constant added to the right side; code may change it later, as with UIKit.
    public var constant: Double
    public var priority = UILayoutPriority.required
    public var identifier: String?

    /// Whether the constraint is active: kept by its first view while it is.
    public var isActive = false {
        didSet {
            guard isActive != oldValue, let view = owningView else { return }
            if isActive {
                view.activeConstraints.append(self)
            } else {
                view.activeConstraints.removeAll { $0 === self }
            }
        }
    }

    /// The view that keeps the constraint: the first item, or the view owning the guide.
    private var owningView: View? {
        (firstItem as? View) ?? (firstItem as? UILayoutGuide)?.owningView
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
