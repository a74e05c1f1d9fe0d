import CSceneHostSys
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// The loop's side of `LoopCPUReservation`: it measures how busy it is, window by window, and
/// pins itself and keeps the workers off its CPU while it is saturated.
extension EventLoop {
    /// What the loop keeps between windows. Touched by the loop thread at the end of each
    /// window (every 50 ms at most) and by `setCPUReservation(allowed:)`.
    package struct CPUReservationState: Sendable {
        package var policy = LoopCPUReservation()
        /// The loop thread's mask when it started: the CPUs the host may use, which workers
        /// inherit and get back.
        package var hostMask: CPUMask?
        /// The loop thread's id (for `setCPUReservation(allowed:)`, from another thread).
        package var loopThreadID: pid_t = 0
        package var allowed = true
        package var windowStart: Int64 = 0
        /// The loop thread's CPU time when the window started.
        package var cpuTimeAtWindowStart: Int64 = 0
    }

    /// The loop thread, as it starts.
    package func startCPUReservation() {
        let mask = CPUMask.ofThread(0)
        cpuReservation.withLock { state in
            state.hostMask = mask
            state.loopThreadID = csh_gettid()
            state.windowStart = LoopInstant.now().nanoseconds
            state.cpuTimeAtWindowStart = Self.threadCPUTime()
        }
    }

    /// The loop thread, once a window has passed (`now`): `polled` nanoseconds of it were
    /// polls for answers. Returns when the next window ends.
    package func cpuReservationWindowEnded(now: LoopInstant, polled: Int64) -> Int64 {
        let cpuTime = Self.threadCPUTime()
        let cpu = csh_sched_getcpu()
        // Acted on under the lock, so that `setCPUReservation` never sees half a change.
        let reserved = cpuReservation.withLock { state in
            let wall = max(1, now.nanoseconds - state.windowStart)
            // Its time on the CPU, less its polls: what it waits for (the CPU, a yield's
            // worker, an answer) is not work, and what else wants its CPU must not keep a
            // reservation alive.
            let busy = Double(max(0, cpuTime - state.cpuTimeAtWindowStart - polled)) / Double(wall)
            state.windowStart = now.nanoseconds
            state.cpuTimeAtWindowStart = cpuTime
            // Forbidden, the policy waits: forbidding it released what it had reserved, and
            // what is reserved now was reserved on purpose (`reserveCPUForTesting`).
            // Only while a host is tuned for throughput: the last one to end released it.
            guard state.allowed, throughputHosts.load(ordering: .relaxed) > 0 else { return false }
            let mayReserve: Bool
            if busy >= LoopCPUReservation.saturated, cpu >= 0, let hostMask = state.hostMask,
                hostMask.count >= 2, hostMask.contains(cpu)
            {
                // Nobody else pinned the loop (the bench's placements do).
                mayReserve = CPUMask.ofThread(0) == hostMask
            } else {
                mayReserve = false
            }
            if let action = state.policy.windowEnded(busy: busy, cpu: cpu, mayReserve: mayReserve),
                let hostMask = state.hostMask
            {
                perform(action, hostMask: hostMask, loopThread: 0)
            }
            if case .reserved = state.policy.state { return true }
            return false
        }
        let windowEnd = now.nanoseconds + LoopCPUReservation.window
        // While reserved, windows go on even when the loop sleeps, so that it lets go.
        if reserved {
            _ = scheduleTimer(at: LoopInstant(nanoseconds: windowEnd)) {}
        }
        return windowEnd
    }

    /// Pins or unpins the loop thread, and has the workers follow (on the sweep thread: a
    /// process's threads are listed in /proc). Called with `cpuReservation`'s lock held.
    private func perform(_ action: LoopCPUReservation.Action, hostMask: CPUMask, loopThread: pid_t) {
        switch action {
        case .reserve(let cpu):
            CPUMask.only(cpu).apply(toThread: loopThread)
            reservationsTaken.add(1, ordering: .sequentiallyConsistent)
            reservedCPU.store(cpu, ordering: .sequentiallyConsistent)
        case .release:
            reservedCPU.store(-1, ordering: .sequentiallyConsistent)
            hostMask.apply(toThread: loopThread)
        }
        BlockingWorkThread.sweeps.submit { [self] in applyCPUReservationToWorkers(hostMask: hostMask) }
    }

