import Protocol

/// A user's hands on the frontmost screen (`selectRow`, `typeText`, `tapControl`,
/// `alertAction`, `swipeRow`, `moveRow`). Each finds its target first and fails, nothing reported and nothing
/// changed, when the screen has none; then it reports `userAction` and runs the app's code,
/// whose navigation follows as the app's own changes.
extension WorkerSession {
    func performUserAction(_ action: UserAction) throws(ProtocolError) {
        guard let frontmost = frontmostController else {
            throw ProtocolError(.operationFailed, "nothing is on screen")
        }
        switch action {
        case .selectRow(let section, let row):
            let indexPath = IndexPath(row: row, section: section)
            let table = try Self.table(in: frontmost, showing: indexPath)
            guard !table.isEditing || table.allowsSelectionDuringEditing else {
                throw ProtocolError(
                    .operationFailed,
                    "\(frontmost.restorationIdentifier)'s table is editing: a tap selects no row "
                        + "(allowsSelectionDuringEditing is false)"
                )
            }
            report(action)
            table.selectRowAsTapped(at: indexPath)
        case .swipeRow(let section, let row, let edge, let title):
            try swipe(IndexPath(row: row, section: section), from: edge, tapping: title, in: frontmost, as: action)
        case .moveRow(let section, let row, let toSection, let toRow):
            let source = IndexPath(row: row, section: section)
            let table = try Self.table(in: frontmost, showing: source)
            if let refusal = table.reorderRefusal(from: source, to: IndexPath(row: toRow, section: toSection)) {
                throw ProtocolError(
                    .operationFailed,
                    "\(frontmost.restorationIdentifier)'s row cannot move: \(refusal)"
                )
            }
            report(action)
            // The data source has no `tableView(_:moveRowAt:to:)` of its own: UIKit shows no
            // reorder control, so there was nothing to drag (the report is taken back).
            if !table.moveRowAsUser(from: source, to: IndexPath(row: toRow, section: toSection)),
                sink.retractLastCallback(.userAction)
            {
                throw ProtocolError(
                    .operationFailed,
                    "\(frontmost.restorationIdentifier)'s rows show no reorder control: the data source does not "
                        + "implement tableView(_:moveRowAt:to:)"
                )
            }
        case .typeText(let name, let text):
            let fields = Self.views(in: frontmost).compactMap { $0 as? UITextField }
            guard let field = fields.first(where: { $0.accessibilityIdentifier == name || $0.placeholder == name })
            else {
                throw ProtocolError(
                    .operationFailed,
                    "\(frontmost.restorationIdentifier) has no field \(quoted(name, limit: 80))"
                        + Self.choices(fields.map { $0.accessibilityIdentifier ?? $0.placeholder ?? "" })
                )
            }
            guard field.isEnabled else {
                throw ProtocolError(.operationFailed, "the field \(quoted(name, limit: 80)) is disabled")
            }
            report(action)
            field.typeAsUser(text)
        case .tapControl(let name):
            let items = frontmost.showsNavigationBar ? frontmost.navigationItem.allItems : []
            let buttons = Self.views(in: frontmost).compactMap { $0 as? UIButton }
            if let item = items.first(where: { $0.names.contains(name) }) {
                guard item.isEnabled else {
                    throw ProtocolError(.operationFailed, "the bar button item \(quoted(name, limit: 80)) is disabled")
                }
                report(action)
                item.tapAsUser()
            } else if let button = buttons.first(where: {
                $0.currentTitle == name || $0.accessibilityIdentifier == name
            }) {
                guard button.isEnabled else {
                    throw ProtocolError(.operationFailed, "the button \(quoted(name, limit: 80)) is disabled")
                }
                report(action)
                button.tapAsUser()
            } else {
                let names = items.compactMap { $0.names.first } + buttons.map { $0.currentTitle ?? "" }
                throw ProtocolError(
                    .operationFailed,
                    "\(frontmost.restorationIdentifier) has no control \(quoted(name, limit: 80))" + Self.choices(names)
                )
            }
        case .alertAction(let title):
            guard let alert = frontmost as? UIAlertController else {
                // A client's `present --style alert` shows a plain controller in the alert's
                // place: it has no actions to tap, only an alert the app made has.
                let presented = frontmost.presentingViewController != nil
                throw ProtocolError(
                    .operationFailed,
                    presented
                        ? "\(frontmost.restorationIdentifier) is presented, but it is no UIAlertController: only an alert the app presents has actions to tap"
                        : "no alert is presented"
                )
            }
            guard let chosen = alert.actions.first(where: { $0.title == title }), chosen.isEnabled else {
                throw ProtocolError(
                    .operationFailed,
                    "the alert has no enabled action \(quoted(title, limit: 80))"
                        + Self.choices(alert.actions.filter(\.isEnabled).compactMap(\.title))
                )
            }
            report(action)
            // As UIKit: the alert goes, then the handler runs.
            alert.dismiss(animated: true) { chosen.handler?(chosen) }
        }
    }

