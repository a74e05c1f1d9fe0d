/// One message of the inbox.
struct Item: Sendable, Hashable {
    var id: Int
    var title: String
}

/// The app's data: a fixed inbox, which items were read, and the item that was open when
/// the state was saved.
@MainActor
final class ItemStore {
    static let shared = ItemStore()

    let items = (1...5).map { Item(id: $0, title: "Message \($0)") }
    var readItemIDs: Set<Int> = []
    /// Restored but not shown (only the host pushes controllers): saved again until the
    /// user opens an item.
    var pendingSelection: Int?

    func item(withID id: Int) -> Item? {
        items.first { $0.id == id }
    }
}