    /// Has every worker thread follow the reservation as it is now: off the loop's CPU while
    /// it keeps one, that CPU given back to the threads it was taken from once it does not.
    /// Runs on the sweep thread, one job after another, each reading the reservation when it
    /// runs, so the last word wins.
    private func applyCPUReservationToWorkers(hostMask: CPUMask) {
        guard let givenBack = followReservation(workerThreads(), hostMask: hostMask) else { return }
        // A thread a worker started while the CPU was given back inherited its parent's mask
        // without it, and was not listed: passes go on until one finds none (or a new
        // reservation began), so no worker thread keeps the reservation's mask for good.
        let inherited = hostMask.removing(givenBack.cpu)
        for _ in 0..<8 {
            guard reservedCPU.load(ordering: .sequentiallyConsistent) < 0 else { return }
            var found = false
            for tid in workerThreads() where !givenBack.untouched.contains(tid) {
                guard var mask = CPUMask.ofThread(tid), mask == inherited else { continue }
                mask.insert(givenBack.cpu)
                mask.apply(toThread: tid)
                found = true
            }
            guard found else { return }
        }
    }

    /// Every thread of every worker's whole tree: a launcher that did not exec holds the real
    /// worker, and what a worker starts inherits its mask, and must get the CPU back too.
    private func workerThreads() -> [pid_t] {
        let workers = watches.withLock { table in table.values.filter { $0.child.scheduling == .batch }.map(\.child.pid)
        }
        let processes = ProcessTable.snapshot()
        return workers.flatMap { pid in
            (processes.members(ofTreeAt: pid) ?? [pid]).flatMap { CPUMask.threads(ofProcess: $0) }
        }
    }

    /// A worker just registered: while a CPU is reserved, it keeps off it too.
    package func applyCPUReservation(toNewChild child: ChildProcess) {
        guard child.scheduling == .batch, reservedCPU.load(ordering: .sequentiallyConsistent) >= 0 else { return }
        guard let hostMask = cpuReservation.withLock({ $0.hostMask }) else { return }
        BlockingWorkThread.sweeps.submit { [self] in
            followReservation(CPUMask.threads(ofProcess: child.pid), hostMask: hostMask, newChildOnly: true)
        }
    }

    /// Takes the reserved CPU from each of `threads` whose mask has it and another (a thread
    /// pinned to that CPU alone keeps it), remembering which; or, once nothing is reserved,
    /// gives it back to those, and to threads that appeared since with a mask it was taken
    /// from (inherited: a thread or process a changed one started). What the reservation saw
    /// and did not change it leaves alone: a worker's own `taskset` stays.
    /// Returns the CPU given back and the threads left alone, when this gave one back.
    ///
    /// `newChildOnly`: `threads` are one new child's, and this only keeps them off the CPU
    /// reserved now. When the reservation changed after the child came (ended, or moved), the
    /// change's own pass, queued after this one, follows it for every worker: this one does
    /// nothing, for a give-back here would reach the new child's threads alone and leave the
    /// others with the reservation's mask for good.
    @discardableResult
    private func followReservation(
        _ threads: [pid_t],
        hostMask: CPUMask,
        newChildOnly: Bool = false
    ) -> (cpu: Int32, untouched: Set<pid_t>)? {
        let cpu = reservedCPU.load(ordering: .sequentiallyConsistent)
        return workerThreadsKeptOff.withLock { keptOff -> (cpu: Int32, untouched: Set<pid_t>)? in
            if newChildOnly, cpu < 0 || keptOff.cpu != cpu { return nil }
            var givenBack: (cpu: Int32, untouched: Set<pid_t>)?
            if keptOff.cpu >= 0, keptOff.cpu != cpu {
                let inherited = hostMask.removing(keptOff.cpu)
                for tid in threads where !keptOff.untouched.contains(tid) {
                    guard var mask = CPUMask.ofThread(tid), !mask.contains(keptOff.cpu) else { continue }
                    guard keptOff.changed.contains(tid) || mask == inherited else { continue }
                    mask.insert(keptOff.cpu)
                    mask.apply(toThread: tid)
                }
                givenBack = (keptOff.cpu, keptOff.untouched)
                keptOff = WorkerThreadsKeptOff()
            }
            guard cpu >= 0 else { return givenBack }
            keptOff.cpu = cpu
            let inherited = hostMask.removing(cpu)
            for tid in threads where !keptOff.changed.contains(tid) {
                guard let mask = CPUMask.ofThread(tid) else { continue }
                let without = mask.removing(cpu)
                if mask.contains(cpu), without.count > 0, without.apply(toThread: tid) {
                    keptOff.changed.insert(tid)
                } else if !keptOff.swept || mask != inherited {
                    keptOff.untouched.insert(tid)
                }
            }
            keptOff.swept = true
            return givenBack
        }
    }

