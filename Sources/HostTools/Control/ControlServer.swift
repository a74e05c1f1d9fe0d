import HostProcess
import Protocol
import SceneModel
import Synchronization

/// The live control plane of `hostctl serve`: a Unix socket where clients send requests
/// (ControlMessage.swift) that run on `host`.
///
/// The host's event loop (ControlServer+Linux.swift) accepts clients and reads their frames
/// through the server's own epoll set, which it watches beside the workers' pipes: no thread
/// of its own. Each client's requests run in order
/// on a Swift task; replies and event frames are written without blocking from whichever
/// thread produced them. Nothing here blocks the cooperative pool.
///
/// What all clients together can take is bounded, not only what each can: at most
/// `maximumConnections` at once (plus `quitLanes` that may only quit, so the host can
/// always be stopped), idle ones closed after `idleLimit` or to make room, `bufferBudget`
/// bytes held for them in total, and a spare descriptor so that a client arriving when the
/// process is out of descriptors is still answered (CONTROL.md, "Ordering and connections").
///
/// ```swift
/// let server = try ControlServer(host: host, listener: try ControlSocket.listen(path: path))
/// server.start()
/// await server.finished()   // after a `quit` request or `shutdown()`
/// ```
public final class ControlServer: Sendable {
    public let host: SceneHost
    package let listener: ControlListener
    /// The server's own epoll set (the listener and the clients), itself watched by the
    /// host's event loop: the loop thread serves the socket.
    package let epollDescriptor: Int32
    /// The loop thread's state for serving (ControlServer+Linux.swift).
    package let serving = Locked(Serving())
    /// The epoll events of one turn and the read buffer, reused by every turn.
    package let turnBuffers = TurnBuffers()
    package let connections = Locked<[UInt64: ControlConnection]>([:])
    package let nextConnectionID = Atomic<UInt64>(Token.firstConnection)
    /// Clients that hold a slot: from their accept until their connection closes (a hang-up
    /// is noticed even while a request runs; what its queued requests hold stays charged to
    /// the budget until they are answered, and a wait it sent ends at once).
    package let activeClients = Atomic<Int>(0)
    /// Connections taken on the quit lane (while every slot was busy), at most `quitLanes`.
    package let quitLaneClients = Atomic<Int>(0)
    /// Extra connections taken while every slot is busy, for `quit` only: however the slots
    /// are held, a client can always stop the host.
    public static let quitLanes = 2
    /// A quit-lane connection that has not sent its request within this is closed, so that
    /// idle connections cannot hold the lanes either.
    package static let quitLaneIdleLimit: Duration = .seconds(2)
    /// A connection with nothing pending and nothing to write for this long is closed with
    /// error -32005 (`ControlServer.defaultIdleLimit`, 60 s; tests use less).
    package let idleLimit: Duration
    public static let defaultIdleLimit: Duration = .seconds(60)
    /// A client that reads nothing of its pending output for this long is disconnected
    /// (`ControlConnection.defaultStallLimit`, 10 s).
    package let stallLimit: Duration
    /// At most this many clients at once; more are answered with error -32005 and closed.
    /// 256, not more: each takes a descriptor, and under the usual limit of 1024 per process
    /// the workers (four descriptors each) need the rest.
    public static let maximumConnections = 256
    /// The bytes held for all clients together (`ControlBudget`): 64 MiB, room for 64
    /// clients each in the middle of a maximal 1 MiB frame, far above what legitimate
    /// clients hold (requests are small; a `ps` reply or an event batch is about 1 MiB at
    /// most). Beyond it clients are disconnected with error -32005.
    public static let bufferBudget = 64 << 20
    package let budget: ControlBudget

    package enum Phase: Sendable {
        case created, running, quitting, hostStopped, stopping, finished
    }

    private struct Lifecycle: ~Copyable {
        package var phase = Phase.created
        package var hostStoppedWaiters: [CheckedContinuation<Void, Never>] = []
        package var finishedWaiters: [CheckedContinuation<Void, Never>] = []
        /// Running `events --follow` streams, cancelled once the host has stopped.
        package var follows: [UInt64: Task<ControlReply.Result, Never>] = [:]
        package var nextFollowID: UInt64 = 0
    }

    private let lifecycle = Locked(Lifecycle())

    package init(
        host: SceneHost,
        listener: ControlListener,
        epollDescriptor: Int32,
        bufferBudget: Int,
        idleLimit: Duration,
        stallLimit: Duration
    ) {
        self.host = host
        self.idleLimit = idleLimit
        self.stallLimit = stallLimit
        self.budget = ControlBudget(limit: bufferBudget)
        self.listener = listener
        self.epollDescriptor = epollDescriptor
    }

