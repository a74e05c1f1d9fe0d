/// What a control runs when the user triggers it, as `UIAction`. Linux has no selectors, so
/// actions are how controls call app code (`UIButton(type:primaryAction:)`,
/// `UIBarButtonItem(title:image:primaryAction:menu:)`, `addAction(_:for:)`).
@MainActor
public final class UIAction {
    /// The action's title: a button made with it shows it.
    public var title: String
    /// The action's image, if any.
    public var image: UIImage?
    /// The action's identifier.
    public let identifier: Identifier
    /// The control that sent the action, while its handler runs.
    public internal(set) weak var sender: AnyObject?
    let handler: UIActionHandler

    /// An action's identifier, as UIKit's `UIAction.Identifier`.
    public struct Identifier: Hashable, Sendable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// An action that runs `handler`.
    public init(
        title: String = "",
        image: UIImage? = nil,
        identifier: Identifier? = nil,
        handler: @escaping UIActionHandler
    ) {
        self.title = title
        self.image = image
        self.identifier = identifier ?? Identifier("action-\(title)")
        self.handler = handler
    }

    /// Runs the handler, as the control `sender`.
    func perform(sender: AnyObject?) {
        self.sender = sender
        handler(self)
        self.sender = nil
    }
}

/// `UIActionHandler`: what a `UIAction` runs.
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// An image, as `UIImage`: a name only (nothing is drawn). `inspect` shows the name.
public struct UIImage: Hashable, Sendable {
    /// The system symbol's or the asset's name.
    public var name: String

    /// A system symbol (`"plus"`, `"square.and.arrow.up"`).
    public init?(systemName: String) { name = systemName }
    /// An image of the app's assets.
    public init?(named: String) { name = named }
}

/// A menu, as `UIMenu`: a title and its actions. A bar button item's menu is shown in the
/// visible tree; its actions are not reachable by the user's hands.
@MainActor
public final class UIMenu {
    /// The menu's title.
    public var title: String
    /// The menu's actions.
    public var children: [UIAction]

    /// A menu of `children`.
    public init(title: String = "", children: [UIAction] = []) {
        self.title = title
        self.children = children
    }
}
