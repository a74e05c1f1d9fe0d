import Protocol

/// What a user sees of a scene, as JSON (`inspect`): the navigation stack's controllers
/// (root first; the last is on screen unless something is presented over it), the presented
/// controller, the tab bar, and in each controller its title, bar button items and the
/// visible views that carry content: labels, fields, buttons, tables with their rows.
///
/// The tree is deterministic (object keys sorted, arrays in view order), so two trees of
/// the same screen compare equal: `hostctl fuzz` compares the tree a user left with the one
/// restoration brings back. A view whose `accessibilityIdentifier` ends in `.transient` is
/// shown with `"transient": true`: what the app declares restoration need not bring back.
@MainActor
enum VisibleTree {
    /// Texts longer than this many characters are cut (with "…"): a reply must fit a frame.
    static let maximumTextCharacters = 256
    /// At most this many views of one controller are shown.
    static let maximumViews = 500
    /// A tree whose JSON is larger than this is replaced by its controllers alone, marked
    /// `"truncated": true`: the reply must fit the frame limit whatever the app shows.
    static let maximumTreeBytes = FrameLimits.defaultMaximumFrameSize / 2

    /// The tree of `scene` in `state`, within `maximumTreeBytes`.
    static func bounded(_ scene: Scene?, state: ActivationState) -> JSONValue {
        let tree = of(scene, state: state)
        var bytes: [UInt8] = []
        JSONWriter.write(tree, into: &bytes)
        guard bytes.count > maximumTreeBytes else { return tree }
        var outline: [String: JSONValue] = ["state": .string(state.rawValue), "truncated": true]
        if let scene {
            outline["stack"] = .array(
                scene.window.navigationStack.viewControllers.prefix(SceneLimits.maximumStackDepth).map {
                    .object(["vc": .string($0.restorationIdentifier)])
                }
            )
        }
        return .object(outline)
    }

    /// `text`, cut to `maximumTextCharacters`.
    private static func shown(_ text: String) -> JSONValue {
        guard text.count > maximumTextCharacters else { return .string(text) }
        return .string(String(text.prefix(maximumTextCharacters)) + "…")
    }

    /// The tree of `scene` in `state`.
    static func of(_ scene: Scene?, state: ActivationState) -> JSONValue {
        var tree: [String: JSONValue] = ["state": .string(state.rawValue)]
        guard let scene else { return .object(tree) }
        let navigation = scene.window.navigationStack
        // Below the top a user sees nothing but the back button's title: the identity and
        // the title are shown, not the views (those load and update when they appear).
        tree["stack"] = .array(
            navigation.viewControllers.enumerated().map { index, shown in
                index == navigation.viewControllers.count - 1 ? controller(shown) : covered(shown)
            }
        )
        // The frontmost presented controller in full; those it covers (a sheet over a sheet)
        // by identity and title, as the stack's covered ones.
        let chain = navigation.presentedChain
        if let presented = chain.last {
            tree["presented"] = controller(presented)
        }
        if chain.count > 1 {
            tree["presentedBelow"] = .array(chain.dropLast().map(covered))
        }
        if let tabBar = scene.window.tabBarController {
            tree["tabs"] = .object([
                "selected": .int(tabBar.selectedIndex),
                "titles": .array(tabBar.tabTitles.map(shown)),
            ])
        }
        return .object(tree)
    }

    /// A controller under the top of the stack: its identity and title.
    static func covered(_ controller: UIViewController) -> JSONValue {
        var object: [String: JSONValue] = ["vc": .string(controller.restorationIdentifier)]
        if let title = controller.title { object["title"] = shown(title) }
        return .object(object)
    }

    /// One controller: identity, title, navigation item, views, children, what it presents.
    static func controller(_ controller: UIViewController) -> JSONValue {
        var object: [String: JSONValue] = ["vc": .string(controller.restorationIdentifier)]
        if let title = controller.title { object["title"] = shown(title) }
        let item = controller.navigationItem
        if controller.showsNavigationBar, item.title != nil || !item.allItems.isEmpty {
            var bar: [String: JSONValue] = [:]
            if let title = item.title { bar["title"] = shown(title) }
            if let left = item.leftBarButtonItems, !left.isEmpty { bar["left"] = .array(left.map(barButton)) }
            if let right = item.rightBarButtonItems, !right.isEmpty { bar["right"] = .array(right.map(barButton)) }
            object["navigationItem"] = .object(bar)
        }
        if let alert = controller as? UIAlertController {
            if let message = alert.message { object["message"] = shown(message) }
            object["actions"] = .array(
                alert.actions.map { action in
                    var entry: [String: JSONValue] = ["title": shown(action.title ?? "")]
                    if !action.isEnabled { entry["enabled"] = .bool(false) }
                    return .object(entry)
                }
            )
        }
        if let view = controller.loadedView {
            let views = content(of: view)
            if !views.isEmpty { object["views"] = .array(Array(views.prefix(maximumViews))) }
        }
        if !controller.children.isEmpty {
            object["children"] = .array(controller.children.map { self.controller($0) })
        }
        return .object(object)
    }

