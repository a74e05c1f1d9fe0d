import SceneWorker

/// One item's screen: the host pushes `Detail` with the item in the payload (`{"id": 42}`).
final class ItemDetailViewController: UIViewController {
    let itemID: Int
    private(set) var text = ""

    init(itemID: Int) {
        self.itemID = itemID
        super.init(restorationIdentifier: "Detail")
    }

    required init?(coder: NSCoder) {
        fatalError("the host pushes Detail with its item")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let item = ItemStore.shared.item(withID: itemID)
        title = item?.title
        text = item?.title ?? "No such message"
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        ItemStore.shared.readItemIDs.insert(itemID)
        ItemStore.shared.pendingSelection = nil
    }
}
