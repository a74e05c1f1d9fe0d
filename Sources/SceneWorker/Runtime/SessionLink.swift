/// How a session's window objects and its application reach the session: weakly, through
/// this link, which only the session holds strongly.
///
/// A weak reference to the session itself would give the session a side table, and every
/// retain and release of it, several per request, the runtime's slow path (a third of an
/// app process's own work per request, where each frame looks its scene's session up). The
/// link takes the side table instead, and nothing retains it on a request's path.
///
/// The session severs the link in its `deinit`: whatever order Swift then destroys the
/// session's stored properties in, an app's `deinit` that runs meanwhile (a controller
/// released with the session's scene) and reaches for the session finds none.
///
/// `@unchecked Sendable`: touched on the main thread only. The session's `deinit`, which is
/// not isolated, runs there too, as every owner of a session is main-actor code.
final class SessionLink: @unchecked Sendable {
    /// The session, nil once it is gone.
    unowned(unsafe) var session: WorkerSession?

    init() {}
}
