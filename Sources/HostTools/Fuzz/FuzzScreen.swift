import Protocol

/// What the user can do on the screen a visible tree shows: the rows of the frontmost
/// table, its fields, buttons and bar button items, the presented alert's actions.
struct FuzzScreen: Sendable {
    var rowCount = 0
    /// Whether the first table is editing: its rows can be dragged (`moveRow`).
    var tableEditing = false
    var fields: [String] = []
    var controls: [String] = []
    var alertActions: [String] = []
    var stackDepth = 0
    var presented: String?

    init(_ tree: JSONValue) {
        if case .array(let stack)? = tree["stack"] { stackDepth = stack.count }
        if case .string(let name)? = tree["presented"]?["vc"] { presented = name }
        let front: JSONValue?
        if let presented = tree["presented"] {
            front = presented
        } else if case .array(let stack)? = tree["stack"] {
            front = stack.last
        } else {
            front = nil
        }
        guard let front else { return }
        if case .array(let actions)? = front["actions"] {
            alertActions = actions.compactMap { action in
                guard action["enabled"] != .bool(false), case .string(let title)? = action["title"] else { return nil }
                return title
            }
        }
        for side in ["left", "right"] {
            guard case .array(let items)? = front["navigationItem"]?[side] else { continue }
            for item in items where item["enabled"] != .bool(false) {
                if case .string(let name)? = item["button"], !name.isEmpty { controls.append(name) }
            }
        }
        guard case .array(let views)? = front["views"] else { return }
        for view in views where view["enabled"] != .bool(false) {
            if case .string(let name)? = view["field"], !name.isEmpty { fields.append(name) }
            if case .string(let name)? = view["button"], !name.isEmpty { controls.append(name) }
            if rowCount == 0, case .array(let sections)? = view["table"],
                case .array(let rows)? = sections.first?["rows"]
            {
                rowCount = rows.count
                tableEditing = view["editing"] == .bool(true)
            }
        }
    }
}

extension JSONValue {
    /// What restoration must bring back of a visible tree: the stack's controllers and what
    /// they show, without what the app marked transient, the rows' selection, the activation
    /// state, what was presented (an alert or a sheet is not restored on iOS either), and
    /// the worker's count of timers left scheduled in the background.
    var restorable: JSONValue {
        guard case .object(var object) = withoutTransientViews else { return withoutTransientViews }
        object["state"] = nil
        object["backgroundTimers"] = nil
        object["presented"] = nil
        object["presentedBelow"] = nil
        return .object(object)
    }
}
