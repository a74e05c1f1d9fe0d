import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// Workers started ahead of need, as iOS prewarms apps (since iOS 15 the system may run an
/// app's process start, up to but not including `UIApplicationMain`, before anyone opens it).
///
/// A prewarmed worker has done what every process start costs (exec, the runtime, the
/// binary's first pages, the worker's own setup) and waits for the host's first frame. It
/// belongs to no scene and is in no trace until a launch takes it; the scene's `spawned`
/// event is recorded then, and everything after is a launch like any other. Only the host's
/// own worker argv (`HostConfiguration.worker`) is prewarmed, and only once the host has
/// launched it: a host that never launches a worker starts none ahead.
///
/// A launch takes a live prewarmed worker when one is ready, and spawns as before when none
/// is. Once the launch has ended (its caller resumed), the pool starts what it lacks on the
/// spawn thread: not before, as a process start beside a launch competes with it for the CPU
/// (on two cores, it delayed the host's reading of the worker's first reply by a quarter of a
/// millisecond). A prewarmed worker found dead at a take is not handed out. `close()` (the
/// host's quit, first thing) kills and reaps the waiting ones and starts no more. A worker no
/// scene took is disposed of with its process group, on the sweep thread.
package final class PrewarmedWorkers: Sendable {
    private struct State {
        package var idle: [ChildProcess] = []
        /// Spawns submitted and not finished yet.
        package var starting = 0
        package var isClosed = false
    }

    /// What is prewarmed; launches of any other argv spawn as before.
    package let argv: [String]
    /// How many workers wait at most; 0 turns prewarming off.
    package let capacity: Int
    /// How its workers are scheduled (`HostConfiguration.workerScheduling`).
    package let scheduling: ChildProcess.Scheduling
    /// The workers' environment (nil: the host's).
    package let environment: [String: String]?
    private let state = Locked(State())

    package init(
        argv: [String],
        capacity: Int,
        scheduling: ChildProcess.Scheduling,
        environment: [String: String]? = nil
    ) {
        self.environment = environment
        self.argv = argv
        self.capacity = max(0, capacity)
        self.scheduling = scheduling
    }

    // A host dropped without its quit: the waiting workers are killed and reaped on the sweep
    // thread, not on whichever thread (the loop's, say) let go of the pool last.
    deinit {
        let idle = state.withLock { state -> [ChildProcess] in
            defer { state.idle = [] }
            return state.idle
        }
        Self.disposeLater(idle)
    }

    /// A live prewarmed worker started by `argv`, or nil: the caller spawns one itself. Never
    /// blocks: one found dead is disposed of on the sweep thread. The pool catches up at
    /// `launchEnded(argv:)`.
    package func take(argv: [String]) -> ChildProcess? {
        guard capacity > 0, argv == self.argv else { return nil }
        var dead: [ChildProcess] = []
        let child = state.withLock { state -> ChildProcess? in
            while !state.idle.isEmpty {
                // The oldest first: it has certainly finished starting.
                let candidate = state.idle.removeFirst()
                guard candidate.hasExitedUnreaped else { return candidate }
                dead.append(candidate)
            }
            return nil
        }
        Self.disposeLater(dead)
        return child
    }

    /// A scene's launch of `argv` has ended: starts the workers the pool lacks.
    package func launchEnded(argv: [String]) {
        guard capacity > 0, argv == self.argv else { return }
        startMissing()
    }

    /// Kills and reaps the waiting workers, and any whose spawn was under way, before it
    /// returns; starts none from then on.
    package func close() async {
        let (idle, starting) = state.withLock { state -> ([ChildProcess], Int) in
            state.isClosed = true
            defer { state.idle = [] }
            return (state.idle, state.starting)
        }
        // Nothing waiting and nothing under way (none can start once closed): nothing to wait
        // for. The spawn and sweep threads are shared by every host in the process, and a
        // host that never prewarmed must not wait behind the others' work (under TSan, with
        // the whole suite spawning, that took over 20 s).
        guard capacity > 0, !idle.isEmpty || starting > 0 else { return }
        // The starts under way first: each hands what it started to the sweep thread before it
        // counts itself done (a start whose submission was not queued yet when this looked is
        // waited for in the next round).
        while state.withLock({ $0.starting > 0 }) {
            await startsFinished()
        }
        // Then the waiting ones, after those disposals: the sweep thread runs its work in order.
        // Not on the spawn thread: a SIGKILLed worker can take seconds to go (a sanitized
        // one's shadow memory), which held up every spawn behind it.
        await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
            Self.disposeLater(idle) { continuation.resume() }
        }
    }

    /// The pids of the workers waiting now (for tests).
    package var waitingPIDs: [pid_t] {
        state.withLock { $0.idle.map(\.pid) }
    }

    /// Returns once every start begun before the call has finished (for tests: a start is
    /// queued on the spawn thread, which runs its work in order).
    package func startsFinished() async {
        await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
            Self.spawnThread.submit { continuation.resume() }
        }
    }

    // One thread for every prewarm spawn, so that `close()` can wait for them in order.
    private static var spawnThread: BlockingWorkThread { BlockingWorkThread.shared }

    private func startMissing() {
        let missing = state.withLock { state -> Int in
            guard !state.isClosed else { return 0 }
            let missing = max(0, capacity - state.idle.count - state.starting)
            state.starting += missing
            return missing
        }
        for _ in 0..<missing {
            do {
                try Self.spawnThread.trySubmit { [self] in spawnOne() }
            } catch {
                // No thread to spawn on: no prewarming this time; the next launch's end tries again.
                state.withLock { $0.starting -= 1 }
            }
        }
    }

    /// On the spawn thread. A failed spawn is not retried until the next launch has ended.
    private func spawnOne() {
        let child = try? ChildProcess.spawn(
            argv: argv,
            environment: environment,
            scheduling: scheduling,
            ownCgroup: true
        )
        let kept = state.withLock { state -> Bool in
            guard let child, !state.isClosed else { return false }
            state.idle.append(child)
            state.starting -= 1
            return true
        }
        guard !kept else { return }
        // Handed to the sweep thread before the start counts as done, which `close()` waits for.
        if let child { Self.disposeLater([child]) }
        state.withLock { $0.starting -= 1 }
    }

    /// Disposes of `workers` on the sweep thread, in order after what it was given before;
    /// then calls `done` there, so that `done` also comes after every earlier disposal.
    private static func disposeLater(_ workers: [ChildProcess], then done: (@Sendable () -> Void)? = nil) {
        guard !workers.isEmpty || done != nil else { return }
        BlockingWorkThread.sweeps.submit {
            for worker in workers { dispose(worker) }
            done?()
        }
    }

    /// Kills a worker no scene took, with its process group (the sentinel a worker starts,
    /// `csh_start_group_sentinel`) and its cgroup, and reaps it. Blocks, for as long as a
    /// dying process takes: on the sweep thread only.
    private static func dispose(_ worker: ChildProcess) {
        // While the worker is not reaped, its zombie pins the group id.
        try? worker.sendToProcessGroup(signal: SIGKILL)
        worker.reapIfNeverWatched()
        worker.cgroup?.killAllAndRemove()
    }
}
