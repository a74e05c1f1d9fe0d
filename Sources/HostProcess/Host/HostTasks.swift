/// The host's own background work (carrying out the scene requests apps make, watching the
/// workers' memory) as child tasks of one task the host owns, not as tasks of their own:
/// `quit()` waits for all of them, so none outlives the host or records into a trace that
/// has ended.
///
/// A job submitted before `finish()` runs; one submitted after it is refused. Finishing
/// cancels the jobs still running once every job submitted has started: a job that waits
/// for something (the memory monitor's sleep) ends then, one that carries out requests
/// finishes them (every scene refuses new work by then).
package final class HostTasks: Sendable {
    package typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>.Continuation
    private let runner: Task<Void, Never>

    package init() {
        let (submitted, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        // The one task: the jobs are its children. It ends when the stream does (`finish`, or
        // `deinit` for a host released without quitting).
        runner = Task {
            await withDiscardingTaskGroup { group in
                for await job in submitted { group.addTask(operation: job) }
                group.cancelAll()
            }
        }
    }

    /// A host released without quitting: the stream ends, and with it the task (an iteration
    /// of a stream whose continuation is merely dropped would wait forever).
    deinit {
        jobs.finish()
    }

    /// Runs `job` as a child of the host's task; false, and nothing runs, once `finish()`
    /// was called.
    @discardableResult
    package func run(_ job: @escaping Job) -> Bool {
        if case .terminated = jobs.yield(job) { return false }
        return true
    }

    /// Takes no more jobs and returns once every job has ended.
    package func finish() async {
        jobs.finish()
        await runner.value
    }
}
