/// A row's position in a table, as UIKit's `IndexPath(row:section:)`.
///
/// Foundation has an `IndexPath` too (without `row` and `section` on Linux): a file that
/// imports both Foundation and SceneWorker writes `SceneWorker.IndexPath`.
public struct IndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The row within its section.
    public var row: Int
    /// The section.
    public var section: Int

    /// The position of `row` in `section`.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `"[0, 2]"`, as UIKit prints it.
    public var description: String { "[\(section), \(row)]" }
}

/// A list screen, as `UITableViewController`: a controller whose `tableView` asks it for its
/// rows. Override the data-source and delegate methods as in UIKit.
@MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    /// The table, which is also the controller's view; its data source and delegate are this
    /// controller.
    public let tableView: UITableView

    /// A table controller identified as `restorationIdentifier` (its class's name when nil).
    public init(restorationIdentifier: String? = nil, style: UITableView.Style = .plain) {
        tableView = UITableView(style: style)
        super.init(restorationIdentifier: restorationIdentifier)
        tableView.dataSource = self
        tableView.delegate = self
    }

    /// A table controller of `style`, as UIKit's `init(style:)`.
    public convenience init(style: UITableView.Style) {
        self.init(restorationIdentifier: nil, style: style)
    }

    /// UIKit's designated initializer (see `UIViewController.init(nibName:bundle:)`).
    public override init(nibName: String?, bundle: NibBundle?) {
        tableView = UITableView(style: .plain)
        super.init(nibName: nibName, bundle: bundle)
        tableView.dataSource = self
        tableView.delegate = self
    }

    /// A table controller made the storyboard way, identified by its class's name.
    public required init?(coder: NSCoder) {
        tableView = UITableView(style: .plain)
        super.init(coder: coder)
        tableView.dataSource = self
        tableView.delegate = self
    }

    /// Whether the table's selection is cleared each time the controller is about to appear
    /// (in its `viewWillAppear(_:)`, which an override calls through `super`). Default: true,
    /// as UIKit's.
    public var clearsSelectionOnViewWillAppear = true

    /// The view is the table.
    open override func loadView() {
        view = tableView
    }

    /// Clears the table's selection when `clearsSelectionOnViewWillAppear` (a row tapped to
    /// push a detail screen is no longer selected when the list comes back), as UIKit's.
    open override func viewWillAppear(_ animated: Bool) {
        // An interactive swipe clears it only once it completes: a cancelled one, never.
        if clearsSelectionOnViewWillAppear, !isInCancelledSwipe, let selected = tableView.indexPathForSelectedRow {
            tableView.deselectRow(at: selected, animated: animated)
        }
    }

    /// Enters or leaves editing mode, the table with it, as UIKit's.
    open override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        tableView.setEditing(editing, animated: animated)
    }

    /// The number of sections. Default: 1.
    open func numberOfSections(in tableView: UITableView) -> Int { 1 }

    /// The number of rows in `section`. Default: 0.
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }

    /// The cell for the row at `indexPath`. Default: an empty cell.
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(reuseIdentifier: nil)
    }

    /// The header title of `section`. Default: nil.
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }

    /// Whether a touch highlights the row at `indexPath`; false: the tap selects nothing.
    /// Default: true.
    open func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }

    /// The row about to be selected by a tap: the row to select instead, or nil for none.
    /// Default: `indexPath`.
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }

    /// The row at `indexPath` was tapped. Default: nothing.
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}

    /// The row at `indexPath` was deselected (another row was tapped). Default: nothing.
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}

    /// The footer title of `section`. Default: nil.
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }

    /// Whether the row at `indexPath` can be edited (swiped). Default: true.
    open func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }

    /// The user tapped the standard Delete of the row at `indexPath` (`swipeRow`). Override it
    /// to offer that Delete, as in UIKit: the base implementation offers none.
    open func tableView(
        _ tableView: UITableView,
        commit editingStyle: UITableViewCell.EditingStyle,
        forRowAt indexPath: IndexPath
    ) {
        tableView.standardEditingMethodRan = true
    }

    /// The actions a swipe to the left reveals; nil for the standard Delete. Default: nil.
    open func tableView(
        _ tableView: UITableView,
        trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? { nil }

    /// The actions a swipe to the right reveals; nil for none. Default: nil.
    open func tableView(
        _ tableView: UITableView,
        leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? { nil }

    /// The row's editing style: `.delete` offers the standard Delete. Default: `.delete`.
    open func tableView(
        _ tableView: UITableView,
        editingStyleForRowAt indexPath: IndexPath
    ) -> UITableViewCell.EditingStyle { .delete }

    /// The title of the row's standard Delete. Default: nil (`"Delete"`).
    open func tableView(
        _ tableView: UITableView,
        titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath
    ) -> String? { nil }

    /// Whether the row at `indexPath` shows a reorder control while editing. Default: true.
    open func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }

    /// The user dragged a row to another place (`moveRow`). Override it to offer reordering,
    /// as in UIKit: the base implementation offers none.
    open func tableView(
        _ tableView: UITableView,
        moveRowAt sourceIndexPath: IndexPath,
        to destinationIndexPath: IndexPath
    ) {
        tableView.standardEditingMethodRan = true
    }

    /// Where a dragged row lands instead of where the user drops it. Default: where it is dropped.
    open func tableView(
        _ tableView: UITableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath { proposedDestinationIndexPath }

    /// A swipe opened the row at `indexPath`, right before its action runs. Default: nothing.
    open func tableView(_ tableView: UITableView, willBeginEditingRowAt indexPath: IndexPath) {}

    /// The swiped row closed, right after its action ran. Default: nothing.
    open func tableView(_ tableView: UITableView, didEndEditingRowAt indexPath: IndexPath?) {}
}
