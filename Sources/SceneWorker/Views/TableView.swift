/// Where a table gets its rows, as `UITableViewDataSource`.
@MainActor
public protocol UITableViewDataSource: AnyObject {
    /// The number of sections. Default: 1.
    func numberOfSections(in tableView: UITableView) -> Int
    /// The number of rows in `section`.
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for the row at `indexPath`.
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    /// The header title of `section`. Default: nil.
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
    /// The footer title of `section`. Default: nil.
    func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String?
    /// Whether the row at `indexPath` can be edited: a row that cannot shows no swipe actions.
    /// Default: true.
    func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool
    /// The user confirmed `editingStyle` on the row at `indexPath`: tapped its swipe's
    /// standard Delete (`swipeRow`). Update your data, then `deleteRows(at:with:)`. A data
    /// source that does not implement it offers no standard Delete, as in UIKit.
    func tableView(
        _ tableView: UITableView,
        commit editingStyle: UITableViewCell.EditingStyle,
        forRowAt indexPath: IndexPath
    )
    /// Whether the row at `indexPath` shows a reorder control while editing. Default: true.
    func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool
    /// The user dragged the row at `sourceIndexPath` to `destinationIndexPath` (`moveRow`):
    /// move it in your data (the table already shows it there). A data source that does not
    /// implement it shows no reorder controls, as in UIKit.
    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
}

extension UITableViewDataSource {
    /// Returns 1.
    public func numberOfSections(in tableView: UITableView) -> Int { 1 }
    /// Returns nil.
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// Returns nil.
    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
    /// Returns true.
    public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    /// Not implemented: the row offers no standard Delete (the swipe fails, nothing changed).
    public func tableView(
        _ tableView: UITableView,
        commit editingStyle: UITableViewCell.EditingStyle,
        forRowAt indexPath: IndexPath
    ) {
        tableView.standardEditingMethodRan = true
    }
    /// Returns true.
    public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
    /// Not implemented: the rows show no reorder control (the move fails, nothing changed).
    public func tableView(
        _ tableView: UITableView,
        moveRowAt sourceIndexPath: IndexPath,
        to destinationIndexPath: IndexPath
    ) {
        tableView.standardEditingMethodRan = true
    }
}

