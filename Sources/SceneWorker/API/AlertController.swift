/// An alert or action sheet, as `UIAlertController`: a presented controller with a title, a
/// message, actions and text fields. Present it with `present(_:animated:)`; the user's
/// `alertAction --title OK` chooses an action: the alert is dismissed (an app change), then
/// the action's handler runs, as in UIKit.
///
/// It is presented as a sheet that cannot be swiped away (`isModalInPresentation`), so the
/// presenter gets no appearance callbacks, as UIKit's alert presentation does not give it
/// any. The trace names it `UIAlertController`.
@MainActor
open class UIAlertController: UIViewController {
    /// The kinds of alert, as `UIAlertController.Style`.
    public enum Style: Sendable, Hashable {
        case alert, actionSheet
    }

    /// The message below the title.
    public var message: String?
    /// The alert's kind.
    public let preferredStyle: Style
    /// The actions, in the order they were added.
    public private(set) var actions: [UIAlertAction] = []
    /// The action a Return key would choose.
    public var preferredAction: UIAlertAction?
    /// The text fields, in the order they were added (alerts only).
    public private(set) var textFields: [UITextField]? = nil

    /// An alert titled `title` showing `message`.
    public init(title: String?, message: String?, preferredStyle: Style) {
        self.message = message
        self.preferredStyle = preferredStyle
        super.init(restorationIdentifier: "UIAlertController")
        self.title = title
        isModalInPresentation = true
    }

    /// An alert with no title (alerts are made in code).
    public required init?(coder: NSCoder) {
        message = nil
        preferredStyle = .alert
        super.init(restorationIdentifier: "UIAlertController")
        isModalInPresentation = true
    }

    /// Adds `action` after the others.
    public func addAction(_ action: UIAlertAction) {
        actions.append(action)
    }

    /// Adds a text field, configured by `configurationHandler`.
    public func addTextField(configurationHandler: (@MainActor (UITextField) -> Void)? = nil) {
        let field = UITextField()
        configurationHandler?(field)
        textFields = (textFields ?? []) + [field]
    }

    open override func loadView() {
        view = View()
        for field in textFields ?? [] { view.addSubview(field) }
    }
}

/// One choice of an alert, as `UIAlertAction`.
@MainActor
public final class UIAlertAction {
    /// How the action looks, as `UIAlertAction.Style`.
    public enum Style: Sendable, Hashable {
        case `default`, cancel, destructive
    }

    /// The action's title (what `alertAction --title` names).
    public let title: String?
    /// The action's style.
    public let style: Style
    /// A disabled action cannot be chosen (`alertAction` fails, nothing changed).
    public var isEnabled = true
    let handler: (@MainActor (UIAlertAction) -> Void)?

    /// An action titled `title` that runs `handler` once the alert is dismissed.
    public init(title: String?, style: Style, handler: (@MainActor (UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}
