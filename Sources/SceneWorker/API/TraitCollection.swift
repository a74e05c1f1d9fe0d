/// A size class, as `UIUserInterfaceSizeClass`: compact below 600 points, regular from 600.
public enum UserInterfaceSizeClass: String, Sendable, Hashable {
    case compact
    case regular

    /// The size class of a length in points.
    public init(points: Int) {
        self = points < 600 ? .compact : .regular
    }
}

/// The traits a view controller lays out for, as `UITraitCollection` (the size classes only).
public struct TraitCollection: Sendable, Hashable {
    public var horizontalSizeClass: UserInterfaceSizeClass
    public var verticalSizeClass: UserInterfaceSizeClass

    /// The traits of a window of `size`.
    public init(size: Size) {
        horizontalSizeClass = UserInterfaceSizeClass(points: size.width)
        verticalSizeClass = UserInterfaceSizeClass(points: size.height)
    }
}
