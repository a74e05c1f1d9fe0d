import HostTools
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// An actor that runs on the event loop.
private actor LoopBound {
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        EventLoop.shared.asUnownedSerialExecutor()
    }

    private(set) var seen: [String] = []

    func runsOnTheLoop() -> Bool { EventLoop.shared.inEventLoop }

    func note(_ text: String) { seen.append(text) }
}

/// Logs "step": a nonisolated async function, which runs on the generic executor (with the
/// caller's task executor preference).
@inline(never)
private func nonisolatedStep(_ log: Log<String>) async {
    log.append("step")
}

/// Appends from any thread; read once everything it waited for has happened.
private final class Log<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(5)))
struct EventLoopExecutorTests {
    @Test func anActorWhoseExecutorIsTheLoopRunsOnTheLoopThread() async {
        let actor = LoopBound()
        #expect(await actor.runsOnTheLoop())
        #expect(!EventLoop.shared.inEventLoop)
    }

    @Test func aTaskPreferringTheLoopRunsOnTheLoopThread() async {
        let onLoop = await Task(executorPreference: EventLoop.shared.taskExecutor) {
            EventLoop.shared.inEventLoop
        }.value
        #expect(onLoop)
    }

    /// The loop's task executor is not its serial executor: a task preferring it runs as
    /// nonisolated code, so calling a nonisolated async function (and returning from it) goes
    /// on in place. Run isolated to the loop's serial executor, the call would queue the task
    /// behind the work already queued on the loop.
    @Test func aTaskPreferringTheLoopCallsNonisolatedCodeInPlace() async {
        let log = Log<String>()
        await Task(executorPreference: EventLoop.shared.taskExecutor) {
            EventLoop.shared.execute { log.append("queued") }
            await nonisolatedStep(log)
            log.append("returned")
        }.value
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            EventLoop.shared.execute { done.resume() }
        }
        #expect(log.all == ["step", "returned", "queued"])
    }

    @Test func executedWorkRunsOnTheLoopInFIFOOrder() async {
        let log = Log<Int>()
        let count = 2_000
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<count {
                EventLoop.shared.execute {
                    precondition(EventLoop.shared.inEventLoop)
                    log.append(index)
                    if index == count - 1 { done.resume() }
                }
            }
        }
        #expect(log.all == Array(0..<count))
    }

    @Test func workQueuedFromTheLoopRunsAfterWhatWasQueuedBefore() async {
        let log = Log<String>()
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            // "a" and "b" are both queued from the loop before "a" runs (queued from here,
            // "b" could come after "a" had already queued "c").
            EventLoop.shared.execute {
                EventLoop.shared.execute {
                    log.append("a")
                    EventLoop.shared.execute {
                        log.append("c")
                        done.resume()
                    }
                }
                EventLoop.shared.execute { log.append("b") }
            }
        }
        #expect(log.all == ["a", "b", "c"])
    }

    @Test func aWatchHandlerEntersALoopActorWithAssumeIsolated() async throws {
        let actor = LoopBound()
        let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", "echo out; echo err >&2"])
        let handlersOnLoop = Log<Bool>()
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            EventLoop.shared.watch(
                child,
                onStdout: { bytes in
                    handlersOnLoop.append(EventLoop.shared.inEventLoop)
                    let text = String(decoding: bytes, as: UTF8.self)
                    actor.assumeIsolated { $0.note("stdout \(text)") }
                },
                onStderr: { bytes in
                    handlersOnLoop.append(EventLoop.shared.inEventLoop)
                    let text = String(decoding: bytes, as: UTF8.self)
                    actor.assumeIsolated { $0.note("stderr \(text)") }
                },
                onExit: { _ in
                    handlersOnLoop.append(EventLoop.shared.inEventLoop)
                    actor.assumeIsolated { $0.note("exit") }
                    done.resume()
                }
            )
        }
        #expect(handlersOnLoop.all.allSatisfy { $0 })
        let seen = await actor.seen
        #expect(seen.last == "exit")
        #expect(Set(seen) == ["stdout out\n", "stderr err\n", "exit"])
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() async {
        let log = Log<String>()
        let start = ContinuousClock.now
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            let loop = EventLoop.shared
            // Armed and cancelled in one job on the loop, which fires no timer meanwhile: a
            // slow test thread cannot let the 5 ms one fire before its cancellation.
            loop.execute {
                _ = loop.scheduleTimer(at: start + .milliseconds(30)) { log.append("30") }
                let early = loop.scheduleTimer(at: start + .milliseconds(5)) { log.append("cancelled 5") }
                _ = loop.scheduleTimer(at: start + .milliseconds(10)) { log.append("10") }
                _ = loop.scheduleTimer(at: start + .milliseconds(20)) { log.append("20a") }
                _ = loop.scheduleTimer(at: start + .milliseconds(20)) { log.append("20b") }
                let late = loop.scheduleTimer(at: start + .milliseconds(35)) { log.append("cancelled 35") }
                _ = loop.scheduleTimer(at: start + .milliseconds(40)) {
                    log.append("40")
                    done.resume()
                }
                loop.cancelTimer(early)
                loop.cancelTimer(late)
                loop.cancelTimer(late)  // twice: harmless
            }
        }
        #expect(log.all == ["10", "20a", "20b", "30", "40"])
        #expect(ContinuousClock.now - start >= .milliseconds(40))
    }

    @Test func aTimerThatFellDueWhileTheLoopWasHeldBackFiresAfterWhatCameInMeanwhile() async throws {
        // A loop of its own: on the shared one, the parallel suite's other hosts can keep more
        // than a wait's worth of descriptors ready for eight turns in a row, and then the
        // timers fire before the rest is read, by design (seen once under ASan).
        let loop = EventLoop()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let log = Log<String>()
        let (reader, writer) = (ends[0], ends[1])
        let watchBox = Locked<EventLoop.DescriptorWatchID?>(nil)
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            loop.execute {
                watchBox.withLock {
                    $0 = try? loop.watchReadable(reader) {
                        var byte: UInt8 = 0
                        _ = read(reader, &byte, 1)
                        log.append("readable")
                    }
                }
                let deadline = ContinuousClock.now + .milliseconds(1)
                _ = loop.scheduleTimer(at: deadline) {
                    log.append("timer")
                    done.resume()
                }
                var byte: UInt8 = 1
                _ = write(writer, &byte, 1)
                // This job holds the loop until the deadline has passed (as a long job on a
                // loaded machine does): the byte came in before it, so its handler runs first.
                while ContinuousClock.now <= deadline { sched_yield() }
            }
        }
        if let watch = watchBox.withLock({ $0 }) {
            await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
                loop.execute {
                    loop.unwatch(reader, watch)
                    done.resume()
                }
            }
        }
        #expect(log.all == ["readable", "timer"])
    }

    @Test func aTimerFiresOnTheLoopThreadAndNotBeforeItsDeadline() async {
        let deadline = ContinuousClock.now + .milliseconds(15)
        let (onLoop, firedAt) = await withCheckedContinuationFromAnyThread {
            (done: CheckedContinuation<(Bool, ContinuousClock.Instant), Never>) in
            _ = EventLoop.shared.scheduleTimer(at: deadline) {
                done.resume(returning: (EventLoop.shared.inEventLoop, .now))
            }
        }
        #expect(onLoop)
        #expect(firedAt >= deadline)
    }

    @Test func aDeadlineInThePastFiresOnTheNextTurn() async {
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            _ = EventLoop.shared.scheduleTimer(at: .now - .seconds(1)) { done.resume() }
        }
    }

    @Test func anEarlierTimerWakesALoopSleepingTowardsALaterOne() async {
        let loop = EventLoop.shared
        let far = loop.scheduleTimer(at: .now + .seconds(3600)) {}
        defer { loop.cancelTimer(far) }
        // Let the loop go to sleep towards the far deadline, then arm a near one from here.
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            loop.execute { done.resume() }
        }
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            _ = loop.scheduleTimer(at: .now + .milliseconds(1)) { done.resume() }
        }
    }

    @Test func cancellingAFiredTimerIsHarmless() async {
        let loop = EventLoop.shared
        let (fired, firing) = AsyncStream.makeStream(of: Void.self)
        let id = loop.scheduleTimer(at: .now) {
            firing.yield()
            firing.finish()
        }
        for await _ in fired {}
        loop.cancelTimer(id)
        loop.cancelTimer(id)
    }
}

