/// The event loop as a task executor: a task that prefers it
/// (`withTaskExecutorPreference(EventLoop.shared.taskExecutor)`) runs its nonisolated code on
/// the loop thread, in the loop's FIFO order with the actors' jobs.
///
/// A separate object from the loop's serial executor on purpose. One object serving both
/// roles gets one `enqueue` for both kinds of job, so it must run every job isolated to the
/// loop's serial executor. Nonisolated code that finds itself isolated to a custom executor
/// cannot leave it in place: each call into a nonisolated async function, and each return to
/// one, makes the runtime enqueue the task again. A request on a scene took three loop jobs
/// that way (the caller's call, the continuation's resume, the caller's return); with the
/// jobs told apart, it takes one, the resume.
package final class EventLoopTaskExecutor: TaskExecutor {
    private let queue: Locked<EventLoopState>
    private let wakeDescriptor: Int32

    package init(queue: Locked<EventLoopState>, wakeDescriptor: Int32) {
        self.queue = queue
        self.wakeDescriptor = wakeDescriptor
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        EventLoop.enqueue(.taskJob(UnownedJob(job)), on: queue, waking: wakeDescriptor)
    }

    package func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
