import Glibc
import Protocol
import SceneModel

/// The host-wide trace: assigns the global sequence number and the timestamp, queues each
/// event for the trace file and hands it to subscribers, all under one lock so that `seq`
/// order is file order. It sequences and writes, nothing more: each scene's machine has
/// checked its events against the model before they get here (`SceneMachine.record`).
///
/// The file is written by a thread of its own (`TraceFileWriter`), in batches: events are
/// recorded on the event loop, which must not block on a disk or on a pipe whose reader is
/// slow (`--trace /dev/stdout | less`), nor pay a write(2) per event. `fileWritten(within:)`
/// waits until everything recorded so far is in the file.
public final class TraceRecorder: Sendable {
    /// The host's own events the model refused, the first few of them.
    public struct HostDefects: Sendable, Equatable {
        /// How many there were.
        public var count = 0
        /// The first `HostDefects.kept` of them, oldest first.
        public var first: [LifecycleViolation] = []
        /// How many are kept in `first`: one is enough to fail a test, a few help to read it.
        public static let kept = 8
    }

    private struct State: ~Copyable {
        package var nextSeq = 1
        package var hostDefects = HostDefects()
        package var subscribers: [Int: AsyncStream<TraceEvent>.Continuation] = [:]
        package var nextSubscriberID = 0
        /// The events held in memory, oldest first, and roughly what they occupy (against
        /// `historyLimitBytes`).
        package var history = TraceHistory()
        /// Readers of the history waiting for an event after the one they have
        /// (`waitForEvent(after:)`), by waiter id.
        package var eventWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        package var nextWaiterID = 0
        /// Waiters cancelled before they were registered.
        package var cancelledWaiters: Set<Int> = []
        /// Waiters whose continuation is not made yet: only these can be cancelled before
        /// they wait (a cancel after the wait ended has nothing to record, and must not).
        package var unregisteredWaiters: Set<Int> = []
        /// `finish()` ran: waiters return false at once.
        package var isFinished = false
    }

    private let state = Locked(State())
    /// When the recorder started. (Events are stamped from the loop's integer clock: taking a
    /// `Duration`'s 128-bit components cost about 500 instructions per event, an eighth of
    /// recording it.)
    private let start: LoopInstant
    private let file: TraceFileWriter?
    private let keepsHistory: Bool
    private let historyLimitBytes: Int?