/// What a table tells about the user's touches, as `UITableViewDelegate`.
@MainActor
public protocol UITableViewDelegate: AnyObject {
    /// Whether a touch on the row at `indexPath` highlights it; false halts the tap: no row
    /// is selected or deselected (UIKit asks first, as the touch comes down). Default: true.
    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool
    /// The user is about to select the row at `indexPath`: the row to select instead, or nil
    /// for none (UIKit asks before `didSelectRowAt`). Default: `indexPath`.
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// The user tapped the row at `indexPath` (`selectRow`). Default: nothing.
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    /// The row at `indexPath` was deselected. Default: nothing.
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    /// The actions a swipe to the left reveals on the row at `indexPath`; nil for the standard
    /// Delete (when the data source implements `tableView(_:commit:forRowAt:)`). Default: nil.
    func tableView(
        _ tableView: UITableView,
        trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration?
    /// The actions a swipe to the right reveals on the row at `indexPath`; nil for none.
    /// Default: nil.
    func tableView(
        _ tableView: UITableView,
        leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration?
    /// The editing style of the row at `indexPath`: `.delete` offers the standard Delete.
    /// Default: `.delete`.
    func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle
    /// The title of the standard Delete of the row at `indexPath`. Default: nil (`"Delete"`).
    func tableView(_ tableView: UITableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String?
    /// A swipe opened the row at `indexPath` (`swipeRow`, right before the action runs).
    /// Default: nothing.
    func tableView(_ tableView: UITableView, willBeginEditingRowAt indexPath: IndexPath)
    /// The swiped row closed (right after the action ran). Default: nothing.
    func tableView(_ tableView: UITableView, didEndEditingRowAt indexPath: IndexPath?)
    /// Where a row dragged from `sourceIndexPath` to `proposedDestinationIndexPath` lands: the
    /// place to use instead, if any. Default: `proposedDestinationIndexPath`.
    func tableView(
        _ tableView: UITableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath
}

extension UITableViewDelegate {
    /// Returns true.
    public func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }
    /// Returns `indexPath`.
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Does nothing.
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    /// Does nothing.
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    /// Returns nil: the standard Delete.
    public func tableView(
        _ tableView: UITableView,
        trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? { nil }
    /// Returns nil: no actions.
    public func tableView(
        _ tableView: UITableView,
        leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? { nil }
    /// Returns `.delete`.
    public func tableView(
        _ tableView: UITableView,
        editingStyleForRowAt indexPath: IndexPath
    ) -> UITableViewCell.EditingStyle { .delete }
    /// Returns nil: `"Delete"`.
    public func tableView(
        _ tableView: UITableView,
        titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath
    ) -> String? { nil }
    /// Does nothing.
    public func tableView(_ tableView: UITableView, willBeginEditingRowAt indexPath: IndexPath) {}
    /// Does nothing.
    public func tableView(_ tableView: UITableView, didEndEditingRowAt indexPath: IndexPath?) {}
    /// Returns `proposedDestinationIndexPath`.
    public func tableView(
        _ tableView: UITableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath { proposedDestinationIndexPath }
}

/// A table, as `UITableView`, usable from any controller: set its `dataSource` and
/// `delegate`, add it to a view. Nothing is drawn, so nothing is reused either:
/// `visibleCells` asks the data source for every row (up to `maximumVisibleRows`) each time
/// it is read.
@MainActor
open class UITableView: View {
    /// The table's look, as `UITableView.Style` (nothing is drawn; kept for the app).
    public enum Style: Sendable, Hashable {
        case plain, grouped, insetGrouped
    }

    /// At most this many rows are made into `visibleCells` (and shown by `inspect`).
    public static let maximumVisibleRows = 1_000

    /// The table's style.
    public let style: Style
    /// Where the rows come from.
    public weak var dataSource: (any UITableViewDataSource)?
    /// Who hears of the user's touches.
    public weak var delegate: (any UITableViewDelegate)?
    /// The selected row, if any.
    public internal(set) var indexPathForSelectedRow: IndexPath?
    /// Whether the table is in editing mode: its rows show their delete controls (what the
    /// user's `swipeRow` taps then), and a tap selects a row only when
    /// `allowsSelectionDuringEditing`.
    open var isEditing: Bool {
        get { editingState }
        set { setEditing(newValue, animated: false) }
    }
    private var editingState = false
    /// Whether a tap selects a row in editing mode. Default: false, as UIKit's.
    public var allowsSelectionDuringEditing = false

    /// Enters or leaves editing mode (`animated` is accepted; nothing is drawn).
    open func setEditing(_ editing: Bool, animated: Bool) {
        editingState = editing
    }
    private var registered: [String: UITableViewCell.Type] = [:]
    /// Set by the standard `tableView(_:commit:forRowAt:)` and `tableView(_:moveRowAt:to:)`,
    /// which a data source without one of its own runs (`runsAppImplementation`).
    var standardEditingMethodRan = false
    /// The batch of row changes open (`beginUpdates()`), and how deeply nested it is.
    var rowUpdates: RowUpdates?
    var rowUpdateDepth = 0
    /// Counts the app's row changes (`deleteRows`, `insertRows`, `moveRow`): a swipe's commit
    /// that changed rows ran the app's code.
    var rowChanges = 0

    /// A table of `style`.
    public init(style: Style = .plain) {
        self.style = style
        super.init()
    }

    /// Registers the cell class `dequeueReusableCell(withIdentifier:for:)` makes for `identifier`.
    public func register(_ cellClass: UITableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass
    }

    /// A new cell of the class registered for `identifier` (a plain `UITableViewCell` when
    /// none was; UIKit would raise).
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        (registered[identifier] ?? UITableViewCell.self).init(style: .default, reuseIdentifier: identifier)
    }

    /// A new cell of the class registered for `identifier`, or nil when none was (the app
    /// then makes its own, as with UIKit).
    public func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        registered[identifier].map { $0.init(style: .default, reuseIdentifier: identifier) }
    }

    /// Nothing is cached, so there is nothing to reload (`visibleCells` is always current);
    /// the selection goes, as UIKit's.
    public func reloadData() {
        rowChanges &+= 1
        indexPathForSelectedRow = nil
    }

    /// The number of sections, as the data source counts them.
    public var numberOfSections: Int { max(0, dataSource?.numberOfSections(in: self) ?? 0) }

    /// The number of rows in `section`, as the data source counts them.
    public func numberOfRows(inSection section: Int) -> Int {
        guard let dataSource, (0..<numberOfSections).contains(section) else { return 0 }
        return max(0, dataSource.tableView(self, numberOfRowsInSection: section))
    }

    /// The rows' positions, section by section, as the data source counts them.
    public var indexPathsForVisibleRows: [IndexPath] {
        var paths: [IndexPath] = []
        for section in 0..<numberOfSections {
            for row in 0..<numberOfRows(inSection: section) {
                guard paths.count < Self.maximumVisibleRows else { return paths }
                paths.append(IndexPath(row: row, section: section))
            }
        }
        return paths
    }

    /// A cell for every row, made by the data source.
    public var visibleCells: [UITableViewCell] {
        guard let dataSource else { return [] }
        return indexPathsForVisibleRows.map { dataSource.tableView(self, cellForRowAt: $0) }
    }

    /// The cell of the row at `indexPath`, made by the data source (nil for a row it does
    /// not have).
    public func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        guard let dataSource, contains(indexPath) else { return nil }
        return dataSource.tableView(self, cellForRowAt: indexPath)
    }

    /// Selects the row (no delegate call, as UIKit's).
    public func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        indexPathForSelectedRow = indexPath
    }

    /// Deselects the row (no delegate call, as UIKit's).
    public func deselectRow(at indexPath: IndexPath, animated: Bool) {
        if indexPathForSelectedRow == indexPath { indexPathForSelectedRow = nil }
    }

    /// Where a selected row scrolls to (nothing scrolls).
    public enum ScrollPosition: Sendable, Hashable {
        case none, top, middle, bottom
    }

    /// Whether the data source has a row at `indexPath`.
    func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.section >= 0 && indexPath.section < numberOfSections && indexPath.row >= 0
            && indexPath.row < numberOfRows(inSection: indexPath.section)
    }

    /// What a tap on the row at `indexPath` does: asks the delegate's
    /// `tableView(_:shouldHighlightRowAt:)` (false: nothing more), then
    /// `tableView(_:willSelectRowAt:)`, then selects the row it answers (none for nil) and calls
    /// `tableView(_:didSelectRowAt:)`. A row the data source does not have is ignored (returns
    /// false); a tap the delegate turns away is not (true, nothing selected).
    @discardableResult
    public func selectRowAsTapped(at tapped: IndexPath) -> Bool {
        guard contains(tapped) else { return false }
        guard delegate?.tableView(self, shouldHighlightRowAt: tapped) ?? true else { return true }
        let answer: IndexPath?? = delegate.map { $0.tableView(self, willSelectRowAt: tapped) }
        guard let indexPath = answer ?? tapped, contains(indexPath) else { return true }
        if let previous = indexPathForSelectedRow, previous != indexPath {
            indexPathForSelectedRow = nil
            delegate?.tableView(self, didDeselectRowAt: previous)
        }
        indexPathForSelectedRow = indexPath
        delegate?.tableView(self, didSelectRowAt: indexPath)
        return true
    }
}

/// A table row's cell, as `UITableViewCell`: a `textLabel` (or a content configuration) to
/// fill in.
@MainActor
open class UITableViewCell: View {
    /// The cell layouts, as `UITableViewCell.CellStyle`.
    public enum CellStyle: Sendable, Hashable {
        case `default`, value1, value2, subtitle
    }

