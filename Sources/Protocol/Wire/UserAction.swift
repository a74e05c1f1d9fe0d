/// What a user does with their hands on the frontmost screen (`selectRow`, `typeText`,
/// `tapControl`, `alertAction`): the host delivers it only while the scene is
/// `foregroundActive`, and the worker fails it, nothing changed, when the screen has no such
/// row, field, control or alert action.
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

    /// The operation's name on the wire, in scenarios and on the command line.
    public var name: String {
        switch self {
        case .selectRow: "selectRow"
        case .typeText: "typeText"
        case .tapControl: "tapControl"
        case .alertAction: "alertAction"
        }
    }

    /// The action's fields besides `op`, as the wire and the trace's `value` write them.
    public var fields: [String: JSONValue] {
        switch self {
        case .selectRow(let section, let row): ["section": .int(section), "row": .int(row)]
        case .typeText(let field, let text): ["field": .string(field), "text": .string(text)]
        case .tapControl(let control): ["control": .string(control)]
        case .alertAction(let title): ["title": .string(title)]
        }
    }

    /// The trace's `value` of the `userAction` callback: the op and its fields.
    public var traceValue: JSONValue {
        var object = fields
        object["op"] = .string(name)
        return .object(object)
    }
}
