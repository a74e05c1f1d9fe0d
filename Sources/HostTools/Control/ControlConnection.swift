import CSceneHostSys
import HostProcess
import Protocol
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// One client of the control server: a non-blocking socket, its output buffer and the
/// requests it has sent that are not answered yet.
///
/// Only the server's loop thread reads; any thread may write (`send`, `reply`) or close.
/// Every use of the descriptor happens under the state lock, and closing marks it -1, so a
/// closed number (perhaps reused by the next accept) is never touched again.
///
/// Memory is bounded: at most `outputLimit` bytes wait for a client that does not read (it
/// is then disconnected), at most `maximumPending` requests or `maximumPendingBytes` of them
/// wait to run (reading pauses), and `events` streams wait for room (`waitForSpace`)
/// instead of growing the buffer. All clients together stay within the server's
/// `ControlBudget`: queued requests are charged to it (the loop thread reserved their bytes
/// when it read them) and so is buffered output; output that does not fit disconnects.
package final class ControlConnection: Sendable {
    /// A frame read from the socket, numbered so that its reply is sent exactly once, in
    /// the frames' order.
    package struct Queued: Sendable {
        package let serial: Int
        package let work: Work

        package enum Work: Sendable {
            /// A request to run.
            case run(ControlRequest)
            /// A frame refused as it was read (not a request, too large, over the budget): its
            /// error reply, encoded, sent in its turn, after the replies of the requests before
            /// it. A client that pipelines tells replies apart by their order when the id is
            /// null. Encoded at once, so that nothing decoded (a large `id`) is held meanwhile.
            case refused([UInt8])
        }
    }

    package static let outputLimit = 4 << 20
    /// `events` streams wait while more than this is buffered...
    package static let highWater = 1 << 20
    /// ...until the buffer is down to this.
    package static let lowWater = 256 << 10
    /// How long an `events` stream may wait for room without the client reading anything.
    package static let defaultStallLimit: Duration = .seconds(10)
    /// A client that reads nothing of its pending output for this long is disconnected.
    private let stallLimit: Duration
    /// Reading pauses at this many unanswered requests...
    package static let maximumPending = 64
    /// ...and resumes below this.
    package static let resumePending = 16
    /// Reading also pauses once the unanswered requests hold this many bytes, decoded (a
    /// request waiting behind a long `waitFor` holds its memory until it runs)...
    package static let maximumPendingBytes = 1 << 20
    /// ...and resumes below this.
    package static let resumePendingBytes = 256 << 10

    /// An unanswered request: its id (for an error reply at shutdown) and what it holds
    /// (its decoded size, at least its frame's), charged to the budget until it is answered.
    /// A refused frame's is its own encoded reply, which a shutdown sends as it is.
    private struct Pending {
        package var id: JSONValue
        package var bytes: Int
        package var refusal: [UInt8]?
    }

    private struct State: ~Copyable {
        package var descriptor: Int32
        package var output: [UInt8] = []
        package var outputStart = 0
        package var isClosed = false
        /// The host disconnected the client (not the client that went away): what it sent
        /// that has not started is dropped (`ControlServer.serve`).
        package var dropsQueuedRequests = false
        /// EOF, a half-close, or an oversized frame: nothing more is read; the connection
        /// closes once every request is answered and the output is flushed.
        package var readEnded = false
        package var readPaused = false
        /// EPOLLOUT is registered.
        package var wantsWrite = false
        /// The epoll interest currently registered.
        package var interest: UInt32
        /// Unanswered requests by serial.
        package var pending: [Int: Pending] = [:]
        /// The sum of `pending`'s bytes.
        package var pendingBytes = 0
        package var nextSerial = 0
        /// What the budget holds for `output` (reserved after each change, see `chargeOutput`).
        package var outputCharged = 0
        package var bytesWritten = 0
        package var spaceWaiter: CheckedContinuation<Bool, Never>?
        /// A stall watcher runs (`watchStall`): one per connection, however many times its
        /// output fills up while it sleeps.
        package var watchingStall = false
        /// The running `events` stream or wait (`sleep`, `waitFor`), cancelled when the
        /// connection closes (requests run in order: at most one).
        package var stream: Task<ControlReply.Result, Never>?
        /// `stream` is a wait (`sleep`, `waitFor`), which the host's quit ends at once.
        package var streamIsWait = false
        /// The last read, reply or write: with nothing pending and nothing buffered since,
        /// the connection is idle.
        package var lastActivity = ContinuousClock.now

        package var buffered: Int { output.count - outputStart }
    }

    package let id: UInt64
    /// Taken while every client slot was busy: it may only `quit` (ControlServer+Linux.swift).
    package let isQuitLane: Bool
    /// Called once, when the connection closes (it frees the client's slot).
    private let onClose: @Sendable () -> Void
    /// Runs when reading resumes after a pause (`enqueue`'s limits), on the replying thread.
    private let onReadResumed: @Sendable () -> Void
    private let epollDescriptor: Int32
    private let budget: ControlBudget
    private let state: Locked<State>
    private let requestContinuation: AsyncStream<Queued>.Continuation
    /// Consumed by the one task that runs this connection's requests in order.
    package let requests: AsyncStream<Queued>

    package static let readInterest = EPOLLIN.rawValue | EPOLLRDHUP.rawValue

    /// Takes ownership of `descriptor`, which the caller has registered with `readInterest`.
    package init(
        id: UInt64,
        descriptor: Int32,
        epollDescriptor: Int32,
        budget: ControlBudget,
        stallLimit: Duration = ControlConnection.defaultStallLimit,
        isQuitLane: Bool = false,
        onClose: @escaping @Sendable () -> Void = {},
        onReadResumed: @escaping @Sendable () -> Void = {}
    ) {
        self.id = id
        self.isQuitLane = isQuitLane
        self.onClose = onClose
        self.onReadResumed = onReadResumed
        self.epollDescriptor = epollDescriptor
        self.budget = budget
        self.stallLimit = stallLimit
        self.state = Locked(State(descriptor: descriptor, interest: Self.readInterest))
        (requests, requestContinuation) = AsyncStream<Queued>.makeStream(bufferingPolicy: .unbounded)
    }

    package var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Whether the host disconnected the client, which was told so (or was not reading):
    /// its requests that have not started are not run. A client that went away itself
    /// still has what it sent run, as a client that writes a request and hangs up expects.
    package var dropsQueuedRequests: Bool { state.withLock { $0.dropsQueuedRequests } }

    /// Whether the loop should read more from the socket now.
    package var wantsRead: Bool { state.withLock { !$0.isClosed && !$0.readEnded && !$0.readPaused } }

    /// Whether the connection reads no more (`endReading`: a half-close, or a frame refused
    /// for good, such as one over the budget); its queued replies may still be unsent.
    package var hasEndedReading: Bool { state.withLock { $0.readEnded } }

    /// No request waits for its reply and nothing waits to be written (or the client is gone).
    package var isIdle: Bool { state.withLock { $0.isClosed || ($0.pending.isEmpty && $0.buffered == 0) } }

    /// How long the connection has been idle (nothing pending, nothing to write, no read),
    /// or nil when it is not.
    package func idleDuration(at now: ContinuousClock.Instant) -> Duration? {
        state.withLock { state in
            guard !state.isClosed, state.pending.isEmpty, state.buffered == 0 else { return nil }
            return now - state.lastActivity
        }
    }

    /// Whether the client has gone (hung up, or the connection broke), asked of the socket
    /// itself: also while reading is paused or a request is running, when the loop does
    /// not read. A half-close (`shutdown(SHUT_WR)`) is not a hang-up: its replies are due.
    package var peerHasHungUp: Bool {
        state.withLock { state in
            guard !state.isClosed else { return true }
            var probe = pollfd(fd: state.descriptor, events: 0, revents: 0)
            return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLHUP | POLLERR) != 0
        }
    }

    /// Output bytes charged to the budget: what closing this connection would free at once.
    package var chargedOutputBytes: Int { state.withLock { $0.outputCharged } }

    // MARK: Reading (loop thread)

    package enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case endOfStream
        case failed
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        state.withLock { state in
            guard !state.isClosed else { return .failed }
            while true {
                let count = Glibc.read(state.descriptor, buffer.baseAddress, buffer.count)
                if count > 0 {
                    state.lastActivity = .now
                    return .bytes(count)
                }
                if count == 0 { return .endOfStream }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed
                }
            }
        }
    }

    /// Queues a request read from the socket, which holds `bytes` (`estimatedSize`). The caller has
    /// reserved those bytes in the budget; on true the connection has taken them over (and
    /// releases them with the reply), on false (closed) the caller keeps them.
    package func enqueue(_ request: ControlRequest, bytes: Int) -> Bool {
        enqueue(.run(request), pending: Pending(id: request.id, bytes: bytes))
    }

    /// Queues the encoded error reply of a frame refused as it was read, to be sent after the
    /// replies of the requests before it. `bytes` as for `enqueue(_:bytes:)`: what the caller
    /// reserved for it (at least the reply's size), which the connection then holds until it
    /// is sent.
    package func enqueue(refusal frame: [UInt8], bytes: Int) -> Bool {
        enqueue(.refused(frame), pending: Pending(id: .null, bytes: bytes, refusal: frame))
    }

    private func enqueue(_ work: Queued.Work, pending: Pending) -> Bool {
        let bytes = pending.bytes
        let serial: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            let serial = state.nextSerial
            state.nextSerial += 1
            state.pending[serial] = pending
            state.pendingBytes += bytes
            if state.pending.count >= Self.maximumPending || state.pendingBytes >= Self.maximumPendingBytes {
                state.readPaused = true
                updateInterest(&state)
            }
            return serial
        }
        guard let serial else { return false }
        requestContinuation.yield(Queued(serial: serial, work: work))
        return true
    }

    /// Reads no more; closes once every request is answered and the output is flushed.
    package func endReading() {
        state.withLock { state in
            state.readEnded = true
            updateInterest(&state)
            closeIfDone(&state)
        }
    }

    // MARK: Writing (any thread)

    /// Sends frames that are not the reply of a queued request: event frames, and the
    /// refusal of a client beyond the connection limit.
    package func send(_ bytes: [UInt8]) {
        state.withLock { state in
            append(bytes, to: &state)
        }
    }

    /// Sends the reply to request `serial`, unless it was already answered (at shutdown).
    package func reply(serial: Int, _ reply: ControlReply) {
        self.reply(serial: serial, frame: reply.frame)
    }

    /// Sends `frame`, the encoded reply to request `serial`, unless it was already answered.
    package func reply(serial: Int, frame: [UInt8]) {
        let resumed = state.withLock { state in
            guard let answered = state.pending.removeValue(forKey: serial) else { return false }
            state.pendingBytes -= answered.bytes
            budget.release(answered.bytes)
            state.lastActivity = .now
            append(frame, to: &state)
            var resumed = false
            if state.readPaused && state.pending.count < Self.resumePending
                && state.pendingBytes < Self.resumePendingBytes
            {
                state.readPaused = false
                updateInterest(&state)
                resumed = !state.isClosed && !state.readEnded
            }
            closeIfDone(&state)
            return resumed
        }
        // Frames read before the pause may wait in the server's decoder, and no new byte may
        // come to wake the loop for them.
        if resumed { onReadResumed() }
    }

    /// Answers every unanswered request with `error` (the host is gone; they will not run).
    package func failPending(_ error: ProtocolError) {
        state.withLock { state in
            for serial in state.pending.keys.sorted() {
                guard let answered = state.pending.removeValue(forKey: serial) else { continue }
                state.pendingBytes -= answered.bytes
                budget.release(answered.bytes)
                // A refused frame keeps its own answer: it was never going to run.
                append(answered.refusal ?? ControlReply(id: answered.id, result: .failure(error)).frame, to: &state)
            }
        }
    }

    /// The socket is writable again (loop thread).
    package func writeReady() {
        state.withLock { state in
            flush(&state)
            closeIfDone(&state)
            chargeOutput(&state)
        }
    }

    /// Returns once fewer than `highWater` bytes are buffered: true, or false when the
    /// connection closed. A client that reads nothing for `stallLimit` is disconnected.
    package func waitForSpace() async -> Bool {
        await withCheckedContinuationFromAnyThread { continuation in
            // The waiter and the watcher are settled under one lock, so a watcher that finds no
            // waiter and ends cannot miss one registering meanwhile.
            let startWatcherAt: Int? = state.withLock { state in
                guard !state.isClosed, state.buffered >= Self.highWater else {
                    continuation.resume(returning: !state.isClosed)
                    return nil
                }
                state.spaceWaiter = continuation
                guard !state.watchingStall else { return nil }
                state.watchingStall = true
                return state.bytesWritten
            }
            if let written = startWatcherAt {
                Task { [weak self] in await self?.watchStall(since: written) }
            }
        }
    }

    private func watchStall(since written: Int) async {
        var last = written
        while true {
            try? await Task.sleep(for: stallLimit)
            let (waiting, now) = state.withLock { state in
                let waiting = state.spaceWaiter != nil
                if !waiting { state.watchingStall = false }
                return (waiting, state.bytesWritten)
            }
            guard waiting else { return }
            if now == last {
                disconnect()
                return
            }
            last = now
        }
    }

    /// Cancels `stream` when the connection closes (at once if it already has); a wait
    /// (`isWait`) also when the host quits (`cancelWait`).
    package func cancelOnClose(_ stream: Task<ControlReply.Result, Never>, isWait: Bool = false) {
        let closed = state.withLock { state in
            if !state.isClosed {
                state.stream = stream
                state.streamIsWait = isWait
            }
            return state.isClosed
        }
        if closed { stream.cancel() }
    }

    /// Ends the wait this connection runs, if any: the host quits, and a `sleep` or a
    /// `waitFor` would only hold the quit until its client is answered anyway.
    package func cancelWait() {
        let wait = state.withLock { state in state.streamIsWait ? state.stream : nil }
        wait?.cancel()
    }

    /// Disconnects now; unsent output is dropped. Idempotent, any thread.
    package func close() {
        state.withLock { state in
            closeNow(&state)
        }
    }

    /// Disconnects a client the host will not serve on (over the buffer budget, not
    /// reading): `close`, and its requests that have not started are not run.
    package func disconnect() {
        state.withLock { state in
            closeNow(&state, dropsQueuedRequests: true)
        }
    }

    // MARK: Under the lock

    private func append(_ bytes: [UInt8], to state: inout State) {
        guard !state.isClosed else { return }
        state.output.append(contentsOf: bytes)
        if !state.wantsWrite { flush(&state) }
        if state.buffered > Self.outputLimit {
            // The client does not read: disconnect it rather than buffer without bound.
            closeNow(&state, dropsQueuedRequests: true)
        }
        chargeOutput(&state)
    }

    /// Brings the budget's charge for the output in line with what is still buffered (most
    /// frames are written at once and never charged). Output the budget has no room for
    /// disconnects the client: it is not reading, and the host already holds as much as it
    /// allows for all clients together.
    private func chargeOutput(_ state: inout State) {
        let held = state.isClosed ? 0 : state.buffered
        if held > state.outputCharged {
            guard budget.reserve(held - state.outputCharged) else {
                closeNow(&state, dropsQueuedRequests: true)  // releases the charge it had
                return
            }
        } else {
            budget.release(state.outputCharged - held)
        }
        state.outputCharged = held
    }

    private func flush(_ state: inout State) {
        guard !state.isClosed else { return }
        while state.buffered > 0 {
            let count = state.output.withUnsafeBytes { bytes in
                Glibc.write(state.descriptor, bytes.baseAddress! + state.outputStart, bytes.count - state.outputStart)
            }
            if count > 0 {
                state.outputStart += count
                state.bytesWritten += count
                state.lastActivity = .now
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            closeNow(&state)  // EPIPE, ECONNRESET: the client is gone
            return
        }
        if state.buffered == 0 {
            state.output.removeAll(keepingCapacity: state.output.capacity <= 64 << 10)
            state.outputStart = 0
        } else if state.outputStart >= 64 << 10 && state.outputStart * 2 >= state.output.count {
            state.output.removeSubrange(..<state.outputStart)
            state.outputStart = 0
        }
        let wantsWrite = state.buffered > 0
        if wantsWrite != state.wantsWrite {
            state.wantsWrite = wantsWrite
            updateInterest(&state)
        }
        if state.buffered < Self.lowWater, let waiter = state.spaceWaiter {
            state.spaceWaiter = nil
            waiter.resume(returning: true)
        }
    }

    private func updateInterest(_ state: inout State) {
        guard !state.isClosed else { return }
        var interest: UInt32 = 0
        if !state.readEnded && !state.readPaused { interest |= Self.readInterest }
        if state.wantsWrite { interest |= EPOLLOUT.rawValue }
        guard interest != state.interest else { return }
        state.interest = interest
        var event = epoll_event()
        event.events = interest
        event.data.u64 = id
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_MOD, state.descriptor, &event)
    }

    private func closeIfDone(_ state: inout State) {
        if state.readEnded && state.pending.isEmpty && state.buffered == 0 { closeNow(&state) }
    }

    private func closeNow(_ state: inout State, dropsQueuedRequests: Bool = false) {
        guard !state.isClosed else { return }
        state.isClosed = true
        state.dropsQueuedRequests = dropsQueuedRequests
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, state.descriptor, nil)
        Glibc.close(state.descriptor)
        state.descriptor = -1
        state.output = []
        state.outputStart = 0
        budget.release(state.outputCharged)
        state.outputCharged = 0
        if let waiter = state.spaceWaiter {
            state.spaceWaiter = nil
            waiter.resume(returning: false)
        }
        state.stream?.cancel()
        state.stream = nil
        // The request running completes (its reply is dropped; a wait ends at once,
        // cancelled); those read but not started still run, unless the host disconnected
        // the client (`dropsQueuedRequests`), their bytes released as they are answered;
        // then the task ends. The slot is free now: what the remaining
        // requests hold stays charged to the budget until they are answered.
        requestContinuation.finish()
        onClose()
    }
}
