// swift-format-ignore-file
import UIKit

struct Note {
    var title: String
}

@MainActor
final class NoteStore {
    static let shared = NoteStore()
    var notes = [Note(title: "Groceries"), Note(title: "Ideas"), Note(title: "Travel")]
}

class ListViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    let tableView = UITableView()
    let journalLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Notes"
        tableView.dataSource = self
        tableView.delegate = self
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
        view.addSubview(tableView)
        journalLabel.accessibilityIdentifier = "journal.transient"
        view.addSubview(journalLabel)
        navigationItem.rightBarButtonItems = [UIBarButtonItem(systemItem: .add, primaryAction: UIAction { [weak self] _ in
            self?.confirmAdd()
        }), editButtonItem]
        navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Compose", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.present(UINavigationController(rootViewController: ComposeViewController()), animated: true)
        }, menu: nil)
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        journalLabel.text = Journal.shared.lines.joined(separator: "; ")
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        return NoteStore.shared.notes.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = NoteStore.shared.notes[indexPath.row].title
        cell.contentConfiguration = content
        return cell
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let detail = DetailViewController(index: indexPath.row)
        navigationController?.pushViewController(detail, animated: true)
    }

    func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        let delete = UIContextualAction(style: .destructive, title: "Delete") { _, _, completion in
            NoteStore.shared.notes.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .automatic)
            completion(true)
        }
        delete.backgroundColor = .systemRed
        return UISwipeActionsConfiguration(actions: [delete])
    }

    override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        tableView.setEditing(editing, animated: animated)
    }

    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let note = NoteStore.shared.notes.remove(at: sourceIndexPath.row)
        NoteStore.shared.notes.insert(note, at: destinationIndexPath.row)
    }

    private func confirmAdd() {
        let alert = UIAlertController(title: "New note", message: "Add an untitled note?", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Add", style: .default) { _ in
            NoteStore.shared.notes.append(Note(title: "Untitled"))
            self.tableView.reloadData()
        })
        present(alert, animated: true)
    }
}

/// A compose sheet in a navigation controller of its own, for its bar buttons.
class ComposeViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        title = "New note"
        navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Cancel", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.dismiss(animated: true)
        }, menu: nil)
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Done", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.navigationController?.dismiss(animated: true)
        }, menu: nil)
    }
}
