/// A control, as `UIControl`: a view that runs actions when the user triggers an event.
/// Linux has no selectors, so `addTarget(_:action:for:)` does not exist: add a `UIAction`
/// with `addAction(_:for:)`.
@MainActor
open class UIControl: View {
    /// The events of a control, as `UIControl.Event`.
    public struct Event: OptionSet, Hashable, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A disabled control ignores the user (`tapControl` on it fails, nothing changed).
    public var isEnabled = true

    private var actions: [(action: UIAction, events: Event)] = []

    /// A control with no actions.
    public override init(size: Size = .zero) {
        super.init(size: size)
    }

    /// Runs `action` whenever one of `events` happens.
    public func addAction(_ action: UIAction, for events: Event) {
        actions.append((action, events))
    }

    /// Stops running `action` for `events`.
    public func removeAction(_ action: UIAction, for events: Event) {
        for index in actions.indices.reversed() where actions[index].action === action {
            actions[index].events.subtract(events)
            if actions[index].events.isEmpty { actions.remove(at: index) }
        }
    }

    /// Whether an action is added for one of `events`.
    func hasActions(for events: Event) -> Bool {
        actions.contains { !$0.events.isDisjoint(with: events) }
    }

    /// Runs every action added for one of `events`, in the order they were added.
    public func sendActions(for events: Event) {
        for entry in actions where !entry.events.isDisjoint(with: events) {
            entry.action.perform(sender: self)
        }
    }
}

/// A button, as `UIButton`: a title, and the action a tap runs.
@MainActor
open class UIButton: UIControl {
    /// The kinds of button, as `UIButton.ButtonType`.
    public enum ButtonType: Sendable, Hashable {
        case custom, system, detailDisclosure, infoLight, infoDark, contactAdd, close
    }

    /// The control states a title is set for, as `UIControl.State` (one title serves all).
    public struct State: OptionSet, Hashable, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    /// The button's kind.
    public let buttonType: ButtonType
    private var title: String?
    /// The button's image, if any.
    public private(set) var currentImage: UIImage?

    /// A button of `type` that runs `primaryAction` when tapped (and shows its title).
    public init(type: ButtonType = .system, primaryAction: UIAction? = nil) {
        buttonType = type
        super.init()
        if let primaryAction {
            title = primaryAction.title.isEmpty ? nil : primaryAction.title
            currentImage = primaryAction.image
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    /// A button of `type` (UIKit's `UIButton(type:)` factory).
    public convenience init(type: ButtonType) {
        self.init(type: type, primaryAction: nil)
    }

    private var titleColors: [UInt: UIColor] = [:]
    /// Sets the title's color for `state` (kept, not drawn).
    public func setTitleColor(_ color: UIColor?, for state: State) { titleColors[state.rawValue] = color }
    /// The title's color for `state`: its own, else the normal state's, as UIKit's.
    public func titleColor(for state: State) -> UIColor? {
        titleColors[state.rawValue] ?? titleColors[State.normal.rawValue]
    }

    /// Sets the title (one title serves every state).
    public func setTitle(_ title: String?, for state: State) {
        self.title = title
    }

    /// The title set for `state`.
    public func title(for state: State) -> String? { title }

    /// The title shown now.
    public var currentTitle: String? { title }

    /// Sets the image (one image serves every state).
    public func setImage(_ image: UIImage?, for state: State) {
        currentImage = image
    }

    /// What a tap does: `primaryActionTriggered`, then `touchUpInside` actions.
    func tapAsUser() {
        sendActions(for: .primaryActionTriggered)
        sendActions(for: .touchUpInside)
    }
}

/// A text label, as `UILabel`.
@MainActor
open class UILabel: View {
    /// The label's text.
    public var text: String?
    /// The text's color (kept, not drawn).
    public var textColor: UIColor = .label
    /// The text's font (kept, not drawn).
    public var font: UIFont = .systemFont(ofSize: 17)
    /// The most lines the text takes (0: as many as it needs).
    public var numberOfLines = 1
    /// How the text is aligned.
    public var textAlignment = NSTextAlignment.natural
    /// Whether the font follows the Dynamic Type setting (which never changes here).
    public var adjustsFontForContentSizeCategory = false

    /// An empty label.
    public override init(size: Size = .zero) {
        super.init(size: size)
    }
}