    /// Creates a recorder. `path`: where to write JSON Lines (truncated first), or nil.
    /// `keepHistory`: keep events in memory (for `events(fromSeq:)`, timelines and tests);
    /// `historyLimitBytes`: keep only the newest events within about this many bytes (a
    /// long-running host: the file, if any, still has every event), nil for all of them.
    public init(path: String? = nil, keepHistory: Bool = true, historyLimitBytes: Int? = nil) throws(HostError) {
        self.start = LoopInstant.now()
        self.keepsHistory = keepHistory
        self.historyLimitBytes = historyLimitBytes
        if let path {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw HostError.traceFileNotOpened(path: path, reason: String(cString: strerror(errno)))
            }
            self.file = try TraceFileWriter(descriptor: fd, path: path)
        } else {
            self.file = nil
        }
    }

    deinit {
        // Its thread writes what is queued, then closes the file.
        file?.close()
    }

    /// Seconds since the recorder started.
    public var elapsed: Double {
        Double(start.nanoseconds(to: LoopInstant.now())) * 1e-9
    }

    /// Records `event`, assigning `seq` and `t`, and returns it as recorded.
    ///
    /// Consuming: an event handed over as the caller's only reference is stamped in place,
    /// not copied (its storage is a class, copied on write).
    @discardableResult
    public func record(_ event: consuming TraceEvent) -> TraceEvent {
        // Moved, not copied: the caller's only reference is stamped in place.
        var event = consume event
        state.withLock { state in
            // Read under the lock, so that `t` never decreases along `seq`.
            event.time = elapsed
            event.seq = state.nextSeq
            append(event, to: &state)
        }
        return event
    }

    /// Records the events `next` hands out, until it answers nil, as `record` does each, under
    /// one lock and at one time: the events one message of a worker led to (a callback, the
    /// state it leads to, the notifications it posted).
    package func recordRun(_ next: () -> TraceEvent?) {
        state.withLock { state in
            let time = elapsed
            while var event = next() {
                event.time = time
                event.seq = state.nextSeq
                append(event, to: &state)
            }
        }
    }

    /// Counts `violation`, an event of the host's own the model refused (a scene's machine
    /// found it): zero in a correct host, whatever its workers do.
    package func noteHostDefect(_ violation: LifecycleViolation) {
        state.withLock { state in
            state.hostDefects.count += 1
            if state.hostDefects.first.count < HostDefects.kept {
                state.hostDefects.first.append(violation)
            }
        }
    }

    /// The host's own events that the model refused (each recorded as it was, so the trace
    /// fails verification). Zero in a correct host, whatever its workers do.
    public var hostDefects: HostDefects {
        state.withLock { $0.hostDefects }
    }

    private func append(_ event: TraceEvent, to state: inout State) {
        state.nextSeq += 1
        if keepsHistory {
            // Measured once, when the bytes count: the history keeps each event's size for
            // its eviction.
            state.history.append(event, size: historyLimitBytes == nil ? 0 : event.estimatedSize)
            if let historyLimitBytes {
                // The oldest held events go until the newest fits.
                while state.history.bytes > historyLimitBytes, state.history.count > 1 {
                    state.history.removeFirst()
                }
            }
        }
        // Under the lock: the file's order is `seq` order.
        file?.append(event)
        if !state.subscribers.isEmpty {
            for continuation in state.subscribers.values {
                continuation.yield(event)
            }
        }
        if !state.eventWaiters.isEmpty {
            for waiter in state.eventWaiters.values { waiter.resume(returning: true) }
            state.eventWaiters.removeAll()
        }
    }

    /// Returns true once every event recorded before the call is in the trace file (at once
    /// without a file); false when the file ended first (`fileError`), or when `limit`
    /// passed, which ends the file too: a reader that stopped reading cannot hold a quit.
    @discardableResult
    public func fileWritten(within limit: Duration = .seconds(30)) async -> Bool {
        guard let file else { return true }
        return await file.written(within: limit)
    }

    /// The first write to the trace file that failed, if one did: the file holds every event
    /// before it, and no later one.
    public var fileError: HostError? {
        file?.error
    }

    /// Every event held in memory, oldest first: all of them, or the newest within the
    /// history limit (empty unless the recorder keeps history). A copy of the whole history:
    /// readers that serve clients use `heldEvents(fromSeq:maximumBytes:)`.
    public var history: [TraceEvent] {
        state.withLock { $0.history.events }
    }

    /// The `seq` of the oldest event held in memory; nil when none is.
    public var oldestHeldSeq: Int? {
        state.withLock { $0.history.first?.seq }
    }

    /// The `seq` of the last event recorded (0 before the first).
    public var lastSeq: Int {
        state.withLock { $0.nextSeq - 1 }
    }

    /// A slice of the history for a reader that goes through it at its own pace: the held
    /// events from `fromSeq` on (from the oldest held one when `fromSeq` was evicted),
    /// oldest first, as many as fit in about `maximumBytes` (at least one when any is held).
    /// Holding only a batch at a time, however many readers there are and however slowly
    /// they read, is what bounds them: the events themselves are held once, in the history.
    public func heldEvents(fromSeq: Int, maximumBytes: Int) -> [TraceEvent] {
        state.withLock { state in
            var low = state.history.firstPosition(seqAtLeast: fromSeq)
            var batch: [TraceEvent] = []
            var bytes = 0
            while low < state.history.count, batch.isEmpty || bytes < maximumBytes {
                let event = state.history[low]
                bytes += event.estimatedSize
                batch.append(event)
                low += 1
            }
            return batch
        }
    }

    /// What the recorder holds for `waitForEvent(after:)` callers: waiting, cancelled before
    /// they waited, or about to wait (for tests: it must come back to 0).
    package var waiterRecordCount: Int {
        state.withLock { $0.eventWaiters.count + $0.cancelledWaiters.count + $0.unregisteredWaiters.count }
    }

    /// How many `waitForEvent(after:)` callers wait (for tests).
    package var waitingCount: Int { state.withLock { $0.eventWaiters.count } }

    /// Waits until an event after `seq` is recorded: true, or false once the recorder is
    /// finished (or the task is cancelled). Returns at once when there already is one.
    public func waitForEvent(after seq: Int) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            state.unregisteredWaiters.insert(state.nextWaiterID)
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { state in
                    state.unregisteredWaiters.remove(id)
                    let cancelled = state.cancelledWaiters.remove(id) != nil
                    if state.nextSeq - 1 > seq { return true }
                    if state.isFinished || cancelled { return false }
                    state.eventWaiters[id] = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.eventWaiters.removeValue(forKey: id) else {
                    // Not waiting yet: it will find it was cancelled. Else its wait is over.
                    if state.unregisteredWaiters.contains(id) { state.cancelledWaiters.insert(id) }
                    return nil as CheckedContinuation<Bool, Never>?
                }
                return waiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// A live stream of events, starting with every event already recorded whose seq is at
    /// least `fromSeq`. Its buffer has no limit: for a reader that keeps up (tests, tools);
    /// the control server reads with `heldEvents` instead.
    public func events(fromSeq: Int = 1) -> AsyncStream<TraceEvent> {
        let (stream, continuation) = AsyncStream<TraceEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            for event in state.history where event.seq >= fromSeq {
                continuation.yield(event)
            }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscriber's stream, and the trace file (events recorded later are not written).
    public func finish() {
        let (subscribers, waiters) = state.withLock { state in
            let subscribers = state.subscribers.values
            state.subscribers.removeAll()
            state.isFinished = true
            defer { state.eventWaiters.removeAll() }
            return (Array(subscribers), Array(state.eventWaiters.values))
        }
        for continuation in subscribers { continuation.finish() }
        for waiter in waiters { waiter.resume(returning: false) }
        // Nothing more is written: the file's thread writes what is queued, closes the file
        // and ends (`fileWritten` waits for that).
        file?.close()
    }
}