    /// The frontmost controller's first table, which must have a row at `indexPath`.
    private static func table(
        in frontmost: UIViewController,
        showing indexPath: IndexPath
    ) throws(ProtocolError)
        -> UITableView
    {
        guard let table = tables(in: frontmost).first else {
            throw ProtocolError(.operationFailed, "\(frontmost.restorationIdentifier) shows no table")
        }
        guard table.contains(indexPath) else {
            throw ProtocolError(
                .operationFailed,
                "\(frontmost.restorationIdentifier)'s table has no row \(indexPath.row) in section \(indexPath.section)"
            )
        }
        return table
    }

    /// A swipe on the row at `indexPath` from `edge`, then a tap on the action named `title`
    /// (nil: a full swipe, which performs the first action). The delegate and data source are
    /// asked what the swipe reveals first, as UIKit asks when a swipe begins; `userAction` is
    /// the tap, reported before the action's code runs.
    private func swipe(
        _ indexPath: IndexPath,
        from edge: UserAction.SwipeEdge,
        tapping title: String?,
        in frontmost: UIViewController,
        as action: UserAction
    ) throws(ProtocolError) {
        let table = try Self.table(in: frontmost, showing: indexPath)
        let row = "row \(indexPath.row) of section \(indexPath.section)"
        switch table.swipeActions(at: indexPath, edge: edge) {
        case .none(let reason):
            throw ProtocolError(.operationFailed, "a \(edge) swipe on \(row) reveals no actions: \(reason)")
        case .configured(let configuration):
            let names = configuration.actions.map { $0.shownName ?? "" }
            let chosen: UIContextualAction
            if let title {
                guard let named = configuration.actions.first(where: { $0.shownName == title }) else {
                    throw ProtocolError(
                        .operationFailed,
                        "a \(edge) swipe on \(row) reveals no action \(quoted(title, limit: 80))" + Self.choices(names)
                    )
                }
                chosen = named
            } else {
                guard let first = configuration.actions.first else {
                    throw ProtocolError(
                        .operationFailed,
                        "a \(edge) swipe on \(row) reveals no actions (an empty configuration)"
                    )
                }
                guard configuration.performsFirstActionWithFullSwipe else {
                    throw ProtocolError(
                        .operationFailed,
                        "a full swipe on \(row) performs nothing (performsFirstActionWithFullSwipe is false): "
                            + "name the action to tap" + Self.choices(names)
                    )
                }
                chosen = first
            }
            report(action)
            table.swipeEditing(indexPath) {
                let source: View = table.cellForRow(at: indexPath) ?? table
                chosen.handler(chosen, source) { _ in }
            }
        case .standardDelete(let deleteTitle):
            guard title == nil || title == deleteTitle else {
                throw ProtocolError(
                    .operationFailed,
                    "a trailing swipe on \(row) reveals no action \(quoted(title ?? "", limit: 80)): at most the "
                        + "standard \(quoted(deleteTitle, limit: 80))"
                )
            }
            report(action)
            var committed = false
            table.swipeEditing(indexPath) { committed = table.commitDeleteAsUser(at: indexPath) }
            // The data source has no `tableView(_:commit:forRowAt:)` of its own (the standard
            // one ran, and no rows changed): UIKit shows no Delete, so there was nothing to tap.
            // The report is taken back unless the app's code reported something since (its
            // editing callbacks, the one code that ran: they then stand, and so does the swipe).
            if !committed, sink.retractLastCallback(.userAction) {
                throw ProtocolError(
                    .operationFailed,
                    "a trailing swipe on \(row) reveals no actions: the data source implements neither "
                        + "tableView(_:commit:forRowAt:) nor, in the delegate, "
                        + "tableView(_:trailingSwipeActionsConfigurationForRowAt:) (a subclass's commit is "
                        + "not seen when only its superclass conforms to UITableViewDataSource)"
                )
            }
        }
    }

    private func report(_ action: UserAction) {
        sink.report(CallbackEvent(.userAction, value: action.traceValue))
    }

    /// `"; it has \"A\", \"B\""`, or nothing for no names (each cut short: the failure
    /// must fit a frame whatever the app named them).
    private static func choices(_ names: [String]) -> String {
        let shown = names.filter { !$0.isEmpty }.prefix(8).map { quoted($0, limit: 80) }
        return shown.isEmpty ? "" : "; it has " + shown.joined(separator: ", ")
    }

    /// Every visible view of `controller` and of its children, depth first.
    static func views(in controller: UIViewController) -> [View] {
        (controller.loadedView?.visibleDescendants ?? []) + controller.children.flatMap { views(in: $0) }
    }

    /// The tables `controller` shows (a table controller's own first).
    static func tables(in controller: UIViewController) -> [UITableView] {
        views(in: controller).compactMap { $0 as? UITableView }
    }
}