@Suite struct TimerQueueTests {
    @Test func cancelledTimersAreCompactedSoTheHeapStaysBounded() {
        var queue = TimerQueue()
        let start = LoopInstant.now()
        var live: [EventLoopTimerID] = []
        for index in 0..<10_000 {
            let id = queue.schedule(at: start + .seconds(60 + index)) {}
            if index % 100 == 0 { live.append(id) } else { queue.cancel(id) }
            #expect(queue.storedCount <= max(65, 4 * (queue.liveCount + 1)))
        }
        #expect(queue.liveCount == live.count)
        #expect(queue.popDue(now: start) == nil)
        var fired = 0
        while queue.popDue(now: start + .seconds(100_000)) != nil { fired += 1 }
        #expect(fired == live.count)
        #expect(queue.nextDeadline() == nil)
    }

    @Test func timersWithTheSameDeadlineComeOutInTheOrderArmed() {
        var queue = TimerQueue()
        let deadline = LoopInstant.now()
        let log = Log<Int>()
        for index in 0..<100 {
            _ = queue.schedule(at: deadline) { log.append(index) }
        }
        while let action = queue.popDue(now: deadline) { action() }
        #expect(log.all == Array(0..<100))
    }

    /// The timer descriptor is armed for the earliest deadline and moved only earlier: a
    /// watchdog re-armed later on every request costs no system call, and the loop never
    /// sleeps past a deadline.
    @Test func theTimerDescriptorMovesOnlyEarlier() {
        var state = EventLoopState()
        let base = LoopInstant(nanoseconds: 1_000_000_000)
        func sleepsUntil() -> LoopInstant?? {
            guard case .sleeping(let until) = state.sleep else { return .none }
            return .some(until)
        }
        var wait = EventLoop.prepareToWait(&state)
        #expect(wait.timeout == -1 && wait.arm == nil)
        #expect(sleepsUntil() == .some(nil))

        _ = state.timers.schedule(at: base + .seconds(10)) {}
        wait = EventLoop.prepareToWait(&state)
        #expect(wait.timeout == -1 && wait.arm == base + .seconds(10))
        #expect(sleepsUntil() == base + .seconds(10))

        // A later deadline: the descriptor already expires first.
        state.sleep = .awake
        _ = state.timers.schedule(at: base + .seconds(20)) {}
        wait = EventLoop.prepareToWait(&state)
        #expect(wait.timeout == -1 && wait.arm == nil)

        // An earlier one moves it; cancelled, it still wakes the loop then, once.
        let early = state.timers.schedule(at: base + .seconds(5)) {}
        #expect(EventLoop.prepareToWait(&state).arm == base + .seconds(5))
        state.timers.cancel(early)
        #expect(EventLoop.prepareToWait(&state).arm == nil)
        #expect(sleepsUntil() == base + .seconds(5))
        EventLoop.timerDescriptorExpired(&state)
        #expect(EventLoop.prepareToWait(&state).arm == base + .seconds(10))

        // Jobs waiting: no sleep, and the descriptor is armed all the same.
        state.sleep = .awake
        state.jobs.append(.work {})
        _ = state.timers.schedule(at: base + .seconds(1)) {}
        wait = EventLoop.prepareToWait(&state)
        #expect(wait.timeout == 0 && wait.arm == base + .seconds(1))
        #expect(sleepsUntil() == .none)
    }

