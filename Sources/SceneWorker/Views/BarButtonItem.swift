/// A button in a navigation bar, as `UIBarButtonItem`: a title or image and the action a
/// tap runs. The user's hands find it by title or `accessibilityIdentifier`
/// (`tapControl --control Save`).
@MainActor
open class UIBarButtonItem {
    /// UIKit's system items; the visible tree shows a system item by its name (`"add"`).
    public enum SystemItem: String, Sendable, Hashable {
        case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize,
            bookmarks, search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo, close
    }

    /// The kinds of item, as `UIBarButtonItem.Style`.
    public enum Style: Sendable, Hashable {
        case plain, done
    }

    /// The title shown.
    public var title: String?
    /// The image shown.
    public var image: UIImage?
    /// The system item this is, if it is one.
    public let systemItem: SystemItem?
    /// What a tap runs.
    public var primaryAction: UIAction?
    /// The menu a long press (or a tap, with no primary action) shows.
    public var menu: UIMenu?
    /// A disabled item ignores the user (`tapControl` on it fails, nothing changed).
    public var isEnabled = true
    /// The item's style.
    public var style: Style = .plain
    /// The name tests find the item by.
    public var accessibilityIdentifier: String?
    /// Whether this is a controller's `editButtonItem` (the visible tree marks it: editing
    /// mode is not restored, so restoration compares it as "Edit").
    var isEditButton = false

    /// An item showing `title` or `image` that runs `primaryAction` when tapped.
    public init(title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.title = title ?? primaryAction.flatMap { $0.title.isEmpty ? nil : $0.title }
        self.image = image ?? primaryAction?.image
        self.primaryAction = primaryAction
        self.menu = menu
        systemItem = nil
    }

    /// A system item (`.add`, `.done`, …) that runs `primaryAction` when tapped.
    public init(systemItem: SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.systemItem = systemItem
        self.primaryAction = primaryAction
        self.menu = menu
        style = systemItem == .done || systemItem == .save ? .done : .plain
    }

    /// The names a user's `tapControl` may give: the title, the identifier, the system item,
    /// the image.
    var names: [String] {
        // The image's name last: the visible tree shows it for an item with nothing else.
        [title, accessibilityIdentifier, systemItem?.rawValue, image?.name].compactMap { $0 }
    }

    /// An edit button's look in and out of editing mode, as UIKit's: "Done" (a done item)
    /// while editing, else "Edit".
    func showEditing(_ editing: Bool) {
        isEditButton = true
        title = editing ? "Done" : "Edit"
        style = editing ? .done : .plain
    }

    /// What a tap does: the primary action.
    func tapAsUser() {
        primaryAction?.perform(sender: self)
    }
}

/// What a navigation bar shows for a controller, as `UINavigationItem`.
@MainActor
public final class UINavigationItem {
    /// The title shown (the controller's `title` when nil).
    public var title: String?
    /// A line above the title.
    public var prompt: String?
    /// The title the next controller's back button shows.
    public var backButtonTitle: String?
    /// Whether the back button is hidden (a swipe back does not begin either).
    public var hidesBackButton = false
    /// Hides or shows the back button (`animated` is accepted; nothing is drawn).
    public func setHidesBackButton(_ hidesBackButton: Bool, animated: Bool) {
        self.hidesBackButton = hidesBackButton
    }
    /// Whether the leading bar button items show beside the back button rather than in its
    /// place (in its place, a swipe back does not begin).
    public var leftItemsSupplementBackButton = false
    /// When the title is large, as `UINavigationItem.LargeTitleDisplayMode` (kept, not drawn).
    public var largeTitleDisplayMode = LargeTitleDisplayMode.automatic
    /// What the back button shows, as `UINavigationItem.BackButtonDisplayMode` (kept).
    public var backButtonDisplayMode = BackButtonDisplayMode.default

    public enum LargeTitleDisplayMode: Int, Sendable { case automatic, always, never }
    public enum BackButtonDisplayMode: Int, Sendable { case `default`, generic, minimal }
    /// The items on the leading side.
    public var leftBarButtonItems: [UIBarButtonItem]?
    /// The items on the trailing side.
    public var rightBarButtonItems: [UIBarButtonItem]?

    /// An item titled `title`.
    public init(title: String? = nil) {
        self.title = title
    }

    /// The first leading item.
    public var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The first trailing item.
    public var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    /// Sets the leading items (`animated` is ignored: nothing is drawn).
    public func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { leftBarButtonItems = items }
    /// Sets the trailing items (`animated` is ignored).
    public func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { rightBarButtonItems = items }
    /// Sets the leading item.
    public func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }
    /// Sets the trailing item.
    public func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }

    /// Every item, leading first.
    var allItems: [UIBarButtonItem] { (leftBarButtonItems ?? []) + (rightBarButtonItems ?? []) }
}
