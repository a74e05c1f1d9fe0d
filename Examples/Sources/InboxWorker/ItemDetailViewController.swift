import SceneWorker

/// One item's screen, pushed as `Detail-<id>`.
final class ItemDetailViewController: UIViewController {
    let itemID: Int
    private(set) var text = ""

    init(title: String, itemID: Int) {
        self.itemID = itemID
        super.init(title: title)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        text = ItemStore.shared.item(withID: itemID)?.title ?? "No such message"
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        ItemStore.shared.readItemIDs.insert(itemID)
        ItemStore.shared.pendingSelection = nil
    }

    /// The item id in a pushed name: `Detail-42` is 42.
    static func itemID(inName name: String) -> Int? {
        guard name.hasPrefix("Detail-") else { return nil }
        return Int(name.dropFirst("Detail-".count))
    }
}