    @Test func durationsBecomeWholeNanosecondsRoundedUp() {
        let nanoseconds = LoopInstant.nanoseconds(roundingUp:)
        let oneAttosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
        #expect(nanoseconds(.zero) == 0)
        #expect(nanoseconds(oneAttosecond) == 1)
        #expect(nanoseconds(.nanoseconds(7)) == 7)
        #expect(nanoseconds(.seconds(18) + .microseconds(446_745)) == 18_446_745_000)
        // Either side of 2^73 attoseconds (9,444.732965739 s), where the arithmetic changes width.
        #expect(nanoseconds(.seconds(9444) + .nanoseconds(732_965_739)) == 9_444_732_965_739)
        #expect(nanoseconds(.seconds(9444) + .nanoseconds(732_965_740)) == 9_444_732_965_740)
        #expect(nanoseconds(.seconds(9444) + .nanoseconds(732_965_740) + oneAttosecond) == 9_444_732_965_741)
        #expect(nanoseconds(.seconds(400_000) + .nanoseconds(1)) == 400_000_000_000_001)
        // Negative: rounded up, toward zero.
        #expect(nanoseconds(.nanoseconds(-5)) == -5)
        #expect(nanoseconds(.nanoseconds(-5) + oneAttosecond) == -4)
        // Clamped rather than trapping.
        #expect(nanoseconds(.seconds(Int64.max)) == 1 << 62)
        #expect(nanoseconds(.seconds(Int64.min)) == -(1 << 62))
        #expect((LoopInstant(nanoseconds: (1 << 62) - 1) + .seconds(10)).nanoseconds == 1 << 62)
    }

    /// A `ContinuousClock` deadline becomes a loop deadline at or after it (the two clocks
    /// are the same clock on Linux), equal deadlines equal ones, and later ones later ones:
    /// timers armed for one deadline still fire in the order armed.
    @Test func continuousClockDeadlinesKeepTheirOrderAndAreNeverMovedEarlier() {
        let before = LoopInstant.now()
        let deadline = ContinuousClock.now + .seconds(1)
        let converted = LoopInstant(deadline)
        #expect(converted >= before + .seconds(1))
        #expect(LoopInstant(deadline) == converted)
        #expect(LoopInstant(deadline + .nanoseconds(1)) == converted + .nanoseconds(1))
        #expect(LoopInstant(deadline - .seconds(2)) < converted)
    }
}