    /// What a cell shows beside its text, as `UITableViewCell.AccessoryType`.
    public enum AccessoryType: Sendable, Hashable {
        case none, disclosureIndicator, detailDisclosureButton, checkmark, detailButton
    }

    /// The cell's reuse identifier, as registered.
    public let reuseIdentifier: String?
    /// The cell's main label.
    public let textLabel: UILabel?
    /// The cell's secondary label (every style has one here).
    public let detailTextLabel: UILabel?
    /// The accessory shown.
    public var accessoryType: AccessoryType = .none
    /// What the cell shows, the modern way (`defaultContentConfiguration()`); it wins over
    /// `textLabel` in the visible tree.
    public var contentConfiguration: UIListContentConfiguration?

    /// A cell of `style` for `reuseIdentifier`.
    public required init(style: CellStyle, reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        textLabel = UILabel()
        detailTextLabel = UILabel()
        super.init()
    }

    /// A default-style cell for `reuseIdentifier`.
    public convenience init(reuseIdentifier: String?) {
        self.init(style: .default, reuseIdentifier: reuseIdentifier)
    }

    /// An empty configuration to fill in and assign to `contentConfiguration`.
    public func defaultContentConfiguration() -> UIListContentConfiguration {
        UIListContentConfiguration()
    }

    /// The text a user reads in the cell.
    var shownText: String? { contentConfiguration?.text ?? textLabel?.text }
    /// The secondary text a user reads in the cell.
    var shownSecondaryText: String? { contentConfiguration?.secondaryText ?? detailTextLabel?.text }
}

/// A cell's content, as `UIListContentConfiguration`: text, secondary text, an image.
public struct UIListContentConfiguration: Sendable, Hashable {
    /// The main text.
    public var text: String?
    /// The secondary text.
    public var secondaryText: String?
    /// The image.
    public var image: UIImage?

    /// An empty configuration.
    public init() {}

    /// The configuration of a plain cell.
    public static func cell() -> UIListContentConfiguration { UIListContentConfiguration() }
    /// The configuration of a subtitle cell.
    public static func subtitleCell() -> UIListContentConfiguration { UIListContentConfiguration() }
    /// The configuration of a value cell.
    public static func valueCell() -> UIListContentConfiguration { UIListContentConfiguration() }
}

extension UITableView {
    /// Runs `call`, a data-source method with a standard implementation (`commit`,
    /// `moveRowAt`), and says whether the app's own ran: Swift cannot ask whether a type
    /// implements it, so the standard one marks the table (and changes no rows). UIKit shows
    /// no Delete, no reorder control, for a data source without one.
    func runsAppImplementation(_ call: () -> Void) -> Bool {
        let changesBefore = rowChanges
        standardEditingMethodRan = false
        defer { standardEditingMethodRan = false }
        call()
        return !standardEditingMethodRan || rowChanges != changesBefore
    }
}
