import Glibc
import Protocol
import Synchronization

/// The host's end of one worker: its process, its pipes and the requests in flight.
///
/// Frames from the worker arrive on the event loop thread (`EventLoop`), which decodes
/// them, records callbacks in the trace (with the state events they define) and resumes
/// the request waiting for a reply. The death of the worker is seen there too, after
/// every byte it wrote has been delivered, so the trace keeps the worker's own order.
final class WorkerConnection: Sendable {
    let scene: String
    let child: ChildProcess
    private let trace: TraceRecorder
    private let forwardsStderr: Bool
    private let onExit: @Sendable (WorkerConnection, WorkerExit) -> Void

    private struct State: ~Copyable {
        var decoder: FrameDecoder
        var output: [UInt8] = []
        var nextRequestID = 1
        var pending: [Int: (op: String, continuation: CheckedContinuation<JSONValue?, any Error>)] = [:]
        /// The activation state as the worker's callbacks have moved it (for state events).
        var activation: ActivationState = .unattached
        var sawReady = false
        /// Set before the host kills the worker, so the death gets the host's reason.
        var killReason: TerminationReason?
        /// Set before a disconnect or terminate request: a clean exit then has this reason.
        var cleanExitReason: TerminationReason?
        var exit: WorkerExit?
        var exitWaiters: [Int: CheckedContinuation<WorkerExit?, Never>] = [:]
        var nextWaiterID = 0
        var violated = false
    }

    private let state: Locked<State>

    var pid: Int32 { child.pid }

