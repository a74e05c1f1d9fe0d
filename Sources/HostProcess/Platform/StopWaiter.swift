import Glibc
import SceneModel

/// Waits for stopped workers, any number at once, on the `waits` thread.
///
/// A suspension sends SIGSTOP, and `suspended` must never be reported ahead of the kernel, so
/// the host waits until the worker is stopped. That is polled (the kernel's notification can
/// be gone) and bounded (a worker in uninterruptible sleep may not stop in time). Each round
/// checks every stop in progress, so a worker that does not stop holds up no other scene's
/// suspension: when one thread waited for each stop in turn, such a worker held every later
/// suspension of the host for up to its 5 s limit.
package enum StopWaiter {
    /// How long a stop may take before it is undone and reported as not stopped.
    package static let limit: Duration = .seconds(5)
    /// The pause between rounds while stops are in progress.
    package static let pollIntervalMicroseconds: UInt32 = 200

    private struct Pending: Sendable {
        package let child: ChildProcess
        package let pidfd: Int32
        package let deadline: ContinuousClock.Instant
        package let done: @Sendable (Bool) -> Void
    }

    private struct State: Sendable {
        package var pending: [Pending] = []
        /// A polling job is queued or running on the `waits` thread.
        package var polling = false
    }

    private static let state = Locked(State())

    /// Stops `child`'s process group and calls `done` on the `waits` thread: true once the
    /// worker is stopped, or already gone (its exit event follows), false if it did not stop
    /// within `limit` (it was continued then). `done` may run before this returns.
    package static func stop(_ child: ChildProcess, done: @escaping @Sendable (Bool) -> Void) {
        let pidfd: Int32?
        do throws(SignalError) {
            pidfd = try child.beginStop()
        } catch {
            return done(true)
        }
        // Without a copy of its pidfd there is nothing to poll with: it was just sent
        // SIGSTOP, which cannot be caught or ignored.
        guard let pidfd else { return done(true) }
        wait(for: child, pidfd: pidfd, limit: limit, done: done)
    }

    /// Waits, with the others, until `child` is stopped or gone (true) or `limit` has passed
    /// (false, after `undoStop`); closes `pidfd` then. `stop` without the signal: for tests.
    package static func wait(
        for child: ChildProcess,
        pidfd: Int32,
        limit: Duration,
        done: @escaping @Sendable (Bool) -> Void
    ) {
        let pending = Pending(child: child, pidfd: pidfd, deadline: .now + limit, done: done)
        let mustStart = state.withLock { state in
            state.pending.append(pending)
            defer { state.polling = true }
            return !state.polling
        }
        // The job polls until nothing is pending; stops added meanwhile join its next round.
        if mustStart { BlockingWorkThread.waits.submit { poll() } }
    }

    private static func poll() {
        while true {
            let round = state.withLock { state -> [Pending] in
                defer { state.pending = [] }
                if state.pending.isEmpty { state.polling = false }
                return state.pending
            }
            if round.isEmpty { return }
            // The limit is the clock's: on a loaded machine each pause lasts longer than asked.
            let now = ContinuousClock.now
            var waiting: [Pending] = []
            for stop in round {
                if stop.child.isStopped(polling: stop.pidfd) {
                    close(stop.pidfd)
                    stop.done(true)
                } else if now >= stop.deadline {
                    stop.child.undoStop(pidfd: stop.pidfd)
                    close(stop.pidfd)
                    stop.done(false)
                } else {
                    waiting.append(stop)
                }
            }
            guard !waiting.isEmpty else { continue }
            state.withLock { $0.pending.insert(contentsOf: waiting, at: 0) }
            usleep(pollIntervalMicroseconds)
        }
    }
}
