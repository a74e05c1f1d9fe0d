extension UITableView {
    /// Why the row at `source` cannot be dragged to `destination` by its reorder control, as
    /// UIKit decides it; nil when it can. (Whether the data source implements
    /// `tableView(_:moveRowAt:to:)` is known only by calling it: `moveRowAsUser`.)
    func reorderRefusal(from source: IndexPath, to destination: IndexPath) -> String? {
        guard isEditing else {
            return "the table is not editing, so its rows show no reorder control "
                + "(setEditing(true, animated:), or an editButtonItem the user taps)"
        }
        guard let dataSource, dataSource.tableView(self, canMoveRowAt: source) else {
            return "the data source's tableView(_:canMoveRowAt:) says row \(source.row) cannot move"
        }
        // A row may land after the last row of another section, not of its own.
        let ownSection = destination.section == source.section
        let rows = numberOfRows(inSection: destination.section)
        guard destination.section >= 0, destination.section < numberOfSections, destination.row >= 0,
            destination.row < rows + (ownSection ? 0 : 1)
        else {
            return "the table has no place \(destination.row) in section \(destination.section) to drop a row on"
        }
        return source == destination ? "row \(source.row) is already there" : nil
    }

    /// The user dropped the row at `source` on `proposed`: the delegate may pick another
    /// place, the table moves the row (its selection follows), then the data source's
    /// `tableView(_:moveRowAt:to:)` runs. False when the data source has none of its own (the
    /// standard one ran, which runs no app code): its rows had no reorder control after all.
    func moveRowAsUser(from source: IndexPath, to proposed: IndexPath) -> Bool {
        guard let dataSource else { return false }
        let destination =
            delegate?.tableView(self, targetIndexPathForMoveFromRowAt: source, toProposedIndexPath: proposed)
            ?? proposed
        let selection = indexPathForSelectedRow
        commitIsUnimplemented = false
        dataSource.tableView(self, moveRowAt: source, to: destination)
        defer { commitIsUnimplemented = false }
        guard !commitIsUnimplemented else { return false }
        // The table moved the row itself, as UIKit's: the app does not call moveRow(at:to:).
        indexPathForSelectedRow = selection
        let changes = rowChanges
        moveRow(at: source, to: destination)
        rowChanges = changes
        return true
    }
}
