import Protocol

#if canImport(Glibc)
import Glibc
#endif

/// A worker's first launch rehearsed, with a stand-in app, while no frame waits.
///
/// A new process pays for everything it does the first time: the binary's pages, the type
/// metadata of each generic type, the protocol's tables, a scan of the binary's protocol
/// conformances for each dynamic cast. For a worker's first frames (the hello and the connect)
/// that is about a quarter of a millisecond, paid while the host waits for the launch. A worker
/// the host prewarmed has time to spare before its first frame comes, and spends it here: a
/// throwaway session with the runtime's own stand-in app (no code of the real app runs) takes a
/// hello and a connect like a launch's, and its messages are encoded and thrown away. The real
/// session is made after it, so nothing of the rehearsal is left but a warmer process.
///
/// Only done when stdin has nothing to read yet: a worker spawned for a launch finds its
/// first frame waiting and goes straight to it.
@MainActor
enum WorkerWarmup {
    /// Rehearses if no frame is waiting on stdin; returns at once otherwise.
    static func runIfIdle() {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) == 0 else { return }
        run()
    }

    /// The rehearsal itself; returns what the throwaway session answered (for tests).
    @discardableResult
    static func run() -> [WorkerMessage] {
        let session = WorkerSession(app: standIn, pid: 0)
        for frame in frames {
            frame.withUnsafeBytes { session.handleFrame($0) }
        }
        let messages = session.takeOutput()
        var scratch: [UInt8] = []
        for message in messages {
            message.encode(into: &scratch)
        }
        return messages
    }

    /// The host's first frames, as a launch sends them.
    static let frames: [[UInt8]] = [
        Array(#"{"op":"hello","protocol":1}"#.utf8),
        Array(
            (#"{"id":1,"op":"connect","session":"S","configuration":"Default Configuration","#
                + #""role":"windowApplication","background":false,"root":"Root","reconnect":false}"#).utf8
        ),
    ]

    /// UIKit's defaults and nothing else.
    private static let standIn = WorkerApp(
        makeApplicationDelegate: { StandInApplicationDelegate() },
        makeSceneDelegate: { StandInSceneDelegate() },
        makeViewController: { name in UIViewController(restorationIdentifier: name) }
    )
}

@MainActor
private final class StandInApplicationDelegate: ApplicationDelegate {}

/// Not a `UIWindowSceneDelegate`: the session's cast to one then scans every conformance
/// record, which leaves all of them in memory for the real delegate's cast.
@MainActor
private final class StandInSceneDelegate: UISceneDelegate {}
