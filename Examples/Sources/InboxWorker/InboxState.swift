/// What the scene saves for restoration: the open item and the read ones. It travels as a
/// `JSONValue` through the Codable bridge.
struct InboxState: Codable, Equatable {
    /// The item whose detail is on screen; nil on the list.
    var selectedItemID: Int?
    var readItemIDs: [Int] = []
}
