extension JSONValue {
    /// A visible tree (`inspect`'s) without what the app declared transient: every object
    /// marked `"transient": true` (a view whose accessibility identifier ends in
    /// `.transient`) is left out, and a row's `selected` mark too (selection is not restored
    /// on iOS either), and so is editing mode (a table's `editing` mark; an edit button, marked
    /// `"edit": true`, reads "Edit"). A tab bar's selected tab (`"tabs": {"selected": 1}`, a number) stays:
    /// a wrong tab restored is a wrong screen. Two trees of the same screen compare equal
    /// after this.
    public var withoutTransientViews: JSONValue {
        switch self {
        case .array(let items):
            return .array(
                items.compactMap { item in
                    if case .object(let object) = item, object["transient"] == .bool(true) { return nil }
                    return item.withoutTransientViews
                }
            )
        case .object(let object):
            var kept: [String: JSONValue] = [:]
            for (key, value) in object {
                if key == "selected" || key == "editing", case .bool = value { continue }
                if key == "button", object["edit"] == .bool(true) {
                    kept[key] = "Edit"
                    continue
                }
                if case .object(let child) = value, child["transient"] == .bool(true) { continue }
                kept[key] = value.withoutTransientViews
            }
            return .object(kept)
        default:
            return self
        }
    }
}
