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
        guard isPlace(destination, forRowFrom: source) else {
            return "the table has no place \(destination.row) in section \(destination.section) to drop a row on"
        }
        return source == destination ? "row \(source.row) is already there" : nil
    }

    /// Whether a row from `source` can land at `destination`: a row of a section the table
    /// has, or the place after its last row in another section than its own.
    private func isPlace(_ destination: IndexPath, forRowFrom source: IndexPath) -> Bool {
        guard destination.section >= 0, destination.section < numberOfSections, destination.row >= 0 else {
            return false
        }
        let rows = numberOfRows(inSection: destination.section)
        return destination.row < rows + (destination.section == source.section ? 0 : 1)
    }

    /// The user dropped the row at `source` on `proposed`: the delegate may pick another
    /// place (one the table does not have counts as none), the table moves the row (its
    /// selection follows), then the data source's `tableView(_:moveRowAt:to:)` runs. False
    /// when the data source has none of its own (the standard one ran, which runs no app code,
    /// and no rows changed): its rows had no reorder control after all, and the selection is
    /// back where it was.
    func moveRowAsUser(from source: IndexPath, to proposed: IndexPath) -> Bool {
        guard let dataSource else { return false }
        var destination =
            delegate?.tableView(self, targetIndexPathForMoveFromRowAt: source, toProposedIndexPath: proposed)
            ?? proposed
        if !isPlace(destination, forRowFrom: source) { destination = proposed }
        let selection = indexPathForSelectedRow
        // The table moves the row itself, as UIKit's (the app does not call moveRow(at:to:)),
        // before the data source hears of it.
        let changes = rowChanges
        moveRow(at: source, to: destination)
        rowChanges = changes
        guard !runsAppImplementation({ dataSource.tableView(self, moveRowAt: source, to: destination) }) else {
            return true
        }
        indexPathForSelectedRow = selection
        return false
    }
}
