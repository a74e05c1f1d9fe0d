import CSceneHostSys
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

extension EventLoop {
    /// One read buffer for all children; handlers see a slice of it.
    private static let bufferSize = 64 * 1024
    /// Reads per readiness event before moving on, so one chatty worker cannot starve the
    /// others (epoll is level-triggered: the rest comes on the next round).
    private static let readsPerEvent = 16
    /// Reads when draining a dead child. The child's own output is bounded by the pipe
    /// capacity (at most 1 MiB by default, 16 reads); the margin is for data a grandchild
    /// keeps writing, which must not keep the exit from being reported.
    private static let readsWhenDraining = 64

    /// epoll events collected per `epoll_wait`.
    private static let eventsPerWait = 64
    /// Batches of jobs run per turn before the loop polls for I/O again.
    private static let jobBatchesPerTurn = 8

    package convenience init() {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(descriptor >= 0, "epoll_create1 failed: \(String(cString: strerror(errno)))")
        let wake = csh_eventfd()
        precondition(wake >= 0, "eventfd failed: \(String(cString: strerror(errno)))")
        let timer = csh_timerfd()
        precondition(timer >= 0, "timerfd_create failed: \(String(cString: strerror(errno)))")
        for (added, token) in [(wake, Self.wakeToken), (timer, Self.timerToken)] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = token
            precondition(
                epoll_ctl(descriptor, EPOLL_CTL_ADD, added, &event) == 0,
                "epoll_ctl(ADD) of the loop's own descriptor failed: \(String(cString: strerror(errno)))"
            )
        }
        self.init(epollDescriptor: descriptor, wakeDescriptor: wake, timerDescriptor: timer)
        // A failure is reported by `HostThreads.start()`, which the host calls at startup and
        // every spawn calls again: no child is watched before the loop runs.
        try? start()
    }

    /// Starts the loop thread unless it runs already; a failed start can be retried.
    package func start() throws(ThreadStartError) {
        try threadStarted.withLock { (started: inout Bool) throws(ThreadStartError) in
            guard !started else { return }
            // The loop thread keeps `self` alive, which is fine: there is only the shared instance.
            try PlatformThread.start(name: "scenehost-epoll") { [self] in runLoop() }
            started = true
        }
    }

    /// Asks the loop to let other threads on its CPU run before its next poll: a batch child
    /// was just woken, and may be waiting there (`ChildProcess.Scheduling.batch`). Never
    /// preempted by it, the loop would otherwise poll for its answer for a whole window while
    /// it waits for the CPU. `stdinToken`: the child's (nil: not watched). Any thread; a
    /// request the loop sleeps through is dropped.
    package func yieldBeforeNextPoll(answerExpectedAfter stdinToken: UInt64?) {
        var earlier = expectedAnswer.load(ordering: .relaxed)
        while true {
            let next = Self.expectedAnswer(was: earlier, thenWroteTo: stdinToken)
            let (exchanged, found) = expectedAnswer.compareExchange(
                expected: earlier,
                desired: next,
                ordering: .relaxed
            )
            if exchanged { return }
            earlier = found
        }
    }

    /// What `expectedAnswer` becomes when a batch child is written to: the stdout token of
    /// the one child written to since the last poll, else `severalAnswers`.
    package static func expectedAnswer(was earlier: UInt64, thenWroteTo stdinToken: UInt64?) -> UInt64 {
        guard let stdinToken else { return severalAnswers }
        let stdoutToken = stdinToken & ~3 | Source.stdout.rawValue
        return earlier == 0 || earlier == stdoutToken ? stdoutToken : severalAnswers
    }

    /// Wakes the loop thread out of `epoll_wait`. Several writes before it reads coalesce.
    package func wakeUp() {
        Self.wake(wakeDescriptor)
    }

    /// Writes the eventfd `wakeDescriptor`, which wakes the loop from `epoll_wait`.
    package static func wake(_ wakeDescriptor: Int32) {
        var one: UInt64 = 1
        // EAGAIN (counter saturated) still leaves it readable, which is all that matters.
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    package static func currentThreadID() -> UInt {
        UInt(pthread_self())
    }

    package func register(_ watch: Watch) {
        var watch = watch
        let id = watches.withLock { $0.insert(watch) }
        applyCPUReservation(toNewChild: watch.child)
        let descriptors = watch.child.beginWatching(epoll: epollDescriptor, stdinToken: id << 2 | Source.stdin.rawValue)
        watch.pidfd = descriptors.pidfd
        watch.stdout = descriptors.stdout
        watch.stderr = descriptors.stderr
        watches.withLock { $0[id] = watch }
        // The pidfd goes last: once it is registered the loop may reap the child and close the
        // pipes at any moment, and their numbers must not be added after that.
        add(descriptors.stdout, token: id << 2 | Source.stdout.rawValue)
        add(descriptors.stderr, token: id << 2 | Source.stderr.rawValue)
        add(descriptors.pidfd, token: id << 2 | Source.pidfd.rawValue)
    }

    private func add(_ descriptor: Int32, token: UInt64) {
        guard descriptor >= 0 else { return }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            fatalError("epoll_ctl(ADD) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// One turn: sleep until I/O, a job, or the earliest timer; handle the I/O collected; run
    /// the jobs queued so far; fire the timers that are due.
    ///
    /// Everything a turn needs is allocated here once: a steady stream of wake-ups allocates
    /// nothing (a leak or a growth here is paid per round trip, for ever).
    private func runLoop() -> Never {
        loopThread.store(Self.currentThreadID(), ordering: .relaxed)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: Self.eventsPerWait)
        events.initialize(repeating: epoll_event())
        var batch: [EventLoopState.Job] = []
        batch.reserveCapacity(Self.retainedJobCapacity)
        var readAhead = ReadAheadRule()
        var spin = LoopSpin(window: LoopSpin.defaultWindow)
        startCPUReservation()
        var cpuWindowEnd = LoopInstant.now().nanoseconds + LoopCPUReservation.window
        var polledInWindow: Int64 = 0
        var woke = LoopInstant.now()
        // The timer descriptor expired and the timers due by `woke` have not fired yet.
        var timerExpired = false
        while true {
            var count: Int32 = 0
            var waitError: Int32 = 0
            var timeout: Int32 = 0
            var polled: LoopSpin.Wait? = nil
            var skippedEpoll = false
            // Tuned for throughput, and while work keeps following work closely, poll before
            // sleeping: the next answer then finds the loop awake, and its writer wakes no one
            // (LoopSpin). Plain, the loop always sleeps.
            let tuned = throughputHosts.load(ordering: .relaxed) > 0
            // When this turn's work ran out: only the tuned loop's spin needs it (a clock read
            // per turn saved, plain).
            let ranOut = tuned ? LoopInstant.now() : woke
            if tuned, spin.isPolling {
                let poll = poll(
                    into: events,
                    until: LoopInstant(nanoseconds: ranOut.nanoseconds + spin.window),
                    buffer: buffer,
                    mayReadAhead: readAhead.allowsSkip
                )
                (count, waitError, skippedEpoll) = (poll.count, poll.error, poll.skippedEpoll)
                polledInWindow += poll.spun
                polled = count != 0 || poll.workDue ? .polledAndFound : .polledInVain
            }
            if polled == nil || polled == .polledInVain {
                expectedAnswer.store(0, ordering: .relaxed)  // a sleep lets every worker run
                let arm: LoopInstant?
                (timeout, arm) = loopState.withLock { Self.prepareToWait(&$0) }
                if let arm { armTimerDescriptor(for: arm) }
                count = epoll_wait(epollDescriptor, events.baseAddress, Int32(events.count), timeout)
                waitError = errno
            }
            // Timers can be due only once the timer descriptor expired (it is armed no later
            // than the earliest deadline), or tuned, when the poll looks at them itself: only
            // then, or for the CPU reservation's window, does the turn read the clock.
            if !timerExpired, count > 0, Self.timerExpired(in: events, count: Int(count)) {
                timerExpired = true
            }
            if tuned || timerExpired || reservedCPU.load(ordering: .relaxed) >= 0 {
                woke = LoopInstant.now()
            }
            if tuned { spin.turnEnded(polled ?? .slept(nanoseconds: ranOut.nanoseconds(to: woke))) }
            if timeout != 0 {
                loopState.withLock { $0.sleep = .awake }
            }
            // Awake again first: the window's timer must not take the loop for asleep.
            if tuned || reservedCPU.load(ordering: .relaxed) >= 0, woke.nanoseconds >= cpuWindowEnd {
                cpuWindowEnd = cpuReservationWindowEnded(now: woke, polled: polledInWindow)
                polledInWindow = 0
            }
            if count < 0 && waitError != EINTR {
                fatalError("epoll_wait failed: \(String(cString: strerror(waitError)))")
            }
            for index in 0..<max(0, Int(count)) {
                handle(token: events[index].data.u64, buffer: buffer)
            }
            // Jobs queued by jobs (a resumed caller's next request) run in this turn too, up to
            // a bound that keeps a chain of jobs from starving I/O: a poll for them would be a
            // system call per round trip.
            var batches = 0
            while runJobs(swappingWith: &batch), batches < Self.jobBatchesPerTurn {
                batches += 1
            }
            // Only the timers that were due when the wait returned, and only once the wait
            // has said everything it had (not a full batch, not EINTR, not left out): whatever
            // the descriptors said by then has been handled, so a watchdog never fires for an
            // answer that came in before its deadline. A timer that fell due while this turn's
            // jobs ran (a loop held back for long) waits for the next turn, whose wait does not
            // sleep and collects what arrived meanwhile first (ReadAheadRule).
            let waitSaidAll = count >= 0 && Int(count) < events.count
            if readAhead.turnEnded(skippedEpoll: skippedEpoll, waitSaidAll: waitSaidAll), tuned || timerExpired {
                timerExpired = false
                fireDueTimers(dueBy: woke)
            }
        }
    }

    /// Whether the first `count` events include the timer descriptor's.
    private static func timerExpired(in events: UnsafeMutableBufferPointer<epoll_event>, count: Int) -> Bool {
        for index in 0..<count where events[index].data.u64 == timerToken { return true }
        return false
    }

    /// Arms the timer descriptor for `deadline` (`prepareToWait` recorded it). It cannot fail
    /// for a valid descriptor and time; if it did, the loop would miss every timer, so it stops.
    private func armTimerDescriptor(for deadline: LoopInstant) {
        let error = csh_timerfd_arm(timerDescriptor, deadline.nanoseconds)
        precondition(error == 0, "timerfd_settime failed: \(String(cString: strerror(error)))")
    }

    /// Polls the epoll set without sleeping until it reports something, a job is queued, a
    /// timer falls due or `deadline` passes (see `LoopSpin`). The loop stays marked awake
    /// meanwhile, so whoever queues a job does not write the eventfd: the poll sees the queue.
    /// Returns `epoll_wait`'s count and, when it is negative, its errno; whether a job or a
    /// timer is waiting; and whether it left `epoll_wait` out, which only a read-ahead that
    /// delivered an answer does, when a job is then queued and `mayReadAhead` (ReadAheadRule).
    private func poll(
        into events: UnsafeMutableBufferPointer<epoll_event>,
        until deadline: LoopInstant,
        buffer: UnsafeMutableRawBufferPointer,
        mayReadAhead: Bool
    ) -> (count: Int32, error: Int32, workDue: Bool, skippedEpoll: Bool, spun: Int64) {
        let expected = expectedAnswer.exchange(0, ordering: .relaxed)
        if expected != 0 {
            // A batch worker woken onto this CPU runs now, not when the window has passed:
            // its answer is what the poll waits for. Alone on the CPU, this returns at once.
            // (Once per poll: yielding on every turn of it measured slower with 64 scenes.)
            sched_yield()
            if expected != Self.severalAnswers, mayReadAhead {
                // The one worker written to has most likely answered while we yielded: read
                // it without asking epoll first (one system call less per transition). If it
                // has not, the read finds nothing.
                if readAhead(stdoutToken: expected, buffer: buffer), loopState.withLock({ !$0.jobs.isEmpty }) {
                    return (0, 0, true, true, 0)
                }
            }
        }
        // How long it spun in `epoll_wait(0)` (`spun`): waiting, not work, for the CPU
        // reservation. Timed from the first poll that found nothing, so an answer that is
        // already there costs no clock read.
        var spinStart: LoopInstant? = nil
        while true {
            let count = epoll_wait(epollDescriptor, events.baseAddress, Int32(events.count), 0)
            if count != 0 {
                let spun = spinStart.map { $0.nanoseconds(to: LoopInstant.now()) } ?? 0
                return (count, count < 0 ? errno : 0, false, false, spun)
            }
            let now = LoopInstant.now()
            let start = spinStart ?? now
            spinStart = start
            if loopState.withLock({ $0.hasWorkDue(at: now) }) { return (0, 0, true, false, start.nanoseconds(to: now)) }
            if now >= deadline { return (0, 0, false, false, start.nanoseconds(to: now)) }
        }
    }

    /// Reads a child's stdout as an epoll event for it would, but closes nothing at EOF or on
    /// an error: the descriptor may not be in the epoll set yet (`register` adds it after the
    /// watch is stored), and epoll reports the EOF again, level-triggered, for the ordinary
    /// path to close it. A token whose watch is gone finds nothing. Returns whether it
    /// delivered any output.
    private func readAhead(stdoutToken token: UInt64, buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let id = token >> 2
        guard let reader = watches.withLock({ $0[id].map { OutputReader($0, .stdout) } }) else { return false }
        return drain(.stdout, reader, id: id, into: buffer, maxReads: Self.readsPerEvent, closesAtEOF: false)
    }

    private func handle(token: UInt64, buffer: UnsafeMutableRawBufferPointer) {
        if token == Self.wakeToken {
            var value: UInt64 = 0
            _ = read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
            return
        }
        if token == Self.timerToken {
            // Read, so that it is not reported again; the next wait arms it anew.
            var expirations: UInt64 = 0
            _ = read(timerDescriptor, &expirations, MemoryLayout<UInt64>.size)
            loopState.withLock { Self.timerDescriptorExpired(&$0) }
            return
        }
        if token & Self.descriptorTokenFlag != 0 {
            handleDescriptor(token: token)
            return
        }
        let id = token >> 2
        guard let source = Source(rawValue: token & 3) else { return }
        switch source {
        case .stdout, .stderr:
            // Only what a read needs, not the whole watch: its copy cost a retain and a release
            // per closure it holds, on every message.
            let stream: ChildProcess.OutputStream = source == .stdout ? .stdout : .stderr
            guard let reader = watches.withLock({ $0[id].map { OutputReader($0, stream) } }) else {
                return  // the child was reaped earlier in this batch
            }
            drain(stream, reader, id: id, into: buffer, maxReads: Self.readsPerEvent)
        case .pidfd:
            guard let watch = watches.withLock({ $0[id] }) else { return }
            finish(id, watch, buffer: buffer)
        case .stdin:
            guard let child = watches.withLock({ $0[id]?.child }) else { return }
            child.flushStdinBacklog()
        }
    }

    /// A watch's output stream as a read of it needs it.
    private struct OutputReader {
        package var descriptor: Int32
        package var handler: OutputHandler

        package init(_ watch: Watch, _ stream: ChildProcess.OutputStream) {
            descriptor = stream == .stdout ? watch.stdout : watch.stderr
            handler = stream == .stdout ? watch.onStdout : watch.onStderr
        }
    }

    /// Reads `stream` until EAGAIN, EOF or `maxReads`, delivering each chunk; closes it at EOF.
    /// On a readiness event a short read ends the round: a pipe returns less than asked only
    /// when it is empty, so the read that would say EAGAIN is skipped (epoll is level-triggered:
    /// whatever comes next, EOF included, is reported again). A dead child is drained to the end.
    /// `reportsEOF`: call the watch's `onStdoutEOF` at stdout's EOF (not while finishing a dead child).
    /// `closesAtEOF`: false leaves EOF and errors to the next readiness event. Returns whether
    /// it delivered any output.
    @discardableResult
    private func drain(
        _ stream: ChildProcess.OutputStream,
        _ reader: OutputReader,
        id: UInt64,
        into buffer: UnsafeMutableRawBufferPointer,
        maxReads: Int,
        reportsEOF: Bool = true,
        stopsAtShortRead: Bool = true,
        closesAtEOF: Bool = true
    ) -> Bool {
        let descriptor = reader.descriptor
        guard descriptor >= 0 else { return false }
        let handler = reader.handler
        var reads = 0
        while reads < maxReads {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                reads += 1
                handler(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                if stopsAtShortRead && count < buffer.count { return true }
                continue
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return reads > 0 }
            }
            guard closesAtEOF else { return reads > 0 }
            // EOF, or an error no retry will fix.
            _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, nil)
            // Later events of this batch for the closed number must find it closed.
            let watch = watches.withLock { watches in
                if stream == .stdout { watches[id]?.stdout = -1 } else { watches[id]?.stderr = -1 }
                return watches[id]
            }
            guard let watch else { return reads > 0 }
            watch.child.closeOutput(stream)
            if stream == .stdout, reportsEOF, let onStdoutEOF = watch.onStdoutEOF { onStdoutEOF() }
            return reads > 0
        }
        return reads > 0
    }

    /// The pidfd is readable: the child is dead. Deliver what it wrote, reap it, report it.
    private func finish(_ id: UInt64, _ watch: Watch, buffer: UnsafeMutableRawBufferPointer) {
        drain(
            .stdout,
            OutputReader(watch, .stdout),
            id: id,
            into: buffer,
            maxReads: Self.readsWhenDraining,
            reportsEOF: false,
            stopsAtShortRead: false
        )
        drain(
            .stderr,
            OutputReader(watch, .stderr),
            id: id,
            into: buffer,
            maxReads: Self.readsWhenDraining,
            reportsEOF: false,
            stopsAtShortRead: false
        )
        // Dead but not reaped yet: the zombie still holds the group id, so this cannot hit a
        // recycled group. ESRCH (nobody left in the group) is the normal answer.
        if watch.killsProcessGroupAtExit, watch.child.hasExitedUnreaped {
            try? watch.child.sendToProcessGroup(signal: SIGKILL)
        }
        guard let exit = watch.child.reap() else { return }
        // Its last unfinished stderr line, if it was being forwarded.
        StderrForwarder.workerReaped(pid: watch.child.pid)
        // Explicit removal rather than relying on close: a process forked elsewhere in the host
        // and not yet exec'd still shares these descriptions and would keep them registered.
        remove(watch.child.descriptor(of: .stdout))
        remove(watch.child.descriptor(of: .stderr))
        remove(watch.pidfd)
        // A grandchild may still hold the pipes open; their EOF is not worth waiting for.
        watch.child.closeAllDescriptors()
        watches.withLock { $0[id] = nil }
        watch.onExit(exit)
        // What left its process group is still in its cgroup, where it has one: killed off
        // the loop (the cgroup's removal waits for the deaths). After the exit is reported:
        // the sweep's thread wake-up is not on the exit's path.
        if watch.killsProcessGroupAtExit, let cgroup = watch.child.cgroup {
            BlockingWorkThread.sweeps.submit { cgroup.killAllAndRemove() }
        }
    }

    private func remove(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, nil)
    }
}
