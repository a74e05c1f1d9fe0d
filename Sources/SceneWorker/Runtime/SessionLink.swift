/// How a session's window objects and its application reach the session: weakly, through
/// this link, which only the session holds strongly.
///
/// A weak reference to the session itself would give the session a side table, and every
/// retain and release of it, several per request, the runtime's slow path (a third of an
/// app process's own work per request, where each frame looks its scene's session up). The
/// link takes the side table instead, and nothing retains it on a request's path.
///
/// The link dies with the session: declared first of the session's stored properties, it is
/// destroyed before the rest (the scene, its window and controllers, whose `deinit`s may be
/// app code), so a weak reference to it is nil by the time its `session` would dangle.
@MainActor
final class SessionLink {
    unowned(unsafe) let session: WorkerSession

    init(_ session: WorkerSession) {
        self.session = session
    }
}
