import Protocol
import Testing

@testable import SceneWorker

/// A list whose rows can be deleted the way most UIKit tutorials do it: the data source's
/// `tableView(_:commit:forRowAt:)`, in a `UITableViewController`.
@MainActor
private final class DeletingListController: UITableViewController {
    var items = ["Bread", "Milk", "Eggs"]
    var editable = true
    var style: UITableViewCell.EditingStyle = .delete
    var log: [String] = []

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { items.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(reuseIdentifier: "item")
        cell.textLabel?.text = items[indexPath.row]
        return cell
    }

    override func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { editable }

    override func tableView(
        _ tableView: UITableView,
        editingStyleForRowAt indexPath: IndexPath
    ) -> UITableViewCell.EditingStyle { style }

    override func tableView(
        _ tableView: UITableView,
        commit editingStyle: UITableViewCell.EditingStyle,
        forRowAt indexPath: IndexPath
    ) {
        log.append("commit \(editingStyle) \(indexPath)")
        items.remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath], with: .automatic)
    }
}

/// A list in a plain controller whose delegate configures its swipes with contextual actions,
/// and whose data source implements no `commit`.
@MainActor
private final class ConfiguredSwipesController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    var items = ["Inbox", "Drafts", "Sent"]
    var pinned: [String] = []
    var fullSwipe = true
    var completions: [Bool] = []
    var editing: [String] = []
    let table = UITableView()

    override func viewDidLoad() {
        table.dataSource = self
        table.delegate = self
        view.addSubview(table)
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { items.count }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(reuseIdentifier: nil)
        cell.textLabel?.text = items[indexPath.row]
        return cell
    }

    func tableView(
        _ tableView: UITableView,
        trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? {
        let delete = UIContextualAction(style: .destructive, title: "Delete") { [weak self] _, _, done in
            self?.items.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .fade)
            done(true)
        }
        let archive = UIContextualAction(style: .normal, title: "Archive") { [weak self] _, view, done in
            self?.completions.append(view is UITableViewCell)
            done(false)
        }
        let configuration = UISwipeActionsConfiguration(actions: [delete, archive])
        configuration.performsFirstActionWithFullSwipe = fullSwipe
        return configuration
    }

    func tableView(
        _ tableView: UITableView,
        leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? {
        let pin = UIContextualAction(style: .normal, title: "") { [weak self] _, _, done in
            guard let self else { return }
            pinned.append(items[indexPath.row])
            done(true)
        }
        pin.image = UIImage(systemName: "pin")
        return UISwipeActionsConfiguration(actions: [pin])
    }

    func tableView(_ tableView: UITableView, willBeginEditingRowAt indexPath: IndexPath) {
        editing.append("begin \(indexPath.row) of \(items.count)")
    }

    func tableView(_ tableView: UITableView, didEndEditingRowAt indexPath: IndexPath?) {
        editing.append("end \(indexPath?.row ?? -1) of \(items.count)")
    }
}

/// A list that can only be read: no `commit`, no swipe configuration.
@MainActor
private final class ReadOnlyListController: UITableViewController {
    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 2 }
}

@MainActor @Suite struct SwipeActionTests {
    private func swipe(
        _ row: Int,
        edge: UserAction.SwipeEdge = .trailing,
        action: String? = nil
    ) -> WorkerOperation {
        .user(.swipeRow(section: 0, row: row, edge: edge, action: action))
    }

    /// The standard Delete: the user's swipe is reported, then the data source's `commit` runs;
    /// a full swipe performs it too, and the selection stays on its row.
    @Test func theStandardDeleteCommitsTheRow() throws {
        let h = Harness(makingControllers: { DeletingListController(restorationIdentifier: $0) })
        let list = try #require(try h.connectedRoot() as? DeletingListController)
        list.tableView.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        #expect(h.send(swipe(1, action: "Delete")) == ["userAction", "reply 2"])
        #expect(list.log == ["commit delete [0, 1]"])
        #expect(list.items == ["Bread", "Eggs"])
        #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0), "Eggs moved up")
        #expect(h.send(swipe(0)) == ["userAction", "reply 3"], "a full swipe deletes")
        #expect(list.items == ["Eggs"])
        #expect(VisibleTree.controller(list)["views"]?[0]?["table"]?[0]?["rows"]?[0]?["text"] == "Eggs")
    }

