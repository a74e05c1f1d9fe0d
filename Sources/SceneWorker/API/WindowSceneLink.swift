/// How a window reaches its scene (`Window.windowScene`, weak in UIKit): through this link,
/// which its scene holds, and which the scene clears in its `deinit`.
///
/// A weak reference to the scene itself would give the scene a side table, and every retain
/// and release of it the runtime's slow path: the runtime passes the scene to the delegate
/// on every lifecycle callback. The link takes the side table's place; nothing retains it
/// on a callback's path.
///
/// `@unchecked Sendable`: touched on the main thread only. The scene's `deinit` is isolated to
/// the main actor, so it runs there too when app code released the scene on another thread:
/// a window never reads the link while the scene clears it.
final class WindowSceneLink: @unchecked Sendable {
    /// The scene, nil once it is gone.
    unowned(unsafe) var scene: UIWindowScene?

    init() {}
}
