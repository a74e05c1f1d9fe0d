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
}

@MainActor @Suite struct EditingModeTests {
    @Test func theEditButtonTogglesEditingModeAndATapSelectsNothingWhileEditing() throws {
        let log = Log()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { LoggingApplicationDelegate(log: log) },
                makeSceneDelegate: { LoggingSceneDelegate(log: log) },
                makeViewController: { EditableListController(restorationIdentifier: $0) }
            )
        )
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
        let log = Log()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { LoggingApplicationDelegate(log: log) },
                makeSceneDelegate: { LoggingSceneDelegate(log: log) },
                makeViewController: { name in
                    name == "Detail"
                        ? UIViewController(restorationIdentifier: name)
                        : EditableListController(restorationIdentifier: name)
                }
            )
        )
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