    /// Whether a running host asked for `HostTuning.throughput`.
    package var isThroughputTuned: Bool {
        throughputHosts.load(ordering: .relaxed) > 0
    }

    /// A host tuned for throughput starts: the loop polls and may reserve its CPU from now on.
    package func beginThroughputTuning() {
        throughputHosts.add(1, ordering: .relaxed)
        wakeUp()
    }

    /// A host tuned for throughput ended. The last one to end gives a reserved CPU back, and
    /// this returns once the loop and every worker have their CPUs back.
    package func endThroughputTuning() async {
        let remaining = throughputHosts.subtract(1, ordering: .relaxed).newValue
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            cpuReservation.withLock { state in
                if remaining <= 0 { releaseReservation(&state) }
                BlockingWorkThread.sweeps.submit { continuation.resume() }
            }
        }
    }

    /// Gives a reserved CPU back to the workers. Called with `cpuReservation`'s lock held.
    private func releaseReservation(_ state: inout CPUReservationState) {
        guard case .reserved = state.policy.state, let hostMask = state.hostMask else { return }
        state.policy = LoopCPUReservation()
        reservedCPU.store(-1, ordering: .sequentiallyConsistent)
        hostMask.apply(toThread: state.loopThreadID)
        BlockingWorkThread.sweeps.submit { [self] in applyCPUReservationToWorkers(hostMask: hostMask) }
    }

    /// Allows or forbids the loop to reserve its CPU while a host is tuned for throughput;
    /// forbidding it gives a reserved CPU back, and returns once the loop and every worker
    /// have their CPUs back. For code that places the host's threads itself (the bench's
    /// pinned rows).
    package func setCPUReservation(allowed: Bool) async {
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            cpuReservation.withLock { state in
                state.allowed = allowed
                if !allowed { releaseReservation(&state) }
                // After every job submitted before it (a release's, a new worker's): the
                // workers have their last word when this returns.
                BlockingWorkThread.sweeps.submit { continuation.resume() }
            }
        }
    }

    /// Reserves `cpu` for the loop as two saturated windows would, and returns once every
    /// worker keeps off it. For tests, with the reservation forbidden: it then stays until
    /// `setCPUReservation(allowed: false)` is called again (allowed, the policy lets it go
    /// after a second of quiet windows). Whether it reserved the CPU.
    @discardableResult
    package func reserveCPUForTesting(_ cpu: Int32) async -> Bool {
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Bool, Never>) in
            let reserved = cpuReservation.withLock { state -> Bool in
                guard let hostMask = state.hostMask else { return false }
                state.policy = LoopCPUReservation()
                _ = state.policy.windowEnded(busy: 1, cpu: cpu, mayReserve: true)
                guard let action = state.policy.windowEnded(busy: 1, cpu: cpu, mayReserve: true) else { return false }
                perform(action, hostMask: hostMask, loopThread: state.loopThreadID)
                return true
            }
            // As `cpuReservationWindowEnded` does on reserving: the next window ends even if
            // the loop sleeps till then (a window ends at most one window from now), so that
            // an idle loop lets go.
            if reserved {
                let windowEnd = LoopInstant.now().nanoseconds + LoopCPUReservation.window
                _ = scheduleTimer(at: LoopInstant(nanoseconds: windowEnd)) {}
            }
            BlockingWorkThread.sweeps.submit { continuation.resume(returning: reserved) }
        }
    }

    /// Returns once the workers have the masks of the reservation as it was when called
    /// (one registered just before included).
    package func cpuReservationSettled() async {
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            // Under the lock `perform` holds from its store to its submit: a reservation seen
            // ended (`reservedLoopCPU` nil) has its give-back queued before this job.
            cpuReservation.withLock { _ in BlockingWorkThread.sweeps.submit { continuation.resume() } }
        }
    }

    /// The loop thread's id.
    package var loopThreadID: pid_t {
        cpuReservation.withLock { $0.loopThreadID }
    }

    /// The CPUs the host may use (the loop thread's mask when it started), which a reservation
    /// gives back: what the loop's and the workers' masks are whenever none is held.
    package var hostCPUMask: CPUMask? {
        cpuReservation.withLock { $0.hostMask }
    }

    /// The CPU the loop keeps to itself, or nil.
    package var reservedLoopCPU: Int32? {
        let cpu = reservedCPU.load(ordering: .sequentiallyConsistent)
        return cpu < 0 ? nil : cpu
    }

    /// The loop thread's CPU time in nanoseconds.
    private static func threadCPUTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
