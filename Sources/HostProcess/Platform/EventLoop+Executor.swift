/// The loop as a serial executor: jobs and `execute(_:)` work run on the loop thread in FIFO
/// order, after the I/O events the loop has already collected. An actor whose
/// `unownedExecutor` is `EventLoop.shared.asUnownedSerialExecutor()` runs on the loop thread,
/// so the loop's own handlers (worker output, exits, timers) can enter it synchronously with
/// `assumeIsolated`. Its task executor is a separate object, `taskExecutor`
/// (`EventLoopTaskExecutor` says why).
extension EventLoop: SerialExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueue(.job(UnownedJob(job)))
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` succeed from the loop's handlers, which run outside any task.
    package func checkIsolated() {
        precondition(inEventLoop, "not on the event loop thread")
    }

    package func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }
}

extension EventLoop {
    /// Runs `work` on the loop thread, after the work and I/O events already queued.
    /// Callable from any thread, the loop thread included.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        enqueue(.work(work))
    }

    /// Whether the caller runs on the loop thread.
    package var inEventLoop: Bool {
        loopThread.load(ordering: .relaxed) == Self.currentThreadID()
    }

    /// Queues `job`; the eventfd is written only when the loop sleeps (or has decided to).
    private func enqueue(_ job: EventLoopState.Job) {
        Self.enqueue(job, on: loopState, waking: wakeDescriptor)
    }

    /// Queues `job` on a loop's `queue`, writing its eventfd `wakeDescriptor` only when the
    /// loop sleeps (or has decided to). For the loop's task executor too, which holds these
    /// two rather than the loop.
    package static func enqueue(
        _ job: EventLoopState.Job,
        on queue: Locked<EventLoopState>,
        waking wakeDescriptor: Int32
    ) {
        let mustWake = queue.withLock { state in
            state.jobs.append(job)
            return state.wakeIfSleeping()
        }
        if mustWake { wake(wakeDescriptor) }
    }

    /// Runs one batch of queued jobs: the ones queued when it starts. Jobs they queue run in
    /// the next batch.
    ///
    /// `batch` is the loop thread's spare array, swapped with the queue so that neither side
    /// allocates in the steady state.
    /// Returns whether it ran any.
    @discardableResult
    package func runJobs(swappingWith batch: inout [EventLoopState.Job]) -> Bool {
        loopState.withLock { swap(&$0.jobs, &batch) }
        guard !batch.isEmpty else { return false }
        let serial = asUnownedSerialExecutor()
        let task = taskExecutor.asUnownedTaskExecutor()
        for job in batch {
            switch job {
            case .job(let job): job.runSynchronously(isolatedTo: serial, taskExecutor: task)
            case .taskJob(let job): job.runSynchronously(on: task)
            case .work(let work): work()
            }
        }
        // A burst must not pin its peak capacity for ever.
        if batch.capacity > Self.retainedJobCapacity {
            batch = []
            batch.reserveCapacity(Self.retainedJobCapacity)
        } else {
            batch.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Job slots each of the two queue arrays keeps between bursts.
    package static let retainedJobCapacity = 1024
}
