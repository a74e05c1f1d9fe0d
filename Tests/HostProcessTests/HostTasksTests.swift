import HostTools
import SceneModel
import Testing

@testable import HostProcess

@Suite(.timeLimit(.minutes(5)))
struct HostTasksTests {
    /// A job that waits (as the memory monitor sleeps) is cancelled by `finish()`, which
    /// returns only once the job has run to its end.
    @Test func finishCancelsAWaitingJobAndWaitsForItsEnd() async {
        let tasks = HostTasks()
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let ended = Locked(false)
        #expect(
            tasks.run {
                starting.yield()
                await untilCancelled()
                // Work after the cancellation, on another thread than `finish`'s caller: a
                // `finish` that did not wait for it would return first.
                for _ in 0..<1000 { await Task.yield() }
                ended.withLock { $0 = true }
            }
        )
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        await tasks.finish()
        #expect(ended.withLock { $0 })
        #expect(!tasks.run {})
    }

    /// Jobs submitted before `finish()` all run, even those not started yet.
    @Test func everyJobSubmittedBeforeFinishRuns() async {
        let tasks = HostTasks()
        let count = Locked(0)
        for _ in 0..<100 { tasks.run { count.withLock { $0 += 1 } } }
        await tasks.finish()
        #expect(count.withLock { $0 } == 100)
    }

    /// Released without `finish()` (a host dropped without quitting), the tasks still end: the
    /// waiting job is cancelled. (An iteration of a stream whose continuation is only dropped
    /// would wait forever, a task LeakSanitizer reports at exit.)
    @Test func releasedWithoutFinishingTheJobsEnd() async {
        let (ended, ending) = AsyncStream.makeStream(of: Void.self)
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        do {
            let tasks = HostTasks()
            tasks.run {
                starting.yield()
                await untilCancelled()
                ending.yield()
            }
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
        }
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}

/// Returns once the calling task is cancelled: a job that waits (as the memory monitor's
/// sleep does) and ends only through `finish`'s cancellation, with no clock involved.
private func untilCancelled() async {
    let (never, keeper) = AsyncStream.makeStream(of: Void.self)
    for await _ in never {}  // ends when the task is cancelled: nothing is ever yielded
    keeper.finish()
}
