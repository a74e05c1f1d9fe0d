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

/// A text label, as much of `UILabel` as a cell needs.
@MainActor
public final class UILabel {
    /// The label's text.
    public var text: String?

    /// An empty label.
    public init() {}
}

/// A table row's cell, as `UITableViewCell`: a `textLabel` to fill in.
@MainActor
open class UITableViewCell {
    /// The cell's reuse identifier, as registered.
    public let reuseIdentifier: String?
    /// The cell's main label.
    public let textLabel: UILabel?

    /// A cell for `reuseIdentifier`.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        textLabel = UILabel()
    }
}

/// A table, as much of `UITableView` as a list screen needs: its controller is its data
/// source. Nothing is drawn, so nothing is reused either: `visibleCells` asks the data source
/// for every row (up to `maximumVisibleRows`) each time it is read.
@MainActor
public final class UITableView {
    /// At most this many rows are made into `visibleCells`.
    public static let maximumVisibleRows = 1_000

    /// The controller whose data-source and delegate methods the table calls.
    public internal(set) weak var controller: UITableViewController?
    private var registered: [String: UITableViewCell.Type] = [:]

    init() {}

    /// Registers the cell class `dequeueReusableCell(withIdentifier:for:)` makes for `identifier`.
    public func register(_ cellClass: UITableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass
    }

    /// A new cell of the class registered for `identifier` (a plain `UITableViewCell` when
    /// none was; UIKit would raise).
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        (registered[identifier] ?? UITableViewCell.self).init(reuseIdentifier: identifier)
    }

    /// Nothing is cached, so there is nothing to reload: `visibleCells` is always current.
    public func reloadData() {}

    /// The rows' positions, section by section, as the data source counts them.
    public var indexPathsForVisibleRows: [IndexPath] {
        guard let controller else { return [] }
        var paths: [IndexPath] = []
        for section in 0..<max(0, controller.numberOfSections(in: self)) {
            for row in 0..<max(0, controller.tableView(self, numberOfRowsInSection: section)) {
                guard paths.count < Self.maximumVisibleRows else { return paths }
                paths.append(IndexPath(row: row, section: section))
            }
        }
        return paths
    }

    /// A cell for every row, made by the data source.
    public var visibleCells: [UITableViewCell] {
        guard let controller else { return [] }
        return indexPathsForVisibleRows.map { controller.tableView(self, cellForRowAt: $0) }
    }

    /// What a tap on the row at `indexPath` does: calls the delegate's
    /// `tableView(_:didSelectRowAt:)` (a row the data source does not have is ignored).
    public func selectRowAsTapped(at indexPath: IndexPath) {
        guard let controller, indexPathsForVisibleRows.contains(indexPath) else { return }
        controller.tableView(self, didSelectRowAt: indexPath)
    }
}

/// A list screen, as `UITableViewController`: a controller whose `tableView` asks it for its
/// rows. Override the data-source and delegate methods as in UIKit.
@MainActor
open class UITableViewController: UIViewController {
    /// The table; its data source and delegate are this controller.
    public let tableView = UITableView()

    /// A table controller identified as `restorationIdentifier` (its class's name when nil).
    public override init(restorationIdentifier: String? = nil) {
        super.init(restorationIdentifier: restorationIdentifier)
        tableView.controller = self
    }

    /// UIKit's designated initializer (see `UIViewController.init(nibName:bundle:)`).
    public override init(nibName: String?, bundle: NibBundle?) {
        super.init(nibName: nibName, bundle: bundle)
        tableView.controller = self
    }

    /// The number of sections. Default: 1.
    open func numberOfSections(in tableView: UITableView) -> Int { 1 }

    /// The number of rows in `section`. Default: 0.
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }

    /// The cell for the row at `indexPath`. Default: an empty cell.
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(reuseIdentifier: nil)
    }

    /// The row at `indexPath` was tapped. Default: nothing.
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
}
