/// A size class, as `UIUserInterfaceSizeClass`: compact below 600 points, regular from 600.
public enum UserInterfaceSizeClass: String, Sendable, Hashable {
    case compact
    case regular

    /// The size class of a length in points.
    public init(points: Int) {
        self = points < 600 ? .compact : .regular
    }
}

/// Light or dark, as `UIUserInterfaceStyle`. A scene is light unless the host connected it
/// dark (`connect --style dark`).
public enum UserInterfaceStyle: Int, Sendable, Hashable {
    case unspecified, light, dark
}

/// The traits a view controller lays out for, as `UITraitCollection`: the size classes and
/// the interface style.
public struct TraitCollection: Sendable, Hashable {
    public var horizontalSizeClass: UserInterfaceSizeClass
    public var verticalSizeClass: UserInterfaceSizeClass
    public var userInterfaceStyle: UserInterfaceStyle = .light

    /// The traits of a window of `size` in `userInterfaceStyle`.
    public init(size: Size, userInterfaceStyle: UserInterfaceStyle = .light) {
        horizontalSizeClass = UserInterfaceSizeClass(points: size.width)
        verticalSizeClass = UserInterfaceSizeClass(points: size.height)
        self.userInterfaceStyle = userInterfaceStyle
    }

    /// Whether going from `self` to `other` changes a size class (the change
    /// `willTransition(to:with:)` announces).
    func changesSizeClass(to other: TraitCollection) -> Bool {
        horizontalSizeClass != other.horizontalSizeClass || verticalSizeClass != other.verticalSizeClass
    }
}
