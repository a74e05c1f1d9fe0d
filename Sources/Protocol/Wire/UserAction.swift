/// What a user does with their hands on the frontmost screen (`selectRow`, `typeText`,
/// `tapControl`, `alertAction`, `swipeRow`, `moveRow`): the host delivers it only while the scene is
/// `foregroundActive`, and the worker fails it, nothing changed, when the screen has no such
/// row, field, control, alert action or swipe action.
public enum UserAction: Sendable, Hashable {
    /// Taps row `row` of section `section` of the frontmost controller's table.
    case selectRow(section: Int, row: Int)
    /// Types `text` into the field whose accessibility identifier or placeholder is `field`
    /// (its text becomes `text`, as a paste would make it).
    case typeText(field: String, text: String)
    /// Taps the button or bar button item whose title or accessibility identifier is `control`.
    case tapControl(control: String)
    /// Chooses the action titled `title` of the presented alert.
    case alertAction(title: String)
    /// Swipes row `row` of section `section` of the frontmost controller's table from its
    /// `edge` and taps the swipe action titled `action` (nil: swipes all the way, which
    /// performs the first action).
    case swipeRow(section: Int, row: Int, edge: SwipeEdge, action: String?)
    /// Drags row `row` of section `section` of the frontmost controller's table, which is
    /// editing, by its reorder control to row `toRow` of section `toSection`.
    case moveRow(section: Int, row: Int, toSection: Int, toRow: Int)

    /// The side of a row a swipe reveals actions on, as UIKit's leading and trailing swipe
    /// actions.
    public enum SwipeEdge: String, Sendable, Hashable, CaseIterable {
        /// A swipe to the left: the trailing actions (`Delete`).
        case trailing
        /// A swipe to the right: the leading actions.
        case leading
    }

    /// The operation's name on the wire, in scenarios and on the command line.
    public var name: String {
        switch self {
        case .selectRow: "selectRow"
        case .typeText: "typeText"
        case .tapControl: "tapControl"
        case .alertAction: "alertAction"
        case .swipeRow: "swipeRow"
        case .moveRow: "moveRow"
        }
    }

    /// The action's fields besides `op`, as the wire and the trace's `value` write them.
    public var fields: [String: JSONValue] {
        switch self {
        case .selectRow(let section, let row): ["section": .int(section), "row": .int(row)]
        case .typeText(let field, let text): ["field": .string(field), "text": .string(text)]
        case .tapControl(let control): ["control": .string(control)]
        case .alertAction(let title): ["title": .string(title)]
        case .swipeRow(let section, let row, let edge, let action):
            ["section": .int(section), "row": .int(row), "edge": .string(edge.rawValue)]
                .merging(action.map { ["action": .string($0)] } ?? [:]) { first, _ in first }
        case .moveRow(let section, let row, let toSection, let toRow):
            ["section": .int(section), "row": .int(row), "toSection": .int(toSection), "toRow": .int(toRow)]
        }
    }

    /// The trace's `value` of the `userAction` callback: the op and its fields.
    public var traceValue: JSONValue {
        var object = fields
        object["op"] = .string(name)
        return .object(object)
    }
}

extension UserAction {
    /// A `swipeRow` request's fields: `section`, `row`, `edge` (`trailing` or `leading`) and,
    /// when there, a non-empty `action`.
    static func swipeRow(from message: inout WireObject) throws(ProtocolError) -> UserAction {
        guard let edge = SwipeEdge(rawValue: try message.nonEmptyString("edge")) else {
            throw ProtocolError(.invalidParameters, "swipeRow: field \"edge\" must be \"trailing\" or \"leading\"")
        }
        let action = try message.optionalString("action")
        if action?.isEmpty == true {
            throw ProtocolError(.invalidParameters, "swipeRow: field \"action\" must not be empty")
        }
        return .swipeRow(
            section: try message.nonNegativeInteger("section"),
            row: try message.nonNegativeInteger("row"),
            edge: edge,
            action: action
        )
    }
}

extension UserAction {
    /// Why the action cannot be sent as it is (what the worker's decoder would refuse: a
    /// negative row or section, an empty name), nil when it can.
    public var parameterRefusal: String? {
        switch self {
        case .selectRow(let section, let row), .swipeRow(let section, let row, _, nil):
            guard row >= 0, section >= 0 else { return "\(name) needs a row and section of 0 or more" }
        case .moveRow(let section, let row, let toSection, let toRow):
            guard row >= 0, section >= 0, toRow >= 0, toSection >= 0 else {
                return "moveRow needs rows and sections of 0 or more"
            }
        case .swipeRow(let section, let row, _, let action?):
            guard row >= 0, section >= 0 else { return "\(name) needs a row and section of 0 or more" }
            guard !action.isEmpty else {
                return "swipeRow's action must not be empty (leave it out to swipe all the way)"
            }
        case .typeText(let field, _):
            guard !field.isEmpty else { return "typeText needs a field" }
        case .tapControl(let control):
            guard !control.isEmpty else { return "tapControl needs a control" }
        case .alertAction(let title):
            guard !title.isEmpty else { return "alertAction needs a title" }
        }
        return nil
    }
}

extension UserAction {
    /// A `moveRow` request's fields: `section`, `row`, `toSection`, `toRow`.
    static func moveRow(from message: inout WireObject) throws(ProtocolError) -> UserAction {
        .moveRow(
            section: try message.nonNegativeInteger("section"),
            row: try message.nonNegativeInteger("row"),
            toSection: try message.nonNegativeInteger("toSection"),
            toRow: try message.nonNegativeInteger("toRow")
        )
    }
}
