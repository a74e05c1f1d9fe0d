import Protocol

/// An action a swipe on a table row reveals, as `UIContextualAction`: the user taps it
/// (`swipeRow`) and its handler runs.
@MainActor
open class UIContextualAction {
    /// How the action looks, as `UIContextualAction.Style` (nothing is drawn; kept for the app).
    public enum Style: Sendable, Hashable {
        case normal, destructive
    }

    /// What runs when the user taps the action: the action, the view that showed it (the
    /// row's cell), and the handler to call once done (`true`: the action was performed).
    public typealias Handler = @MainActor (UIContextualAction, View, @escaping (Bool) -> Void) -> Void

    /// The action's style.
    public let style: Style
    /// The title the user taps (`swipeRow`'s `action`).
    public var title: String?
    /// The action's color (nothing is drawn).
    public var backgroundColor: UIColor!
    /// The action's image (nothing is drawn); an action without a title is tapped by its name.
    public var image: UIImage?
    /// The handler, as given.
    public let handler: Handler

    /// An action titled `title` that runs `handler` when tapped.
    public init(style: Style, title: String?, handler: @escaping Handler) {
        self.style = style
        self.title = title
        self.handler = handler
    }

    /// The name a user's `swipeRow` taps it by: its title, else its image's name.
    var shownName: String? { title ?? image?.name }
}

/// The actions a swipe on a table row reveals, as `UISwipeActionsConfiguration`.
@MainActor
open class UISwipeActionsConfiguration {
    /// The actions, the first nearest the edge the swipe starts from.
    public let actions: [UIContextualAction]
    /// Whether swiping all the way performs the first action (`swipeRow` without an `action`).
    public var performsFirstActionWithFullSwipe = true

    /// A configuration of `actions`.
    public init(actions: [UIContextualAction]) {
        self.actions = actions
    }
}

extension UITableViewCell {
    /// A row's editing style, as `UITableViewCell.EditingStyle`: `.delete` offers the
    /// standard Delete on a swipe.
    public enum EditingStyle: Sendable, Hashable {
        case none, delete, insert
    }
}

extension UITableView {
    /// How rows change on screen, as `UITableView.RowAnimation` (nothing is animated).
    public enum RowAnimation: Sendable, Hashable {
        case fade, right, left, top, bottom, none, middle, automatic
    }

    // Nothing is cached (the rows are read from the data source each time), so these only
    // keep the selection on the row it was on, as UIKit does.

    /// The rows at `indexPaths` went from the data source: a selected one is deselected,
    /// one below them in its section moves up.
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        guard let selected = indexPathForSelectedRow else { return }
        if indexPaths.contains(selected) {
            indexPathForSelectedRow = nil
        } else {
            let above = indexPaths.filter { $0.section == selected.section && $0.row < selected.row }.count
            indexPathForSelectedRow = IndexPath(row: selected.row - above, section: selected.section)
        }
    }

    /// Rows were added to the data source at `indexPaths`: a selected row below them in its
    /// section moves down.
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        guard var selected = indexPathForSelectedRow else { return }
        for inserted in indexPaths.sorted() where inserted.section == selected.section && inserted.row <= selected.row {
            selected.row += 1
        }
        indexPathForSelectedRow = selected
    }

    /// The rows at `indexPaths` changed: they are read again when next shown (always).
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}

    /// The row at `indexPath` moved to `newIndexPath` in the data source: the selection follows it.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        if indexPathForSelectedRow == indexPath { indexPathForSelectedRow = newIndexPath }
    }

    /// Runs `updates` (row insertions and deletions), then `completion(true)`: nothing animates.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        completion?(true)
    }

    /// Begins a group of row changes (nothing animates, so nothing waits for `endUpdates()`).
    public func beginUpdates() {}

    /// Ends a group of row changes begun by `beginUpdates()`.
    public func endUpdates() {}

    /// What a swipe from `edge` reveals on the row at `indexPath`, asking the delegate and the
    /// data source as UIKit does when the swipe begins.
    func swipeActions(at indexPath: IndexPath, edge: UserAction.SwipeEdge) -> SwipeActions {
        guard dataSource?.tableView(self, canEditRowAt: indexPath) ?? false else {
            return .none("the data source's tableView(_:canEditRowAt:) says the row cannot be edited")
        }
        switch edge {
        case .leading:
            guard let configuration = delegate?.tableView(self, leadingSwipeActionsConfigurationForRowAt: indexPath)
            else {
                return .none("the delegate's tableView(_:leadingSwipeActionsConfigurationForRowAt:) offers none")
            }
            return .configured(configuration)
        case .trailing:
            if let configuration = delegate?.tableView(self, trailingSwipeActionsConfigurationForRowAt: indexPath) {
                return .configured(configuration)
            }
            let style = delegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete
            guard style == .delete else {
                return .none("the row's editing style is \(style), not .delete")
            }
            let title = delegate?.tableView(self, titleForDeleteConfirmationButtonForRowAt: indexPath) ?? "Delete"
            return .standardDelete(title: title)
        }
    }

    /// What a swipe reveals on a row.
    enum SwipeActions {
        /// The actions of the delegate's configuration.
        case configured(UISwipeActionsConfiguration)
        /// UIKit's standard Delete, titled `title`: offered when the data source implements
        /// `tableView(_:commit:forRowAt:)`, which tapping it calls.
        case standardDelete(title: String)
        /// None, and why.
        case none(String)
    }

    /// The user tapped the standard Delete of the row at `indexPath`: the data source's
    /// `tableView(_:commit:forRowAt:)` runs. False when the data source has none of its own
    /// (the standard one ran, which does nothing): the row offered no Delete after all.
    func commitDeleteAsUser(at indexPath: IndexPath) -> Bool {
        guard let dataSource else { return false }
        commitIsUnimplemented = false
        dataSource.tableView(self, commit: .delete, forRowAt: indexPath)
        defer { commitIsUnimplemented = false }
        return !commitIsUnimplemented
    }
}
