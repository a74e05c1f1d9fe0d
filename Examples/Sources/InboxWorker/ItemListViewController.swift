import SceneWorker

/// The root screen: the list of items.
final class ItemListViewController: UIViewController {
    private(set) var rows: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        reloadRows()
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        reloadRows()  // an item read on the detail screen shows as read
    }

    private func reloadRows() {
        let store = ItemStore.shared
        rows = store.items.map { (store.readItemIDs.contains($0.id) ? "  " : "• ") + $0.title }
    }
}
