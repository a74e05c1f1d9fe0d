import Protocol
import SceneWorker

/// Restores the read items and the open item from the session, and saves them whenever
/// the scene enters the background.
final class InboxSceneDelegate: UISceneDelegate {
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        guard let saved = options.restoration, let state = try? saved.decode(InboxState.self) else { return }
        ItemStore.shared.readItemIDs = Set(state.readItemIDs)
        ItemStore.shared.pendingSelection = state.selectedItemID
    }

    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        let stack = scene.window.rootViewController as? NavigationController
        let detail = stack?.topViewController as? ItemDetailViewController
        let state = InboxState(
            selectedItemID: detail?.itemID ?? ItemStore.shared.pendingSelection,
            readItemIDs: ItemStore.shared.readItemIDs.sorted()
        )
        return try? JSONValue(encoding: state)
    }
}
