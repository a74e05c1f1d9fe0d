import Protocol
import Testing

@testable import SceneWorker

/// A list as Xcode's templates write one: an Edit button that toggles editing mode, and an
/// override of `setEditing(_:animated:)` that calls `super`.
@MainActor
private final class EditableListController: UITableViewController {
    var items = ["Bread", "Milk"]
    var log: [String] = []

    override func viewDidLoad() {
        navigationItem.rightBarButtonItem = editButtonItem
    }

    override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        log.append("setEditing \(editing) \(animated)")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { items.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(reuseIdentifier: nil)
        cell.textLabel?.text = items[indexPath.row]
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        log.append("select \(indexPath.row)")
    }

    override func tableView(
        _ tableView: UITableView,
        commit editingStyle: UITableViewCell.EditingStyle,
        forRowAt indexPath: IndexPath
    ) {
        items.remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath], with: .automatic)
    }

    var pinnedFirst = false
    /// What the delegate answers for a drag instead of its own rule (a place the table lacks, say).
    var forcedTarget: IndexPath?
    var reloadsOnMove = false
    var selectionSeenByMove: IndexPath??

    override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        !pinnedFirst || indexPath.row > 0
    }

    override func tableView(
        _ tableView: UITableView,
        moveRowAt sourceIndexPath: IndexPath,
        to destinationIndexPath: IndexPath
    ) {
        log.append("move \(sourceIndexPath.row) \(destinationIndexPath.row)")
        selectionSeenByMove = tableView.indexPathForSelectedRow
        items.insert(items.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
        if reloadsOnMove { tableView.reloadData() }
    }

    override func tableView(
        _ tableView: UITableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath {
        if let forcedTarget { return forcedTarget }
        // The pinned first row stays first.
        return pinnedFirst && proposedDestinationIndexPath.row == 0
            ? IndexPath(row: 1, section: 0) : proposedDestinationIndexPath
    }
}

extension EditableListController {
    /// The controller named `name`: a plain `Detail` to push, else the list.
    static func orDetail(_ name: String) -> UIViewController {
        name == "Detail"
            ? UIViewController(restorationIdentifier: name) : EditableListController(restorationIdentifier: name)
    }
}

/// A list whose data source cannot reorder.
@MainActor
private final class FixedOrderListController: UITableViewController {
    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
}

@MainActor @Suite struct EditingModeTests {
    @Test func theEditButtonTogglesEditingModeAndATapSelectsNothingWhileEditing() throws {
        let h = Harness(makingControllers: { EditableListController(restorationIdentifier: $0) })
        let list = try #require(try h.connectedRoot() as? EditableListController)
        #expect(VisibleTree.controller(list)["navigationItem"]?["right"]?[0]?["button"] == "Edit")
        #expect(h.send(.user(.tapControl(control: "Edit"))) == ["userAction", "reply 2"])
        #expect(list.isEditing && list.tableView.isEditing)
        let editing = VisibleTree.controller(list)
        #expect(editing["navigationItem"]?["right"]?[0]?["button"] == "Done")
        #expect(editing["views"]?[0]?["editing"] == true, "\(editing)")
        #expect(h.send(.user(.selectRow(section: 0, row: 0))) == ["failure 3 operationFailed"])
        #expect(h.lastError?.message.contains("allowsSelectionDuringEditing") == true)
        #expect(
            h.send(.user(.swipeRow(section: 0, row: 0, edge: .trailing, action: "Delete"))) == [
                "userAction", "reply 4",
            ]
        )
        #expect(list.items == ["Milk"])
        #expect(h.send(.user(.tapControl(control: "Done"))) == ["userAction", "reply 5"])
        #expect(!list.isEditing && !list.tableView.isEditing)
        list.tableView.allowsSelectionDuringEditing = true
        list.isEditing = true
        #expect(h.send(.user(.selectRow(section: 0, row: 0))) == ["userAction", "reply 6"])
        #expect(list.log == ["setEditing true true", "setEditing false true", "setEditing true false", "select 0"])
    }
}

@MainActor @Suite struct TableSelectionTests {
    /// A table controller clears its selection when it is about to appear again (a row tapped
    /// to push a detail screen is not selected when the list comes back), unless told not to.
    @Test func aTableControllerClearsItsSelectionWhenItAppearsAgain() throws {
        let h = Harness(makingControllers: EditableListController.orDetail)
        let list = try #require(try h.connectedRoot() as? EditableListController)
        for clears in [true, false] {
            list.clearsSelectionOnViewWillAppear = clears
            h.send(.user(.selectRow(section: 0, row: 1)))
            #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
            h.send(.push(viewController: "Detail"))
            h.send(.pop)
            #expect((list.tableView.indexPathForSelectedRow == nil) == clears, "clears: \(clears)")
        }
    }
}

@MainActor @Suite struct RowReorderingTests {
    private func move(_ row: Int, to toRow: Int) -> WorkerOperation {
        .user(.moveRow(section: 0, row: row, toSection: 0, toRow: toRow))
    }

