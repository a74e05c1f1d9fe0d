// The bars around a controller's view, as code configures them: a tab's item, the navigation
// bar and the tab bar. What they show is kept (a tab's title is the visible tree's); how they
// look is kept, not drawn.

/// A tab's title, image and badge, as `UITabBarItem`.
@MainActor
public final class UITabBarItem {
    /// The system's own tab items, as `UITabBarItem.SystemItem` (each with its title).
    public enum SystemItem: Int, Sendable {
        case more, favorites, featured, topRated, recents, contacts, history, bookmarks, search, downloads
        case mostRecent, mostViewed

        var title: String {
            switch self {
            case .more: "More"
            case .favorites: "Favorites"
            case .featured: "Featured"
            case .topRated: "Top Rated"
            case .recents: "Recents"
            case .contacts: "Contacts"
            case .history: "History"
            case .bookmarks: "Bookmarks"
            case .search: "Search"
            case .downloads: "Downloads"
            case .mostRecent: "Most Recent"
            case .mostViewed: "Most Viewed"
            }
        }
    }

    /// The title the tab shows.
    public var title: String?
    public var image: UIImage?
    public var selectedImage: UIImage?
    /// A number the app may use to tell its items apart.
    public var tag: Int
    /// The badge's text (nil: no badge).
    public var badgeValue: String?
    public var badgeColor: UIColor?

    /// An item titled `title`, with `image`.
    public init(title: String?, image: UIImage?, tag: Int) {
        (self.title, self.image, self.tag, systemItem) = (title, image, tag, nil)
    }

    /// An item titled `title`, with an image and the image it shows while selected.
    public init(title: String?, image: UIImage?, selectedImage: UIImage?) {
        (self.title, self.image, self.selectedImage, tag, systemItem) = (title, image, selectedImage, 0, nil)
    }

    /// The system item this is, if it is one: its title is the system's, whatever is set.
    public let systemItem: SystemItem?

    /// One of the system's items, with its title.
    public init(tabBarSystemItem systemItem: SystemItem, tag: Int) {
        (title, self.tag, self.systemItem) = (systemItem.title, tag, systemItem)
    }

    /// The title the tab shows: a system item's own, else `title`.
    var shownTitle: String? { systemItem?.title ?? title }
}

/// How a bar looks, as `UIBarAppearance` (`UINavigationBarAppearance`,
/// `UITabBarAppearance`): kept, not drawn.
@MainActor
public class UIBarAppearance {
    public var backgroundColor: UIColor?
    public var shadowColor: UIColor?

    public init() {}

    /// An opaque background of the system's color.
    public func configureWithOpaqueBackground() {
        (backgroundColor, shadowColor) = (.systemBackground, .separator)
    }

    /// The system's default (translucent) background.
    public func configureWithDefaultBackground() {
        (backgroundColor, shadowColor) = (nil, .separator)
    }

    /// No background and no shadow.
    public func configureWithTransparentBackground() {
        (backgroundColor, shadowColor) = (.clear, .clear)
    }
}

/// A navigation bar's appearance, as `UINavigationBarAppearance`.
@MainActor
public final class UINavigationBarAppearance: UIBarAppearance {}

/// A tab bar's appearance, as `UITabBarAppearance`.
@MainActor
public final class UITabBarAppearance: UIBarAppearance {}

/// A navigation controller's bar, as `UINavigationBar`: how it looks, kept. Whether it shows
/// is the navigation controller's `isNavigationBarHidden`.
@MainActor
public final class UINavigationBar {
    public var prefersLargeTitles = false
    public var tintColor: UIColor?
    public var barTintColor: UIColor?
    public var isTranslucent = true
    public var standardAppearance = UINavigationBarAppearance()
    public var scrollEdgeAppearance: UINavigationBarAppearance?
    public var compactAppearance: UINavigationBarAppearance?
    public var compactScrollEdgeAppearance: UINavigationBarAppearance?

    init() {}
}

/// A tab bar controller's bar, as `UITabBar`: how it looks, kept.
@MainActor
public final class UITabBar {
    public var tintColor: UIColor?
    public var unselectedItemTintColor: UIColor?
    public var barTintColor: UIColor?
    public var isTranslucent = true
    public var standardAppearance = UITabBarAppearance()
    public var scrollEdgeAppearance: UITabBarAppearance?

    init() {}
}