    /// Spawns the worker and starts watching it. The hello frame is written at once.
    init(
        scene: String,
        argv: [String],
        environment: [String: String]?,
        maximumFrameSize: Int,
        forwardsStderr: Bool,
        trace: TraceRecorder,
        onExit: @escaping @Sendable (WorkerConnection, WorkerExit) -> Void
    ) throws(HostError) {
        do {
            self.child = try ChildProcess.spawn(argv: argv, environment: environment)
        } catch {
            throw HostError.spawnFailed(scene: scene, message: "\(error)")
        }
        self.scene = scene
        self.trace = trace
        self.forwardsStderr = forwardsStderr
        self.onExit = onExit
        self.state = Locked(State(decoder: FrameDecoder(maximumFrameSize: maximumFrameSize)))
        trace.record(TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: child.pid))
        EventLoop.shared.watch(
            child,
            onStdout: { [self] bytes in self.received(bytes) },
            onStderr: { [self] bytes in self.receivedStderr(bytes) },
            onExit: { [self] exit in self.exited(exit) },
            onStdoutEOF: { [self] in self.stdoutReachedEOF() },
            killsProcessGroupAtExit: true
        )
    }

    // MARK: Requests

    /// Sends `op` and waits for the worker's reply (its `result`, if any).
    ///
    /// When the worker does not reply within `limit`, it is killed with reason `watchdog`.
    func request(
        _ op: WorkerOperation,
        limit: Duration,
        timeoutReason: TerminationReason = .watchdog,
        hello: Bool = false
    ) async throws -> JSONValue? {
        // One shared timer thread rather than a sleeping Task per request (see DeadlineTimer).
        let watchdog = DeadlineTimer.shared.schedule(after: limit) { [self] in
            self.kill(signal: SIGKILLNumber, reason: timeoutReason)
        }
        defer { DeadlineTimer.shared.cancel(watchdog) }
        return try await withCheckedThrowingContinuation { continuation in
            let registered: Result<(id: Int, frames: [UInt8]), HostError> = state.withLock { state in
                if let exit = state.exit {
                    return .failure(HostError.workerExited(scene: scene, op: op.name, reason: exit.reason))
                }
                let id = state.nextRequestID
                state.nextRequestID += 1
                state.output.removeAll(keepingCapacity: true)
                if hello { HostCommand.hello(protocolVersion: ProtocolVersion.current).encode(into: &state.output) }
                HostCommand.request(id: id, op).encode(into: &state.output)
                state.pending[id] = (op.name, continuation)
                return .success((id, state.output))
            }
            switch registered {
            case .failure(let failure):
                continuation.resume(throwing: failure)
            case .success(let (id, frames)):
                // Written outside the state lock: write(2) can wake the worker and lose the CPU
                // to it, and the event loop must not spin on this lock meanwhile. The reply can
                // only come after the write, and a death in between resumes the request once:
                // whoever removes it from `pending` resumes it.
                do {
                    try child.writeToStdin(frames)
                } catch {
                    let pending = state.withLock { $0.pending.removeValue(forKey: id) }
                    pending?.continuation.resume(
                        throwing: HostError.workerError(
                            scene: scene,
                            op: op.name,
                            ProtocolError(.operationFailed, "cannot write to the worker: \(error)")
                        )
                    )
                }
            }
        }
    }

    /// How the worker ended, once it has.
    var recordedExit: WorkerExit? {
        state.withLock { $0.exit }
    }

    /// Records `event` (a host-side process event: `suspended`, `resumed`) unless the
    /// worker's exit is already recorded; false then. Atomic with the exit's recording.
    func recordWhileAlive(_ event: TraceEvent) -> Bool {
        state.withLock { state in
            guard state.exit == nil else { return false }
            trace.record(event)
            return true
        }
    }

    /// Marks the next clean exit (status 0) as `reason` (`disconnected` or `terminated`).
    func expectCleanExit(_ reason: TerminationReason) {
        state.withLock { $0.cleanExitReason = reason }
    }

    /// Signals the worker; its death will be recorded with `reason` (the first reason set wins).
    func kill(signal: Int32, reason: TerminationReason) {
        let alive = state.withLock { state in
            guard state.exit == nil else { return false }
            if state.killReason == nil { state.killReason = reason }
            return true
        }
        guard alive else { return }
        // A stopped worker must be continued for anything but SIGKILL to act.
        try? child.send(signal: signal)
        if signal != SIGKILLNumber { try? child.sendToProcessGroup(signal: SIGCONT) }
    }

    /// Forgets the reason of a signal the worker survived (a caught or ignored SIGTERM), so a
    /// later death gets its own reason.
    func withdrawKillReason() {
        state.withLock { $0.killReason = nil }
    }

    /// Waits until the worker has died and its exit is recorded.
    func waitForExit() async -> WorkerExit {
        // Without a limit the waiter is only ever resumed by the death itself.
        await waitForExit(limit: nil)!
    }

    /// Waits for the worker's death for at most `limit`; nil on timeout (the worker lives on).
    func waitForExit(limit: Duration?) async -> WorkerExit? {
        await withCheckedContinuation { (continuation: CheckedContinuation<WorkerExit?, Never>) in
            let outcome: (exit: WorkerExit?, waiter: Int?) = state.withLock { state in
                if let exit = state.exit { return (exit, nil) }
                let id = state.nextWaiterID
                state.nextWaiterID += 1
                state.exitWaiters[id] = continuation
                return (nil, id)
            }
            guard let waiter = outcome.waiter else {
                continuation.resume(returning: outcome.exit)
                return
            }
            guard let limit else { return }
            Task { [self] in
                try? await Task.sleep(for: limit)
                // Whoever removes the waiter resumes it: the death or this timer, never both.
                if let expired = self.state.withLock({ $0.exitWaiters.removeValue(forKey: waiter) }) {
                    expired.resume(returning: nil)
                }
            }
        }
    }

    // MARK: Event loop side

    private func received(_ bytes: UnsafeRawBufferPointer) {
        var frames: [FrameDecoder.Output] = []
        state.withLock { state in
            guard !state.violated else { return }
            state.decoder.append(bytes)
            while let frame = state.decoder.next() { frames.append(frame) }
        }
        for frame in frames {
            switch frame {
            case .oversized(let length):
                violate("frame of more than \(length) bytes exceeds the maximum frame size")
                return
            case .frame(let bytes):
                let message: WorkerMessage
                do {
                    message = try WorkerMessage(frame: bytes)
                } catch {
                    violate("unreadable frame: \(error.message)")
                    return
                }
                if !handle(message) { return }
            }
        }
    }

    /// Handles one message; false when the worker broke the protocol.
    private func handle(_ message: WorkerMessage) -> Bool {
        switch message {
        case .ready(let version, _):
            let first = state.withLock { state in
                defer { state.sawReady = true }
                return !state.sawReady
            }
            guard first, version == ProtocolVersion.current else {
                if first {
                    violate(
                        "worker speaks protocol \(version), host \(ProtocolVersion.current)",
                        code: .versionMismatch
                    )
                } else {
                    violate("second ready")
                }
                return false
            }
            return true

        case .callback(let callback):
            let current: ActivationState? = state.withLock { $0.sawReady ? $0.activation : nil }
            guard let current else {
                violate("callback before the handshake")
                return false
            }
            let event = TraceEvent(
                kind: .callback,
                scene: scene,
                name: callback.name.rawValue,
                viewController: callback.viewController,
                restoration: callback.restoration,
                notification: callback.notification,
                value: callback.value,
                origin: callback.origin?.rawValue
            )
            guard case .recorded = trace.record(event) else {
                violate("callback \(callback.name) breaks the lifecycle model")
                return false
            }
            if let next = StateDerivation.state(after: callback.name, current: current) {
                state.withLock { $0.activation = next }
                trace.record(TraceEvent(kind: .state, scene: scene, from: current, to: next))
            }
            return true

        case .change:
            violate("app change not supported yet")
            return false

        case .reply(let id, let result):
            guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else {
                violate("reply to unknown request \(id)")
                return false
            }
            pending.continuation.resume(returning: result)
            return true

        case .failure(let id, let error):
            if let id {
                guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else {
                    violate("error for unknown request \(id)")
                    return false
                }
                pending.continuation.resume(throwing: HostError.workerError(scene: scene, op: pending.op, error))
            } else {
                trace.record(
                    TraceEvent(
                        kind: .error,
                        scene: scene,
                        op: "worker",
                        code: error.code.rawValue,
                        message: error.message
                    )
                )
            }
            return true
        }
    }

    func violate(_ message: String, code: ProtocolError.Code = .invalidMessage) {
        let first = state.withLock { state in
            defer { state.violated = true }
            return !state.violated
        }
        guard first else { return }
        trace.record(
            TraceEvent(
                kind: .error,
                scene: scene,
                op: "protocol",
                code: code.rawValue,
                message: "protocol violation by pid \(child.pid): \(message)"
            )
        )
        kill(signal: SIGKILLNumber, reason: .protocolViolation)
    }

    private func receivedStderr(_ bytes: UnsafeRawBufferPointer) {
        guard forwardsStderr, bytes.count > 0 else { return }
        var line = Array("[\(scene) \(child.pid)] ".utf8)
        line.append(contentsOf: bytes)
        if line.last != UInt8(ascii: "\n") { line.append(UInt8(ascii: "\n")) }
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    private func exited(_ childExit: ChildExit) {
        var status: Int32?
        var signal: Int32?
        switch childExit {
        case .exited(let code): status = code
        case .signaled(let number): signal = number
        }
        let (exit, _, pending, waiters) = state.withLock { state in
            let reason: TerminationReason
            if let killReason = state.killReason {
                reason = killReason
            } else if let clean = state.cleanExitReason, status == 0 {
                reason = clean
            } else {
                reason = .unrequested(signal: signal)
            }
            let exit = WorkerExit(pid: child.pid, reason: reason, status: status, signal: signal)
            state.exit = exit
            let pending = state.pending.values
            state.pending.removeAll()
            let waiters = Array(state.exitWaiters.values)
            state.exitWaiters.removeAll()
            let activation = state.activation
            state.activation = .unattached
            // Recorded under the lock: whoever sees `exit` (recordedExit, waitForExit) sees it
            // in the trace too, and `recordWhileAlive` cannot slip an event in after it.
            trace.record(
                TraceEvent(
                    kind: .process,
                    scene: scene,
                    processEvent: .exited,
                    pid: child.pid,
                    reason: exit.reason,
                    status: status,
                    signal: signal.map(SignalNames.name(of:))
                )
            )
            if activation != .unattached {
                trace.record(TraceEvent(kind: .state, scene: scene, from: activation, to: .unattached))
            }
            return (exit, activation, Array(pending), waiters)
        }
        child.closeStdin()
        // The scene's mailbox learns of the death before any request fails with it, so a
        // caller that reacts to the failure is served after the scene has caught up.
        onExit(self, exit)
        for request in pending {
            request.continuation.resume(
                throwing: HostError.workerExited(scene: scene, op: request.op, reason: exit.reason)
            )
        }
        for waiter in waiters { waiter.resume(returning: exit) }
    }
}