    /// The socket path.
    public var path: String { listener.path }

    /// Epoll tokens below `firstConnection` name the server's own descriptors.
    package enum Token {
        package static let listener: UInt64 = 1
        package static let firstConnection: UInt64 = 16
    }

    // MARK: Running

    /// Starts accepting clients. Call once. Throws `HostError.io` when the host's event loop
    /// cannot be started (the process or thread limit): nothing changed, it may be retried.
    public func start() throws(HostError) {
        let shouldStart = lifecycle.withLock { state in
            guard case .created = state.phase else { return false }
            state.phase = .running
            return true
        }
        guard shouldStart else { return }
        do {
            try startServing()
        } catch {
            lifecycle.withLock { $0.phase = .created }
            throw error
        }
    }

    /// Starts the shutdown (idempotent): the host quits (LIFECYCLE.md §4 for every scene),
    /// `events` streams end, the last replies are flushed, the socket is removed.
    public func shutdown() {
        try? start()  // the loop thread does the final teardown, so it must serve the socket
        let shouldStart = lifecycle.withLock { state in
            switch state.phase {
            case .running:
                state.phase = .quitting
                return true
            default:
                return false
            }
        }
        guard shouldStart else { return }
        Task { await runShutdown() }
    }

    /// Returns once the server has shut down and the socket is gone.
    public func finished() async {
        await withCheckedContinuationFromAnyThread { continuation in
            let done = lifecycle.withLock { state in
                if case .finished = state.phase { return true }
                state.finishedWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func hostStopped() async {
        await withCheckedContinuationFromAnyThread { continuation in
            let done = lifecycle.withLock { state in
                switch state.phase {
                case .hostStopped, .stopping, .finished: return true
                default:
                    state.hostStoppedWaiters.append(continuation)
                    return false
                }
            }
            if done { continuation.resume() }
        }
    }

    private func runShutdown() async {
        // Waits end now, answered "shutting down", instead of holding the connections busy
        // (and the exit with them) until the idle wait below gives up.
        for connection in connections.withLock({ Array($0.values) }) { connection.cancelWait() }
        await host.quit()
        let (waiters, follows) = lifecycle.withLock { state in
            state.phase = .hostStopped
            defer {
                state.hostStoppedWaiters = []
                state.follows = [:]
            }
            return (state.hostStoppedWaiters, Array(state.follows.values))
        }
        for waiter in waiters { waiter.resume() }

        // Let the last replies (the `quit` reply, the ends of event streams: the finished
        // trace ends each once it has sent the last events) reach their clients; a stream
        // still waiting for a client that does not read is cancelled, a request still
        // running (a long `waitFor`) is answered with an error.
        await waitUntilIdle(atMost: .seconds(2))
        for follow in follows { follow.cancel() }
        let shuttingDown = ProtocolError(.operationFailed, HostError.shuttingDown.description)
        for connection in connections.withLock({ Array($0.values) }) { connection.failPending(shuttingDown) }
        await waitUntilIdle(atMost: .milliseconds(500))

        lifecycle.withLock { $0.phase = .stopping }
        await stopServing()
        let finishedWaiters = lifecycle.withLock { state in
            state.phase = .finished
            defer { state.finishedWaiters = [] }
            return state.finishedWaiters
        }
        for waiter in finishedWaiters { waiter.resume() }
    }

    private func waitUntilIdle(atMost limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let idle = connections.withLock { $0.values.allSatisfy(\.isIdle) }
            if idle { return }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    package var currentPhase: Phase { lifecycle.withLock { $0.phase } }

    /// Frees a slot (a connection closed).
    package func releaseSlot(quitLane: Bool) {
        if quitLane {
            quitLaneClients.subtract(1, ordering: .relaxed)
        } else {
            activeClients.subtract(1, ordering: .relaxed)
        }
    }

    package var isStopping: Bool {
        lifecycle.withLock { state in
            switch state.phase {
            case .created, .running: false
            default: true
            }
        }
    }

    /// The most a `ps` reply's rows take on the wire: 1 MiB, a quarter of a client's output
    /// limit, so that `ps` works however many scenes and sessions there are. The rows that
    /// do not fit are left out and counted in the reply (`"omitted"`).
    public static let maximumPsReplyBytes = 1 << 20

    /// The `rows` (sorted by scene) whose JSON fits in `limit` bytes, in order, and how many
    /// were left out: once one does not fit, the rest are left out, except that a row too
    /// big on its own (a worker argv near the frame limit) is skipped and the next ones still
    /// shown, so that one scene cannot hide every other.
    package static func psRows(_ rows: [ControlSceneRow], within limit: Int) -> (shown: [ControlSceneRow], omitted: Int)
    {
        var used = 0
        var shown: [ControlSceneRow] = []
        var scratch: [UInt8] = []
        for row in rows {
            scratch.removeAll(keepingCapacity: true)
            JSONWriter.write(row.json, into: &scratch)
            let size = scratch.count + 1  // the comma
            if size > limit { continue }
            if used + size > limit { break }
            used += size
            shown.append(row)
        }
        return (shown, rows.count - shown.count)
    }

    // MARK: Requests

    /// Runs `connection`'s requests one after another until it closes. A quit-lane
    /// connection may only quit: anything else is answered with -32005 and closes it.
    package func serve(_ connection: ControlConnection) {
        Task {
            for await queued in connection.requests {
                let request: ControlRequest
                switch queued.work {
                case .refused(let frame):
                    connection.reply(serial: queued.serial, frame: frame)
                    continue
                case .run(let queuedRequest):
                    request = queuedRequest
                }
                // A client the host disconnected (told so, as one evicted for the buffer
                // budget is) has nothing more run: a client told to try again later repeats
                // nothing that ran. The answer goes nowhere; it gives the request's bytes back.
                if connection.dropsQueuedRequests {
                    let error = ProtocolError(.resourceExhausted, "the connection closed before this request ran")
                    connection.reply(serial: queued.serial, ControlReply(id: request.id, result: .failure(error)))
                    continue
                }
                if connection.isQuitLane, request.body != .step(.quit) {
                    let message =
                        "too many clients (\(Self.maximumConnections)); while every slot is taken only quit is served; "
                        + "try again later"
                    connection.endReading()
                    connection.reply(
                        serial: queued.serial,
                        ControlReply(
                            id: request.id,
                            result: .failure(ProtocolError(.resourceExhausted, message))
                        )
                    )
                    continue
                }
                var reply = ControlReply(id: request.id, result: await execute(request, for: connection))
                if case .scenes(let rows) = reply.result {
                    let (shown, omitted) = Self.psRows(rows, within: Self.maximumPsReplyBytes)
                    reply = ControlReply(id: reply.id, result: .scenes(shown), omittedRows: omitted)
                }
                connection.reply(serial: queued.serial, reply)
            }
        }
    }

    private func execute(_ request: ControlRequest, for connection: ControlConnection) async -> ControlReply.Result {
        switch request.body {
        case .ps:
            return .scenes(await host.controlRows())  // cut to size by `serve`
        case .events(let fromSeq, let follow):
            return await streamEvents(fromSeq: fromSeq, follow: follow, to: connection)
        case .step(.quit):
            shutdown()
            await hostStopped()
            return .ok
        case .step(let step) where step.isWait:
            // A wait does nothing but wait: it ends when its client goes away, so a client
            // that sends a 24 h `waitFor` and hangs up holds nothing.
            let wait = Task { await self.result(of: step) }
            connection.cancelOnClose(wait, isWait: true)
            // Registered first, checked second: a quit that began meanwhile either found this
            // wait (`runShutdown` cancels it) or is seen here.
            if isStopping { wait.cancel() }
            return await wait.value
        case .step(let step):
            return await result(of: step)
        }
    }

    private func result(of step: Scenario.Step) async -> ControlReply.Result {
        do {
            if case .scene(let scene, .inspect) = step { return .value(try await host.inspect(scene)) }
            try await run(step)
            return .ok
        } catch let error as HostError {
            return .failure(ProtocolError(error.code, error.description))
        } catch is CancellationError {
            // Cancelled by the host's quit (`runShutdown`), or because its client went away.
            let reason =
                isStopping ? "the host is shutting down: the wait ended unfinished" : "cancelled: the client went away"
            return .failure(ProtocolError(.operationFailed, reason))
        } catch {
            return .failure(ProtocolError(.operationFailed, "\(error)"))
        }
    }

    private func run(_ step: Scenario.Step) async throws {
        switch step {
        case .scene(let scene, let op):
            try await host.perform(op, on: scene)
        case .memoryPressure:
            if isStopping { throw HostError.shuttingDown }
            await host.memoryPressure()
        case .waitFor(let scene, let condition, let timeout):
            // Not `host.scene`: a handle pins its scene, and a wait on a name nobody connects
            // must not leave a scene behind.
            try await host.using(scene) { controller in
                let handle = SceneHandle(
                    controller: controller,
                    frameLimit: RequestLimits.frameLimit(host.configuration)
                )
                switch condition {
                case .state(let state): try await handle.waitFor(state, timeout: timeout)
                case .process(let process): try await handle.waitFor(process: process, timeout: timeout)
                }
            }
        case .sleep(let duration):
            try await Task.sleep(for: duration)
        case .quit:
            break  // handled by `execute`
        }
    }

    /// How much of the history an `events` stream takes at a time: what it holds, besides
    /// the output waiting for its client (`ControlConnection.highWater`).
    package static let eventBatchBytes = 64 << 10

    /// Sends `{"event":...}` frames: what the trace holds from `fromSeq` (up to the last
    /// event recorded when the request started), then with `follow` every new event until
    /// the host stops or the client goes away.
    ///
    /// The stream reads the history at the client's pace, a batch at a time: it holds no
    /// copy of the history and no queue of its own, so a client that reads slowly costs
    /// the host one batch and its bounded output, never more. A client so slow that the
    /// history drops events it has not been sent yet is told so (-32005) and dropped.
    private func streamEvents(
        fromSeq: Int,
        follow: Bool,
        to connection: ControlConnection
    ) async -> ControlReply.Result {
        guard follow else {
            return await Self.sendHistory(
                of: host.trace,
                from: fromSeq,
                through: host.trace.lastSeq,
                to: connection,
                budget: budget
            )
        }
        let trace = host.trace
        let budget = budget
        let stream = Task {
            await Self.sendHistory(of: trace, from: fromSeq, through: nil, to: connection, budget: budget)
        }
        // Registered under the lifecycle lock, so a stream is either cancelled by the
        // shutdown or refused here: none can outlive the trace.
        let followID: UInt64? = lifecycle.withLock { state in
            switch state.phase {
            case .created, .running, .quitting:
                let id = state.nextFollowID
                state.nextFollowID += 1
                state.follows[id] = stream
                return id
            default:
                return nil
            }
        }
        guard let followID else {
            stream.cancel()
            return .failure(ProtocolError(.operationFailed, HostError.shuttingDown.description))
        }
        connection.cancelOnClose(stream)
        let result = await stream.value
        lifecycle.withLock { _ = $0.follows.removeValue(forKey: followID) }
        return result
    }

    /// The loop of `streamEvents`: `through` nil follows until the recorder finishes or the
    /// task is cancelled.
    private static func sendHistory(
        of trace: TraceRecorder,
        from fromSeq: Int,
        through lastSeq: Int?,
        to connection: ControlConnection,
        budget: ControlBudget
    ) async -> ControlReply.Result {
        var next = fromSeq
        var hasSent = false
        var finished = false
        var frames: [UInt8] = []
        while !Task.isCancelled {
            if let lastSeq, next > lastSeq { return .ok }
            var batch = trace.heldEvents(fromSeq: next, maximumBytes: eventBatchBytes)
            if hasSent, let first = batch.first, first.seq > next {
                connection.endReading()  // closes once this reply is out
                return .failure(
                    ProtocolError(
                        .resourceExhausted,
                        "events: the client fell behind: events \(next)…\(first.seq - 1) were dropped from the "
                            + "host's history before it read them; ask again from fromSeq \(first.seq)"
                    )
                )
            }
            if let lastSeq { batch = batch.filter { $0.seq <= lastSeq } }
            guard !batch.isEmpty else {
                if lastSeq != nil || finished { return .ok }
                // Nothing new: wait for the next event; once the recorder has finished,
                // look once more for the last events (the host's "stopped").
                if !(await trace.waitForEvent(after: next - 1)) { finished = true }
                continue
            }
            frames.removeAll(keepingCapacity: true)
            for event in batch { ControlServerFrame.eventFrame(event, into: &frames) }
            // The encoded batch is held while the client makes room: charged to the budget
            // like the output it becomes.
            guard budget.reserve(frames.count) else {
                connection.endReading()
                return .failure(
                    ProtocolError(
                        .resourceExhausted,
                        "events: the host's buffer budget for all clients is used up; try again later"
                    )
                )
            }
            let hasRoom = await connection.waitForSpace()
            budget.release(frames.count)  // before `send` charges what it buffers
            guard hasRoom else { return .ok }
            connection.send(frames)
            hasSent = true
            next = batch[batch.count - 1].seq + 1
        }
        return .ok
    }
}

extension Scenario.Step {
    /// `sleep` and `waitFor`: steps that only wait, and change nothing when cancelled.
    fileprivate var isWait: Bool {
        switch self {
        case .sleep, .waitFor: true
        default: false
        }
    }
}