    /// Where UIKit shows no Delete, nothing is reported and nothing changes: the failure says why.
    @Test func aRowWithoutTheStandardDeleteFailsTheSwipe() throws {
        let h = Harness(makingControllers: { DeletingListController(restorationIdentifier: $0) })
        let list = try #require(try h.connectedRoot() as? DeletingListController)
        #expect(h.send(swipe(0, action: "Archive")) == ["failure 2 operationFailed"])
        #expect(
            h.lastError?.message.contains("at most the standard \"Delete\"") == true,
            "\(String(describing: h.lastError))"
        )
        list.editable = false
        #expect(h.send(swipe(0)) == ["failure 3 operationFailed"])
        #expect(h.lastError?.message.contains("canEditRowAt") == true)
        list.editable = true
        list.style = .none
        #expect(h.send(swipe(0)) == ["failure 4 operationFailed"])
        #expect(h.send(swipe(0, edge: .leading)) == ["failure 5 operationFailed"])
        #expect(h.lastError?.message.contains("leadingSwipeActionsConfigurationForRowAt") == true)
        #expect(h.send(swipe(7)) == ["failure 6 operationFailed"], "no such row")
        #expect(list.items == ["Bread", "Milk", "Eggs"] && list.log.isEmpty)
    }

    /// A data source without `commit` offers no Delete: the swipe is taken back, not reported.
    @Test func aDataSourceWithoutCommitOffersNoDelete() throws {
        let h = Harness(makingControllers: { ReadOnlyListController(restorationIdentifier: $0) })
        _ = try h.connectedRoot()
        #expect(h.send(swipe(0)) == ["failure 2 operationFailed"])
        #expect(h.lastError?.message.contains("tableView(_:commit:forRowAt:)") == true)
        #expect(h.send(.user(.selectRow(section: 0, row: 1))) == ["userAction", "reply 3"], "the table still works")
    }

    /// The delegate's configuration: an action by its title (its handler gets the row's cell), the
    /// first one by a full swipe unless the configuration turned that off, and a leading action
    /// by its image's name.
    @Test func configuredActionsRunTheirHandlers() throws {
        let h = Harness(makingControllers: { ConfiguredSwipesController(restorationIdentifier: $0) })
        let screen = try #require(try h.connectedRoot() as? ConfiguredSwipesController)
        #expect(h.send(swipe(0, action: "Archive")) == ["userAction", "reply 2"])
        #expect(screen.completions == [true] && screen.items.count == 3)
        #expect(h.send(swipe(0)) == ["userAction", "reply 3"], "a full swipe performs Delete, the first")
        #expect(screen.items == ["Drafts", "Sent"])
        screen.fullSwipe = false
        #expect(h.send(swipe(0)) == ["failure 4 operationFailed"])
        #expect(h.lastError?.message.contains("\"Delete\", \"Archive\"") == true, "\(String(describing: h.lastError))")
        #expect(h.send(swipe(1, action: "Mute")) == ["failure 5 operationFailed"])
        #expect(h.send(swipe(1, edge: .leading, action: "pin")) == ["userAction", "reply 6"], "an empty title")
        #expect(screen.pinned == ["Sent"] && screen.items == ["Drafts", "Sent"])
        #expect(
            screen.editing == [
                "begin 0 of 3", "end 0 of 3", "begin 0 of 3", "end 0 of 2", "begin 1 of 2", "end 1 of 2",
            ],
            "the row opens before its action runs and closes after"
        )
    }

    /// A row moved past the selected one shifts it; a batch reads its deletions at the rows'
    /// old positions and its insertions at their new ones, whatever the order of the calls.
    @Test func movesAndBatchesKeepTheSelectionOnItsRow() {
        let table = UITableView()
        table.selectRow(at: IndexPath(row: 0, section: 0), animated: false, scrollPosition: .none)
        table.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0))
        #expect(table.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 3, section: 0))
        #expect(table.indexPathForSelectedRow == IndexPath(row: 0, section: 0))
        var completed: [Bool] = []
        table.performBatchUpdates(
            {
                table.insertRows(at: [IndexPath(row: 1, section: 0)], with: .automatic)
                table.deleteRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 0, section: 0)], with: .automatic)
                #expect(table.indexPathForSelectedRow == IndexPath(row: 0, section: 0), "nothing applies inside")
            },
            completion: { completed.append($0) }
        )
        #expect(table.indexPathForSelectedRow == nil, "the selected row was deleted")
        #expect(completed.isEmpty, "the completion comes on the main queue, after the animations")
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        table.beginUpdates()
        table.insertRows(at: [IndexPath(row: 1, section: 0)], with: .automatic)
        table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)
        table.endUpdates()
        #expect(
            table.indexPathForSelectedRow == IndexPath(row: 0, section: 0),
            "deleted at 0 (old), inserted at 1 (new)"
        )
    }

    /// Rows inserted above the selected one move it down; a deleted selected row is deselected.
    @Test func rowUpdatesKeepTheSelectionOnItsRow() {
        let table = UITableView()
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        table.insertRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 0, section: 1)], with: .automatic)
        #expect(table.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        table.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 1))
        #expect(table.indexPathForSelectedRow == IndexPath(row: 0, section: 1))
        table.deleteRows(at: [IndexPath(row: 0, section: 1)], with: .fade)
        #expect(table.indexPathForSelectedRow == nil)
    }
}

@Suite struct UserActionParameterTests {
    /// What the worker's decoder would refuse, the host refuses first, naming the field.
    @Test func negativeRowsAndEmptyNamesAreRefused() {
        #expect(UserAction.swipeRow(section: 0, row: -1, edge: .trailing, action: nil).parameterRefusal != nil)
        #expect(UserAction.swipeRow(section: 0, row: 0, edge: .leading, action: "").parameterRefusal != nil)
        #expect(UserAction.selectRow(section: -1, row: 0).parameterRefusal != nil)
        #expect(UserAction.tapControl(control: "").parameterRefusal != nil)
        #expect(UserAction.swipeRow(section: 2, row: 0, edge: .leading, action: "Pin").parameterRefusal == nil)
        #expect(UserAction.typeText(field: "f", text: "").parameterRefusal == nil, "an empty text clears the field")
    }
}
