import Dispatch
import SceneModel
import Synchronization

/// A thread for work that blocks: spawning, fsync and rename of session files, waitid.
///
/// One per kind of work, so that one kind never queues behind another: a thousand scenes
/// storing their state (each an fsync of the file and of its directory) or a sweep of many
/// dead workers' leftovers must not delay a spawn or a suspension. `shared` spawns, `storage`
/// writes session files, `waits` polls stopping workers (`StopWaiter`, all of them in each
/// round), `sweeps` kills what dead workers left in their cgroups (`WorkerCgroup`) and moves threads between CPUs.
///
/// Neither the event loop nor the cooperative pool may block, so such work is submitted here
/// and reports back (`EventLoop.shared.execute`, or resuming a continuation), never with a
/// semaphore on the caller. Work runs one at a time, in submission order, so keep each piece
/// short: a slow one delays every spawn behind it.
///
/// Spawns must come from here: workers arm `PR_SET_PDEATHSIG`, which the kernel fires when the
/// *thread* that forked them exits, and this thread lives as long as the process (a
/// cooperative or Dispatch thread retired by its pool would take healthy workers with it).
///
/// The thread starts with the host (`HostThreads.start()`), so that a host at the process
/// limit fails at startup, or fails one spawn cleanly, instead of crashing mid-request.
package final class BlockingWorkThread: Sendable {
    package static let shared = BlockingWorkThread(name: "scenehost-spawn")
    /// Spawns of workers, taken in turn: a spawn parks its thread until the child has exec'd
    /// (a few hundred microseconds), and thousands of scenes connecting at once must not wait
    /// for each other's on one thread. Every one of them lives as long as the host, as
    /// `PR_SET_PDEATHSIG` requires of the thread that forks.
    package static let spawns = [shared, BlockingWorkThread(name: "scenehost-spawn2")]
    private static let nextSpawn = Atomic<Int>(0)

    /// The spawn thread whose turn it is.
    package static func spawnThread() -> BlockingWorkThread {
        spawns[nextSpawn.wrappingAdd(1, ordering: .relaxed).oldValue % spawns.count]
    }
    package static let storage = BlockingWorkThread(name: "scenehost-store")
    package static let waits = BlockingWorkThread(name: "scenehost-wait")
    package static let sweeps = BlockingWorkThread(name: "scenehost-sweep")

    private struct State {
        /// FIFO; swapped out whole by the thread.
        package var jobs: [@Sendable () -> Void] = []
        package var started = false
        /// The thread found nothing to do and waits on `wakeUp` (one signal is enough).
        package var sleeping = false
    }

    /// Starts a named thread running a body: `PlatformThread.start`, or a stand-in in tests.
    package typealias Starter = @Sendable (String, @escaping @Sendable () -> Void) throws(ThreadStartError) -> Void

    private let name: String
    private let starter: Starter
    private let state = Locked(State())
    /// Signalled only when the thread sleeps, so its count stays at most 1.
    private let wakeUp = DispatchSemaphore(value: 0)
    /// `pthread_self()` of the thread once it runs.
    private let threadID = Locked<UInt>(0)

    package init(
        name: String,
        starter: @escaping Starter = { name, body throws(ThreadStartError) in
            try PlatformThread.start(name: name, body)
        }
    ) {
        self.name = name
        self.starter = starter
        try? start()
    }

    /// Starts the thread if it is not running yet; a failed start can be retried.
    package func start() throws(ThreadStartError) {
        try state.withLock { (state: inout State) throws(ThreadStartError) in
            guard !state.started else { return }
            // The thread keeps `self` alive, which is fine: instances live as long as the process.
            try starter(name) { [self] in run() }
            state.started = true
        }
    }

    /// Runs `work` on the blocking thread, after the work submitted before it.
    ///
    /// If the thread is not running and still cannot be started (the host is at its thread
    /// limit), `work` runs on the caller rather than never: the caller blocks for its
    /// duration, but nothing waits for ever. Callers that must not run it elsewhere (spawns)
    /// use `trySubmit`.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        do {
            try trySubmit(work)
        } catch {
            work()
        }
    }

    /// Runs `work` on the blocking thread, or throws and runs nothing when the thread is not
    /// running and cannot be started.
    package func trySubmit(_ work: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        try start()
        let mustWake = state.withLock { state in
            state.jobs.append(work)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if mustWake { wakeUp.signal() }
    }

    /// Whether the caller runs on this thread (where waiting for submitted work would deadlock).
    package var isCurrent: Bool {
        threadID.withLock { $0 } == EventLoop.currentThreadID()
    }

    private func run() -> Never {
        threadID.withLock { $0 = EventLoop.currentThreadID() }
        var batch: [@Sendable () -> Void] = []
        while true {
            let found = state.withLock { state in
                if state.jobs.isEmpty {
                    state.sleeping = true
                    return false
                }
                swap(&state.jobs, &batch)
                return true
            }
            guard found else {
                wakeUp.wait()
                continue
            }
            for job in batch { job() }
            batch.removeAll(keepingCapacity: batch.capacity <= 256)
        }
    }
}
