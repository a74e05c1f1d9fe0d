import CSceneHostSys
import HostProcess
import Protocol
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

extension ControlServer {
    /// Reads per readiness event before moving on to the next client (epoll is level-triggered).
    static let readsPerEvent = 16
    package static let readBufferSize = 64 * 1024
    /// How long the listener stays out of epoll when the process is out of descriptors and
    /// the spare one is gone too, or accept fails otherwise (see `acceptClients`); a closed
    /// client ends it sooner.
    private static let listenerRetryDelay: Duration = .milliseconds(100)

    /// Takes ownership of the listener's descriptor.
    public convenience init(host: SceneHost, listener: ControlListener) throws(ControlSocketError) {
        try self.init(host: host, listener: listener, bufferBudget: Self.bufferBudget)
    }

    /// `bufferBudget`: see `ControlServer.bufferBudget`; `idleLimit`: see `idleLimit` (tests
    /// use smaller ones); `stallLimit`: see `stallLimit`.
    package convenience init(
        host: SceneHost,
        listener: ControlListener,
        bufferBudget: Int,
        idleLimit: Duration = ControlServer.defaultIdleLimit,
        stallLimit: Duration = ControlConnection.defaultStallLimit
    ) throws(ControlSocketError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw ControlSocketError(.runtime, "epoll_create1: \(ControlSocket.errorText())") }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Token.listener
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, listener.descriptor, &event) == 0 else {
            let code = errno
            close(epoll)
            throw ControlSocketError(.runtime, "epoll_ctl: \(ControlSocket.errorText(code))")
        }
        self.init(
            host: host,
            listener: listener,
            epollDescriptor: epoll,
            bufferBudget: bufferBudget,
            idleLimit: idleLimit,
            stallLimit: stallLimit
        )
    }

    /// Puts the server's epoll set into the host's event loop: from now on the loop thread
    /// accepts, reads and sweeps in `turn()`, between its other work.
    package func startServing() throws(HostError) {
        do {
            try EventLoop.shared.start()
        } catch {
            throw HostError.io("cannot start the event loop's thread: \(error)")
        }
        do {
            let watch = try EventLoop.shared.watchReadable(epollDescriptor) { [self] in turn() }
            serving.withLock { $0.watch = watch }
        } catch {
            throw HostError.io("cannot watch the control socket: \(error)")
        }
        // A client may have connected before the watch: the set is level-triggered, so the
        // loop sees it on its next turn.
    }

    /// Closes every connection and the listener and removes the socket file, on the loop
    /// thread; returns once that is done.
    package func stopServing() async {
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            EventLoop.shared.execute { [self] in
                tearDown()
                continuation.resume()
            }
        }
    }

    /// What only the loop thread touches (behind a lock all the same, never contended).
    package struct Serving: Sendable {
        /// Per connection: its frame decoder and the bytes the budget holds for it (its
        /// unfinished frame, once a read is settled).
        package var readers: [UInt64: Reader] = [:]
        /// A descriptor on /dev/null kept for the moment the process runs out: closing it
        /// frees a number to accept a client with and tell it why it is refused (-1 while
        /// given up and not reopened yet).
        package var spare: Int32 = ControlServer.openSpare()
        /// Set while the listener is out of epoll (out of descriptors and no spare): when
        /// to put it back.
        package var listenerResumesAt: ContinuousClock.Instant?
        /// When to look for idle connections next.
        package var nextIdleSweep = ContinuousClock.now
        /// The server's epoll set in the event loop, until the teardown.
        package var watch: EventLoop.DescriptorWatchID?
        /// The loop timer armed for the next sweep or listener resumption, and its deadline.
        package var timer: (id: EventLoopTimerID, at: ContinuousClock.Instant)?
        package var isTornDown = false
    }

    /// Allocated once for the server's life: a loop that allocates per wake-up pays for it
    /// for ever. Only the loop thread touches them, inside `turn()`.
    package final class TurnBuffers: @unchecked Sendable {
        package let bytes = UnsafeMutableRawBufferPointer.allocate(
            byteCount: ControlServer.readBufferSize,
            alignment: 16
        )
        package let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 64)

        package init() {
            events.initialize(repeating: epoll_event())
        }

        deinit {
            bytes.deallocate()
            events.deallocate()
        }
    }

    package struct Reader: Sendable {
        package var decoder = FrameDecoder(maximumFrameSize: FrameLimits.defaultMaximumFrameSize)
        package var charged = 0
    }

    package static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// One turn on the loop thread: the events the server's epoll set has ready (the loop
    /// calls it when the set is readable, and at the timer for sweeps), then the
    /// housekeeping, then the timer for the next.
    private func turn() {
        serving.withLock { (loop: inout Serving) in
            guard !loop.isTornDown else { return }
            let buffer = turnBuffers.bytes
            let events = turnBuffers.events
            let count = epoll_wait(epollDescriptor, events.baseAddress, Int32(events.count), 0)
            var descriptorsFreed = false
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                switch event.data.u64 {
                case Token.listener:
                    acceptClients(&loop)
                default:
                    let id = event.data.u64
                    guard let connection = connections.withLock({ $0[id] }) else {
                        dropReader(id, &loop)
                        continue
                    }
                    let flags = event.events
                    if flags & EPOLLOUT.rawValue != 0 { connection.writeReady() }
                    let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
                    if flags & readable != 0, connection.wantsRead {
                        readRequests(from: connection, &loop, buffer: buffer)
                    }
                    // Both directions gone: no reply can be delivered.
                    if flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { connection.close() }
                    if connection.isClosed {
                        dropReader(id, &loop)
                        connections.withLock { _ = $0.removeValue(forKey: id) }
                        descriptorsFreed = true
                    }
                }
            }
            // Connections closed by other threads (output limit, stalls, write errors).
            if !loop.readers.isEmpty {
                let closed = connections.withLock { connections in
                    let closed = connections.filter { $0.value.isClosed }.map(\.key)
                    for id in closed { connections[id] = nil }
                    return closed
                }
                for id in closed { dropReader(id, &loop) }
                if !closed.isEmpty { descriptorsFreed = true }
            }
            if ContinuousClock.now >= loop.nextIdleSweep {
                if closeIdleConnections(&loop) { descriptorsFreed = true }
            }
            if let resumeAt = loop.listenerResumesAt, descriptorsFreed || ContinuousClock.now >= resumeAt {
                resumeListener(&loop)
            }
            armTimer(&loop)
        }
    }

    /// Arms the loop timer for the next idle sweep (while there are clients) or listener
    /// resumption, unless the one armed is due at that moment already.
    private func armTimer(_ loop: inout Serving) {
        var wakeAt: ContinuousClock.Instant?
        if !loop.readers.isEmpty { wakeAt = loop.nextIdleSweep }
        if let resumeAt = loop.listenerResumesAt { wakeAt = min(wakeAt ?? resumeAt, resumeAt) }
        if let armed = loop.timer, armed.at == wakeAt { return }
        if let armed = loop.timer { EventLoop.shared.cancelTimer(armed.id) }
        loop.timer = nil
        guard let wakeAt else { return }
        let id = EventLoop.shared.scheduleTimer(at: wakeAt) { [weak self] in
            guard let self else { return }
            serving.withLock { $0.timer = nil }
            turn()
        }
        loop.timer = (id, wakeAt)
    }

    /// The start of every -32005 message about the budget.
    private var budgetText: String {
        let limit = budget.limit
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
        return "the host's buffer budget for all clients (\(size)) is used up"
    }

    /// Forgets a connection's reader and returns what the budget held for it.
    private func dropReader(_ id: UInt64, _ loop: inout Serving) {
        guard let reader = loop.readers.removeValue(forKey: id) else { return }
        budget.release(reader.charged)
    }

    private func acceptClients(_ loop: inout Serving) {
        while true {
            // Glibc's module lacks accept4. The window before FD_CLOEXEC is harmless: workers
            // are spawned with every descriptor above 2 closed.
            let descriptor = accept(listener.descriptor, nil, nil)
            if descriptor < 0 {
                switch errno {
                case EINTR, ECONNABORTED:
                    continue
                case EMFILE, ENFILE:
                    // The client stays queued and the listener readable: returning here would
                    // spin (epoll is level-triggered) and leave the client hanging. Refuse it
                    // with the spare descriptor; without one, stop watching for a while.
                    switch refuseWithSpare(&loop) {
                    case .refused: continue
                    case .noneWaiting: return
                    case .failed:
                        pauseListener(&loop)
                        return
                    }
                case EAGAIN, EWOULDBLOCK:
                    return  // all accepted
                default:
                    // ENOBUFS, ENOMEM…: the listener stays readable, so back off rather than spin.
                    pauseListener(&loop)
                    return
                }
            }
            var isQuitLane = false
            if activeClients.load(ordering: .relaxed) >= Self.maximumConnections {
                switch makeRoom(&loop) {
                case .made:
                    break
                case .quitLane:
                    isQuitLane = true
                case .none:
                    refuse(descriptor, "too many clients (\(Self.maximumConnections)); try again later")
                    continue
                }
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let id = nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
            var event = epoll_event()
            event.events = ControlConnection.readInterest
            event.data.u64 = id
            guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                close(descriptor)
                continue
            }
            let connection = ControlConnection(
                id: id,
                descriptor: descriptor,
                epollDescriptor: epollDescriptor,
                budget: budget,
                stallLimit: stallLimit,
                isQuitLane: isQuitLane,
                onClose: { [weak self, isQuitLane] in self?.releaseSlot(quitLane: isQuitLane) },
                onReadResumed: { [weak self] in
                    guard let self else { return }
                    EventLoop.shared.execute { [weak self] in self?.takeFramesLeftBehind(by: id) }
                }
            )
            if isQuitLane {
                quitLaneClients.add(1, ordering: .relaxed)
            } else {
                activeClients.add(1, ordering: .relaxed)
            }
            connections.withLock { $0[id] = connection }
            loop.readers[id] = Reader()
            serve(connection)
        }
    }

    private enum Room {
        /// A slot is free now.
        case made
        /// No slot, but a quit lane: the client may only quit.
        case quitLane
        case none
    }

    /// Every slot is taken: frees one if it can, from clients that hung up (their hang-up
    /// may not have been read yet: a request of theirs may be running, or reading paused),
    /// else from the client idle the longest (disconnected with -32005); else offers a quit
    /// lane while one is free.
    private func makeRoom(_ loop: inout Serving) -> Room {
        let candidates = connections.withLock { Array($0.values) }
        for connection in candidates where !connection.isQuitLane && connection.peerHasHungUp {
            connection.close()
            forget(connection, &loop)
        }
        if activeClients.load(ordering: .relaxed) < Self.maximumConnections { return .made }
        let now = ContinuousClock.now
        var idlest: (connection: ControlConnection, idle: Duration)?
        for connection in candidates where !connection.isQuitLane {
            guard let idle = connection.idleDuration(at: now), idle > (idlest?.idle ?? .zero) else { continue }
            idlest = (connection, idle)
        }
        if let idlest {
            evict(
                idlest.connection,
                "too many clients (\(Self.maximumConnections)); disconnecting the client idle the longest "
                    + "(\(idlest.idle.components.seconds) s) to make room",
                &loop
            )
            return .made
        }
        return quitLaneClients.load(ordering: .relaxed) < Self.quitLanes ? .quitLane : .none
    }

    /// Closes the connections idle beyond their limit (`idleLimit`; `quitLaneIdleLimit` on a
    /// quit lane) with error -32005. True when any was closed.
    private func closeIdleConnections(_ loop: inout Serving) -> Bool {
        let now = ContinuousClock.now
        loop.nextIdleSweep = now + min(idleLimit / 4, .seconds(1))
        var closedAny = false
        for connection in connections.withLock({ Array($0.values) }) {
            let limit = connection.isQuitLane ? Self.quitLaneIdleLimit : idleLimit
            guard let idle = connection.idleDuration(at: now), idle >= limit else { continue }
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
            evict(connection, "idle for more than \(seconds) s; disconnecting", &loop)
            closedAny = true
        }
        return closedAny
    }

    private func forget(_ connection: ControlConnection, _ loop: inout Serving) {
        dropReader(connection.id, &loop)
        connections.withLock { _ = $0.removeValue(forKey: connection.id) }
    }

    private enum SpareOutcome {
        /// A client was accepted with the spare's number and refused.
        case refused
        /// Nobody waits any more. (Out of descriptors, accept fails with EMFILE before it
        /// looks at the queue, so only accepting with the spare tells the queue is empty.)
        case noneWaiting
        /// No spare, or another thread took the freed number first.
        case failed
    }

    /// Out of descriptors: gives up the spare to accept the next client and refuse it.
    private func refuseWithSpare(_ loop: inout Serving) -> SpareOutcome {
        if loop.spare < 0 { loop.spare = Self.openSpare() }  // a descriptor may have freed since
        guard loop.spare >= 0 else { return .failed }
        close(loop.spare)
        loop.spare = -1
        defer { loop.spare = Self.openSpare() }
        while true {
            let descriptor = accept(listener.descriptor, nil, nil)
            if descriptor >= 0 {
                refuse(descriptor, "too many clients: the host is out of file descriptors; try again later")
                return .refused
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .noneWaiting
            default: return .failed
            }
        }
    }

    /// Takes the listener out of epoll so that its pending clients do not wake the loop
    /// over and over; `runLoop` puts it back after `listenerRetryDelay` or as soon as a
    /// client is closed. Those clients wait in the backlog meanwhile (a rare case: it takes
    /// another thread opening a descriptor between the spare's close and the accept, or an
    /// accept failing for want of kernel memory).
    private func pauseListener(_ loop: inout Serving) {
        guard loop.listenerResumesAt == nil else { return }
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, listener.descriptor, nil)
        loop.listenerResumesAt = ContinuousClock.now + Self.listenerRetryDelay
    }

    private func resumeListener(_ loop: inout Serving) {
        loop.listenerResumesAt = nil
        if loop.spare < 0 { loop.spare = Self.openSpare() }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Token.listener
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, listener.descriptor, &event)
    }

    /// Answers a client that is not taken with one error reply (error -32005) and closes it.
    /// The frame is small and the socket new, so one non-blocking send fits; if it does not,
    /// the client sees the connection closed, which is still not a hang.
    private func refuse(_ descriptor: Int32, _ message: String) {
        let frame = ControlReply(id: .null, result: .failure(ProtocolError(.resourceExhausted, message))).frame
        _ = frame.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(descriptor)
    }

    /// What a queued refusal holds besides its encoded reply: its queue entry and its
    /// pending record.
    package static let queuedRefusalOverhead = 256

    /// A frame that holds more than the budget has room for: its refusal is queued (small,
    /// the last of this connection: not charged; an id too large to echo is answered null)
    /// and the connection reads no more.
    func refuseOverBudget(_ connection: ControlConnection, id: JSONValue, held: Int) {
        let message =
            "\(budgetText) by queued requests; this request (about \(held >> 10) KiB decoded) "
            + "was not run; disconnecting; try again later"
        var refusal = ControlReply(id: id, result: .failure(ProtocolError(.resourceExhausted, message))).frame
        if refusal.count > 4096 {
            refusal = ControlReply(id: .null, result: .failure(ProtocolError(.resourceExhausted, message))).frame
        }
        _ = connection.enqueue(refusal: refusal, bytes: 0)
        connection.endReading()
    }

    /// Reserves a read buffer's worth for client `id`. When the budget has no room, the
    /// client holding the most bytes that closing frees at once (its unfinished frame and
    /// unsent output; queued requests still run, so closing frees nothing of theirs) is
    /// disconnected with error -32005, until there is room. False when `id` itself was
    /// disconnected: it held the most, or nobody holds anything that could make room.
    func reserveForRead(by id: UInt64, _ loop: inout Serving) -> Bool {
        while !budget.reserve(Self.readBufferSize) {
            let candidates = connections.withLock { Array($0.values) }
            var victim: (connection: ControlConnection, bytes: Int)?
            for candidate in candidates where !candidate.isClosed {
                let bytes = (loop.readers[candidate.id]?.charged ?? 0) + candidate.chargedOutputBytes
                if bytes > (victim?.bytes ?? 0) { victim = (candidate, bytes) }
            }
            guard let victim else {
                // Everything held is requests that still run: refuse this read.
                if let connection = connections.withLock({ $0[id] }) {
                    evict(connection, "\(budgetText) by queued requests; try again later", &loop)
                }
                return false
            }
            evict(
                victim.connection,
                "\(budgetText); disconnecting the client that holds the most (\(victim.bytes) bytes); try again later",
                &loop
            )
            if victim.connection.id == id { return false }
        }
        return true
    }

    /// Disconnects `connection` at once with error -32005 (the reply gets through unless
    /// output is already waiting for it) and returns what it held.
    private func evict(_ connection: ControlConnection, _ message: String, _ loop: inout Serving) {
        connection.send(ControlReply(id: .null, result: .failure(ProtocolError(.resourceExhausted, message))).frame)
        connection.disconnect()
        dropReader(connection.id, &loop)
        connections.withLock { _ = $0.removeValue(forKey: connection.id) }
    }

    private func tearDown() {
        serving.withLock { (loop: inout Serving) in
            guard !loop.isTornDown else { return }
            loop.isTornDown = true
            if let watch = loop.watch { EventLoop.shared.unwatch(epollDescriptor, watch) }
            if let timer = loop.timer { EventLoop.shared.cancelTimer(timer.id) }
            for connection in connections.withLock({ connections in
                defer { connections = [:] }
                return Array(connections.values)
            }) {
                connection.close()
            }
            for id in Array(loop.readers.keys) { dropReader(id, &loop) }
            if loop.spare >= 0 { close(loop.spare) }
            close(listener.descriptor)
            ControlSocket.remove(listener)
            close(epollDescriptor)
        }
    }
}
