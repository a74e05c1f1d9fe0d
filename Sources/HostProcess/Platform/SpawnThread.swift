import Dispatch

/// The one thread that performs every spawn.
///
/// Workers arm `PR_SET_PDEATHSIG`, which the kernel fires when the *thread* that forked
/// them exits, not the process. Spawning from a cooperative or Dispatch thread would kill a
/// healthy worker whenever the pool retires that thread, so all spawns funnel through this
/// thread, which lives as long as the process.
final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    private let jobs = Locked<[@Sendable () -> Void]>([])
    /// Counts queued jobs; the thread sleeps on it.
    private let pending = DispatchSemaphore(value: 0)

    private init() {
        // The thread keeps `self` alive, which is fine: there is only the shared instance.
        PlatformThread.startDetached(name: "scenehost-spawn") { [self] in
            while true {
                pending.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
    }

    /// Runs `work` on the spawn thread and blocks the caller until it returns.
    ///
    /// Meant for short work (a spawn takes a few hundred microseconds); must not be called
    /// from `work` itself.
    func perform<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        let outcome = Outcome<Result>()
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                let result = work()
                outcome.value.withLock { $0 = result }
                done.signal()
            }
        }
        pending.signal()
        done.wait()
        return outcome.value.withLock { $0! }
    }

    private final class Outcome<Value: Sendable>: Sendable {
        let value = Locked<Value?>(nil)
    }
}
