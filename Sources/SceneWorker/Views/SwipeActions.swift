import Dispatch
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

    /// The name a user's `swipeRow` taps it by: its title, else (none, or empty) its image's name.
    var shownName: String? { title.flatMap { $0.isEmpty ? nil : $0 } ?? image?.name }
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
    // keep the selection on the row it was on, as UIKit does; inside a batch, as UIKit reads
    // them: the deletions at the rows' old positions, then the insertions at their new ones,
    // whatever order the app called them in.

    /// The rows at `indexPaths` went from the data source: a selected one is deselected,
    /// one below them in its section moves up.
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        rowChanges &+= 1
        guard rowUpdates == nil else {
            rowUpdates!.deleted += indexPaths
            return
        }
        indexPathForSelectedRow = indexPathForSelectedRow.flatMap { Self.position(of: $0, deleting: indexPaths) }
    }

    /// Rows were added to the data source at `indexPaths`: a selected row below them in its
    /// section moves down.
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        rowChanges &+= 1
        guard rowUpdates == nil else {
            rowUpdates!.inserted += indexPaths
            return
        }
        indexPathForSelectedRow = indexPathForSelectedRow.map { Self.position(of: $0, inserting: indexPaths) }
    }

    /// The rows at `indexPaths` changed: they are read again when next shown (always); a
    /// selected one is deselected, as UIKit's.
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        rowChanges &+= 1
        if let selected = indexPathForSelectedRow, indexPaths.contains(selected) { indexPathForSelectedRow = nil }
    }

    /// The row at `indexPath` moved to `newIndexPath` in the data source: the selection
    /// follows it, or the rows between shift under it.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        rowChanges &+= 1
        guard rowUpdates == nil else {
            rowUpdates!.moved.append((indexPath, newIndexPath))
            return
        }
        indexPathForSelectedRow = indexPathForSelectedRow.map { selected in
            guard selected != indexPath else { return newIndexPath }
            let remaining = Self.position(of: selected, deleting: [indexPath]) ?? selected
            return Self.position(of: remaining, inserting: [newIndexPath])
        }
    }

    /// Runs `updates` (row insertions, deletions and moves) as one batch, then
    /// `completion(true)` on the main queue, as UIKit calls it once the animations end.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        beginUpdates()
        updates?()
        endUpdates()
        if let completion {
            let finish = UncheckedCompletion(completion)
            DispatchQueue.main.async { MainActor.assumeIsolated { finish.body(true) } }
        }
    }

    /// Begins a batch of row changes, applied together at `endUpdates()`.
    public func beginUpdates() {
        rowUpdateDepth += 1
        if rowUpdates == nil { rowUpdates = RowUpdates() }
    }

    /// Ends a batch begun by `beginUpdates()`: its deletions, moves and insertions apply.
    public func endUpdates() {
        guard rowUpdateDepth > 0 else { return }
        rowUpdateDepth -= 1
        guard rowUpdateDepth == 0, let batch = rowUpdates else { return }
        rowUpdates = nil
        guard var selected = indexPathForSelectedRow else { return }
        if let move = batch.moved.first(where: { $0.from == selected }) {
            indexPathForSelectedRow = move.to
            return
        }
        let gone = batch.deleted + batch.moved.map(\.from)
        guard let remaining = Self.position(of: selected, deleting: gone) else {
            indexPathForSelectedRow = nil
            return
        }
        selected = Self.position(of: remaining, inserting: batch.inserted + batch.moved.map(\.to))
        indexPathForSelectedRow = selected
    }

    /// Where the row at `row` is once the rows at `deleted` went: nil when it is one of them.
    static func position(of row: IndexPath, deleting deleted: [IndexPath]) -> IndexPath? {
        let unique = Set(deleted)
        guard !unique.contains(row) else { return nil }
        let above = unique.filter { $0.section == row.section && $0.row < row.row }.count
        return IndexPath(row: row.row - above, section: row.section)
    }

    /// Where the row at `row` is once rows are inserted at `inserted` (their new positions).
    static func position(of row: IndexPath, inserting inserted: [IndexPath]) -> IndexPath {
        var moved = row
        for position in Set(inserted).sorted() where position.section == moved.section && position.row <= moved.row {
            moved.row += 1
        }
        return moved
    }

    /// What a swipe from `edge` reveals on the row at `indexPath`, asking the delegate and the
    /// data source as UIKit does when the swipe begins.
    func swipeActions(at indexPath: IndexPath, edge: UserAction.SwipeEdge) -> SwipeActions {
        guard dataSource?.tableView(self, canEditRowAt: indexPath) ?? false else {
            return .none("the data source's tableView(_:canEditRowAt:) says the row cannot be edited")
        }
        if isEditing {
            // Editing mode swipes nothing: a row's delete control, shown for the `.delete`
            // style, reveals its trailing actions.
            guard edge == .trailing else { return .none("the table is editing: rows show delete controls, not swipes") }
            let style = delegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete
            guard style == .delete else { return .none("the table is editing and the row's editing style is \(style)") }
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

    /// Runs `action` with the row at `indexPath` open, as a swipe does: the table edits (unless
    /// it already did, in editing mode) between the delegate's `willBeginEditingRowAt` and
    /// `didEndEditingRowAt`.
    func swipeEditing(_ indexPath: IndexPath, _ action: () -> Void) {
        // In editing mode the row's delete control opened it: no swipe began, and none ends.
        guard !isEditing else {
            action()
            return
        }
        isEditing = true
        delegate?.tableView(self, willBeginEditingRowAt: indexPath)
        action()
        isEditing = false
        delegate?.tableView(self, didEndEditingRowAt: indexPath)
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
    /// (the standard one ran, which does nothing, and no rows changed): the row offered no
    /// Delete after all.
    func commitDeleteAsUser(at indexPath: IndexPath) -> Bool {
        guard let dataSource else { return false }
        return runsAppImplementation { dataSource.tableView(self, commit: .delete, forRowAt: indexPath) }
    }
}

/// The changes of a batch (`beginUpdates()`…`endUpdates()`), applied together at its end.
struct RowUpdates {
    var deleted: [IndexPath] = []
    var inserted: [IndexPath] = []
    var moved: [(from: IndexPath, to: IndexPath)] = []
}

/// A batch's completion handed to the main queue (it runs there, on the main actor).
private struct UncheckedCompletion: @unchecked Sendable {
    let body: (Bool) -> Void
    init(_ body: @escaping (Bool) -> Void) { self.body = body }
}
