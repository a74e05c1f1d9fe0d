import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

/// A thread the host could not start (`pthread_create` failed: at the process or thread
/// limit, or out of memory). Nothing was started.
package struct ThreadStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The thread's name (`scenehost-epoll`, …).
    package var name: String
    /// `pthread_create`'s error (EAGAIN at the process limit).
    package var errno: Int32

    package var description: String {
        "cannot start thread \(name): \(String(cString: strerror(errno)))"
    }
}

/// A detached OS thread that runs `body` for the life of the process.
///
/// The host's helper threads (blocking work and spawning, epoll) must never exit: the
/// workers' parent-death signal is tied to the spawning *thread*, and Swift's cooperative and
/// Dispatch threads come and go. They also block asynchronous signals so that process-directed
/// signals (SIGINT, SIGTERM, …) land on threads that expect them.
package enum PlatformThread {
    private final class Body {
        package let name: String
        package let run: @Sendable () -> Void
        package init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts the thread, or throws and starts nothing. `name` is truncated by the kernel to
    /// 15 bytes.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))

        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread,
            &attributes,
            { context in
                _ = csh_block_async_signals()
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                csh_set_thread_name(body.name)
                body.run()
                return nil
            },
            context
        )
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw ThreadStartError(name: name, errno: rc)
        }
    }

    /// `start`, for a caller with no way to go on without the thread: a failure stops the process.
    package static func startDetached(name: String, _ body: @escaping @Sendable () -> Void) {
        do {
            try start(name: name, body)
        } catch {
            fatalError("\(error)")
        }
    }
}