@Suite(.timeLimit(.minutes(5)))
struct BlockingWorkThreadTests {
    @Test func workRunsOnTheBlockingThreadInFIFOOrder() async {
        let log = Log<Int>()
        let onThread = Log<Bool>()
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<500 {
                BlockingWorkThread.shared.submit {
                    onThread.append(BlockingWorkThread.shared.isCurrent && !EventLoop.shared.inEventLoop)
                    log.append(index)
                    if index == 499 { done.resume() }
                }
            }
        }
        #expect(log.all == Array(0..<500))
        #expect(onThread.all.allSatisfy { $0 })
        #expect(!BlockingWorkThread.shared.isCurrent)
    }

    @Test func aThreadThatCannotStartFailsTypedAndStartsLater() async throws {
        let failing = Locked(true)
        let thread = BlockingWorkThread(name: "test-block") { name, body throws(ThreadStartError) in
            if failing.withLock({ $0 }) { throw ThreadStartError(name: name, errno: EAGAIN) }
            try PlatformThread.start(name: name, body)
        }
        let ran = Log<String>()
        #expect(throws: ThreadStartError(name: "test-block", errno: EAGAIN)) {
            try thread.trySubmit { ran.append("queued while failing") }
        }
        // `submit` never loses the work: with no thread it runs on the caller.
        thread.submit { ran.append("inline") }
        #expect(ran.all == ["inline"])
        failing.withLock { $0 = false }
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            do {
                try thread.trySubmit {
                    ran.append("on thread \(thread.isCurrent)")
                    done.resume()
                }
            } catch {
                Issue.record("\(error)")
                done.resume()
            }
        }
        #expect(ran.all == ["inline", "on thread true"])
    }

    @Test func aSynchronousSpawnFromTheBlockingThreadRunsInPlace() async throws {
        // Waiting for its own queue would deadlock (the time limit ends the test). The child is
        // handed over under a lock, as the host hands spawns to the loop: ThreadSanitizer does
        // not see a continuation's resume order the blocking thread's writes before the reads.
        let spawned = Locked<Result<ChildProcess, SpawnError>?>(nil)
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            BlockingWorkThread.shared.submit {
                let result = Result { () throws(SpawnError) in try ChildProcess.spawn(argv: ["/bin/true"]) }
                spawned.withLock { $0 = result }
                done.resume()
            }
        }
        let child = try #require(spawned.withLock { $0 }).get()
        let exit = await withCheckedContinuationFromAnyThread { done in
            EventLoop.shared.watch(
                child,
                onStdout: { _ in },
                onStderr: { _ in },
                onExit: { done.resume(returning: $0) }
            )
        }
        #expect(exit == .exited(status: 0))
    }

    @Test func anAsyncSpawnFailureIsTypedAndLeavesNothing() async {
        await #expect(throws: SpawnError(stage: .notFoundInPath, executable: "no-such-scenehost-binary", errno: ENOENT))
        {
            _ = try await ChildProcess.spawn(argv: ["no-such-scenehost-binary"])
        }
    }
}

@Suite(.timeLimit(.minutes(5)))
struct EventLoopDescriptorWatchTests {
    /// A watched pipe's handler runs on the loop thread while it is readable; after
    /// `unwatch` nothing more is called, even with bytes left in the pipe.
    @Test func aWatchedDescriptorIsServedOnTheLoopUntilUnwatched() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let calls = Log<Bool>()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let reader = ends[0]
        let watch = try EventLoop.shared.watchReadable(reader) {
            var byte: UInt8 = 0
            _ = read(reader, &byte, 1)
            calls.append(EventLoop.shared.inEventLoop)
            continuation.yield()
        }
        var one: UInt8 = 1
        _ = write(ends[1], &one, 1)
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(calls.all == [true])
        // Unwatched on the loop thread, then a byte arrives: the handler must not run. A chain
        // of jobs longer than a turn's batches spans a poll that would have seen the byte.
        let writer = ends[1]
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            EventLoop.shared.execute {
                EventLoop.shared.unwatch(reader, watch)
                var byte: UInt8 = 2
                _ = write(writer, &byte, 1)
                resume(done, afterJobs: 32)
            }
        }
        #expect(calls.all == [true])
    }
}

/// Resumes `continuation` from the last of a chain of `count` loop jobs, each queued by the one before.
private func resume(_ continuation: CheckedContinuation<Void, Never>, afterJobs count: Int) {
    guard count > 0 else { return continuation.resume() }
    EventLoop.shared.execute { resume(continuation, afterJobs: count - 1) }
}