    /// Only an editing table's rows move; the data source hears the move, the selection
    /// follows its row, and the delegate may pick another place.
    @Test func anEditingTablesRowMovesWhereTheDelegateLetsIt() throws {
        let h = Harness(makingControllers: { EditableListController(restorationIdentifier: $0) })
        let list = try #require(try h.connectedRoot() as? EditableListController)
        list.items = ["A", "B", "C"]
        #expect(h.send(move(0, to: 2)) == ["failure 2 operationFailed"])
        #expect(h.lastError?.message.contains("not editing") == true)
        list.setEditing(true, animated: false)
        list.tableView.selectRow(at: IndexPath(row: 0, section: 0), animated: false, scrollPosition: .none)
        #expect(h.send(move(0, to: 2)) == ["userAction", "reply 3"])
        #expect(list.items == ["B", "C", "A"])
        #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 2, section: 0), "the selection follows")
        list.pinnedFirst = true
        #expect(h.send(move(0, to: 1)) == ["failure 4 operationFailed"], "the first row cannot move")
        #expect(h.send(move(2, to: 0)) == ["userAction", "reply 5"])
        #expect(list.items == ["B", "A", "C"], "the delegate kept the first row first")
        #expect(h.send(move(1, to: 3)) == ["failure 6 operationFailed"], "past the last row of its own section")
        #expect(h.send(move(1, to: 1)) == ["failure 7 operationFailed"], "already there")
        #expect(list.log.filter { $0.hasPrefix("move") } == ["move 0 2", "move 2 1"])
    }

    /// A data source without `tableView(_:moveRowAt:to:)` shows no reorder control: the move
    /// is taken back, nothing reported.
    @Test func aDataSourceWithoutMoveOffersNoReorderControl() throws {
        let h = Harness(makingControllers: { FixedOrderListController(restorationIdentifier: $0) })
        let list = try #require(try h.connectedRoot() as? FixedOrderListController)
        list.setEditing(true, animated: false)
        #expect(h.send(move(0, to: 1)) == ["failure 2 operationFailed"])
        #expect(h.lastError?.message.contains("tableView(_:moveRowAt:to:)") == true)
    }
}

@MainActor @Suite struct EditingModeEdgeTests {
    private func list() throws -> (Harness, EditableListController) {
        let h = Harness(makingControllers: EditableListController.orDetail)
        let list = try #require(try h.connectedRoot() as? EditableListController)
        list.items = ["A", "B", "C"]
        return (h, list)
    }

    /// The table moves the row before the data source hears of it (the app sees the moved
    /// selection, and a reload it makes there stands); a place the delegate names that the
    /// table lacks counts as none.
    @Test func aDragMovesTheRowBeforeTheAppHearsAndIgnoresAPlaceTheTableLacks() throws {
        let (h, list) = try list()
        list.setEditing(true, animated: false)
        list.tableView.selectRow(at: IndexPath(row: 0, section: 0), animated: false, scrollPosition: .none)
        list.forcedTarget = IndexPath(row: -4, section: 7)
        #expect(h.send(.user(.moveRow(section: 0, row: 0, toSection: 0, toRow: 2))) == ["userAction", "reply 2"])
        #expect(list.items == ["B", "C", "A"], "dropped where the user dropped it")
        #expect(list.selectionSeenByMove == .some(IndexPath(row: 2, section: 0)))
        list.forcedTarget = nil
        list.reloadsOnMove = true
        #expect(h.send(.user(.moveRow(section: 0, row: 2, toSection: 0, toRow: 0))) == ["userAction", "reply 3"])
        #expect(list.tableView.indexPathForSelectedRow == nil, "the app's reload cleared it")
    }

    /// Editing mode swipes nothing: a trailing "swipe" is the delete control, for the delete
    /// style only, and no swipe begins or ends.
    @Test func editingModeShowsDeleteControlsNotSwipes() throws {
        let (h, list) = try list()
        list.setEditing(true, animated: false)
        #expect(
            h.send(.user(.swipeRow(section: 0, row: 0, edge: .leading, action: nil))) == ["failure 2 operationFailed"]
        )
        #expect(
            h.send(.user(.swipeRow(section: 0, row: 0, edge: .trailing, action: "Delete"))) == [
                "userAction", "reply 3",
            ]
        )
        #expect(list.items == ["B", "C"] && list.tableView.isEditing, "still editing")
    }

    /// A cancelled swipe back leaves the list's selection alone (UIKit clears it only once an
    /// interactive transition completes); a completed one clears it.
    @Test func aCancelledSwipeBackKeepsTheSelection() throws {
        let (h, list) = try list()
        h.send(.user(.selectRow(section: 0, row: 1)))
        h.send(.push(viewController: "Detail"))
        h.send(.swipeBack(completes: false))
        #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        h.send(.swipeBack(completes: true))
        #expect(list.tableView.indexPathForSelectedRow == nil)
    }

    /// Editing mode is not restored on iOS: a tree compared for restoration leaves it out.
    @Test func restorationLeavesEditingModeOut() throws {
        let (_, list) = try list()
        let before = VisibleTree.controller(list)
        list.setEditing(true, animated: false)
        let editing = VisibleTree.controller(list)
        #expect(editing != before)
        #expect(editing.withoutTransientViews == before.withoutTransientViews)
    }
}
