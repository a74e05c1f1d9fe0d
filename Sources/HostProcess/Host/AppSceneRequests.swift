import Protocol
import Synchronization

/// Where a scene sends the scene requests its app makes (`requestSceneSessionActivation`,
/// `requestSceneSessionDestruction`, docs/LIFECYCLE.md §3c): the host carries them out on the
/// scenes they name, outside the requesting scene's own queue.
final class AppSceneRequests: Sendable {
    private let handler = Mutex<(@Sendable (_ opener: String, _ change: AppChange) -> Void)?>(nil)

    /// Sets what carries out a request (set once by the host).
    func setHandler(_ handler: @escaping @Sendable (_ opener: String, _ change: AppChange) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// The app of scene `opener` asked for `change`.
    func request(from opener: String, _ change: AppChange) {
        let handler = handler.withLock { $0 }
        handler?(opener, change)
    }
}