    /// The content-bearing views under `view`, depth first; containers are flattened.
    private static func content(of view: View) -> [JSONValue] {
        guard !view.isHidden else { return [] }
        var entries: [JSONValue] = []
        if let entry = describe(view) { entries.append(entry) }
        // A table's cells are its rows, not subviews; a cell's labels are its row.
        if view is UITableView || view is UITableViewCell { return entries }
        // A child controller's view added to its parent's is listed under the child, once (a
        // removed child's left behind is its old parent's).
        for subview in view.subviewsInVisibleOrder where subview.owner?.parent == nil {
            entries += content(of: subview)
        }
        return entries
    }

    private static func describe(_ view: View) -> JSONValue? {
        var object: [String: JSONValue] = [:]
        switch view {
        case let field as UITextField:
            object["field"] = shown(field.accessibilityIdentifier ?? field.placeholder ?? "")
            let text = field.text ?? ""
            object["text"] =
                field.isSecureTextEntry ? shown(String(repeating: "•", count: min(text.count, 64))) : shown(text)
            if let placeholder = field.placeholder { object["placeholder"] = shown(placeholder) }
            if !field.isEnabled { object["enabled"] = .bool(false) }
            // The field the keyboard types into (its window's first responder).
            if field.isEditing { object["editing"] = .bool(true) }
        case let button as UIButton:
            object["button"] = shown(button.currentTitle ?? button.currentImage?.name ?? "")
            if !button.isEnabled { object["enabled"] = .bool(false) }
        case let label as UILabel:
            object["label"] = shown(label.text ?? "")
        case let table as UITableView:
            object["table"] = .array(sections(of: table))
            if table.isEditing { object["editing"] = .bool(true) }
        default:
            return nil
        }
        if let identifier = view.accessibilityIdentifier {
            object["identifier"] = shown(identifier)
            if identifier.hasSuffix(".transient") { object["transient"] = .bool(true) }
        }
        return .object(object)
    }

    private static func sections(of table: UITableView) -> [JSONValue] {
        var rowsLeft = UITableView.maximumVisibleRows
        var sections: [JSONValue] = []
        for section in 0..<table.numberOfSections {
            var rows: [JSONValue] = []
            for row in 0..<table.numberOfRows(inSection: section) where rowsLeft > 0 {
                rowsLeft -= 1
                guard let cell = table.cellForRow(at: IndexPath(row: row, section: section)) else { continue }
                var entry: [String: JSONValue] = ["text": shown(cell.shownText ?? "")]
                if let detail = cell.shownSecondaryText, !detail.isEmpty { entry["detail"] = shown(detail) }
                if cell.accessoryType == .checkmark { entry["checked"] = .bool(true) }
                if table.indexPathForSelectedRow == IndexPath(row: row, section: section) {
                    entry["selected"] = .bool(true)
                }
                rows.append(.object(entry))
            }
            var entry: [String: JSONValue] = ["rows": .array(rows)]
            if let header = table.dataSource?.tableView(table, titleForHeaderInSection: section) {
                entry["header"] = shown(header)
            }
            if let footer = table.dataSource?.tableView(table, titleForFooterInSection: section) {
                entry["footer"] = shown(footer)
            }
            sections.append(.object(entry))
        }
        return sections
    }

    private static func barButton(_ item: UIBarButtonItem) -> JSONValue {
        var object: [String: JSONValue] = ["button": shown(item.names.first ?? "")]
        if !item.isEnabled { object["enabled"] = .bool(false) }
        if let identifier = item.accessibilityIdentifier { object["identifier"] = shown(identifier) }
        if item.isEditButton { object["edit"] = .bool(true) }
        return .object(object)
    }
}
