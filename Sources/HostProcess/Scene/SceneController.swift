import Glibc
import Protocol

/// One scene: its session, its worker and its lifecycle, driven by a mailbox.
///
/// Requests and internal events (worker death, suspend timer, background-task deadlines)
/// run strictly one after another, in the order they came, even though the actor itself
/// interleaves at each `await`: `isBusy` says one is in flight, and everything that finds
/// the scene busy, or anything queued, goes into the mailbox, an `AsyncStream` drained by
/// one task. A request that finds the scene idle with nothing queued is carried out at once
/// in the caller's own task, on the actor: the same order, two thread hand-offs fewer
/// (the mailbox task's wake-up and the caller's resumption), which is most of a
/// transition's cost. Status queries and waits are plain actor calls and never wait.
actor SceneController {
    enum Mail: Sendable {
        case request(SceneOperation, CheckedContinuation<Void, any Error>)
        /// A kill the system decides (memory pressure): no callback, the given reason.
        case systemKill(TerminationReason, CheckedContinuation<Void, any Error>)
        case workerExited(ObjectIdentifier)
        case suspendTimer(generation: Int)
        case backgroundTaskExpiring(generation: Int)
        case backgroundTaskDeadline(generation: Int)
        /// Reconnect after an unexpected death (restart policy).
        case restart(background: Bool, root: String)
    }

    private struct Waiter {
        let id: Int
        let predicate: @Sendable (SceneStatus) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    let id: String
    private let context: HostContext
    private let mailbox = SceneMailbox<Mail>()
    /// An operation or an internal event is being carried out (inline or from the mailbox).
    private var isBusy = false
    /// The mailbox task, waiting for the operation in flight to end before its next mail.
    private var mailboxWaitingForIdle: CheckedContinuation<Void, Never>?
    private var lifecycle = SceneLifecycle()
    private var connection: WorkerConnection?
    private var lastExit: WorkerExit?
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0
    private var suspendGeneration = 0
    private var backgroundTaskGeneration = 0
    private var restartPolicy: RestartPolicy?
    private var restartIntensity = RestartIntensity()
    /// Set while an operation that ends the worker on purpose runs: such a death is no reason to restart.
    private var endingWorkerOnPurpose = false
    private var lastWorkerArgv: [String]?

    init(id: String, context: HostContext) {
        self.id = id
        self.context = context
        self.lifecycle.sessionExists = context.sessions.session(id) != nil
        if context.discardedAtLaunch.contains(id) { self.lifecycle.discarded() }
        self.restartPolicy = context.configuration.restartPolicy
        let stream = mailbox.stream
        Task { [self] in
            for await mail in stream {
                await self.handle(mail)
            }
        }
    }

    /// Runs `op` after every operation enqueued before it; throws if it is refused or fails.
    func perform(_ op: SceneOperation) async throws {
        guard !mailbox.isClosed else { throw HostError.shuttingDown }
        guard isBusy || !mailbox.isEmpty else {
            // Idle, nothing queued: nobody can come before this request, so run it here.
            isBusy = true
            defer { becameIdle() }
            try await execute(op)
            return
        }
        try await withCheckedThrowingContinuation { continuation in
            if !mailbox.post(.request(op, continuation)) {
                continuation.resume(throwing: HostError.shuttingDown)
            }
        }
    }

    /// Kills the live worker with SIGKILL and `reason` (no callback), after every operation enqueued before.
    nonisolated func kill(reason: TerminationReason) async throws {
        try await withCheckedThrowingContinuation { continuation in
            if !mailbox.post(.systemKill(reason, continuation)) {
                continuation.resume(throwing: HostError.shuttingDown)
            }
        }
    }

    /// Stops accepting mail once the current work is done.
    nonisolated func close() {
        mailbox.close()
    }

    /// The operation in flight ended: wake the waiters and the mailbox task, if they wait.
    private func becameIdle() {
        isBusy = false
        notifyWaiters()
        if let mailboxTask = mailboxWaitingForIdle {
            mailboxWaitingForIdle = nil
            mailboxTask.resume()
        }
    }

    var status: SceneStatus {
        SceneStatus(
            scene: id,
            activation: lifecycle.activation,
            process: lifecycle.process,
            pid: connection?.pid,
            stack: lifecycle.stack,
            hasBackgroundTask: lifecycle.hasBackgroundTask,
            isDiscarded: lifecycle.isDiscarded,
            lastExit: lastExit
        )
    }

    /// SIGKILLs the live worker now, ahead of the mailbox: the operation in flight (a hung
    /// launch, a transition waiting for its watchdog) fails with the death. A bounded quit
    /// uses it; everything else goes through the mailbox.
    func killAheadOfMailbox(reason: TerminationReason) {
        connection?.kill(signal: SIGKILLNumber, reason: reason)
    }

    func setRestartPolicy(_ policy: RestartPolicy?) {
        restartPolicy = policy
    }

    /// Resident memory of the live worker, in bytes.
    var residentMemoryBytes: Int? {
        connection?.child.residentMemoryBytes()
    }

    /// Waits until `predicate` holds for the scene's status, at most `timeout`.
    func waitUntil(
        _ what: String,
        timeout: Duration?,
        _ predicate: @escaping @Sendable (SceneStatus) -> Bool
    ) async throws {
        if predicate(status) { return }
        let waiterID = nextWaiterID
        nextWaiterID += 1
        // The timer ends with the wait: a 24 h timeout must not outlive a wait that ended
        // sooner. Cancelling the waiting task ends the wait (a control client hung up).
        let timer = timeout.map { timeout in
            Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                await self?.expireWaiter(waiterID, what: what)
            }
        }
        defer { timer?.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                waiters.append(Waiter(id: waiterID, predicate: predicate, continuation: continuation))
            }
        } onCancel: {
            // Runs on the actor after the waiter was added (the append happens before this
            // actor method suspends), so it always finds it, unless it was resolved.
            Task { await self.cancelWaiter(waiterID) }
        }
    }

    private func cancelWaiter(_ waiterID: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == waiterID }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func expireWaiter(_ waiterID: Int, what: String) {
        guard let index = waiters.firstIndex(where: { $0.id == waiterID }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: HostError.timedOut(scene: id, waitingFor: what))
    }

    private func notifyWaiters() {
        guard !waiters.isEmpty else { return }
        let current = status
        waiters.removeAll { waiter in
            guard waiter.predicate(current) else { return false }
            waiter.continuation.resume()
            return true
        }
    }

    // MARK: Mailbox

    private func handle(_ mail: Mail) async {
        while isBusy {
            await withCheckedContinuation { mailboxWaitingForIdle = $0 }
        }
        // Busy before the mail stops counting as queued: no request can slip in between.
        isBusy = true
        mailbox.started()
        defer { becameIdle() }
        switch mail {
        case .request(let op, let continuation):
            do {
                try await execute(op)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .systemKill(let reason, let continuation):
            if lifecycle.hasLiveWorker {
                endingWorkerOnPurpose = true
                try? await run(.signal(SIGKILLNumber, reason), for: .kill(signal: SIGKILLNumber))
                endingWorkerOnPurpose = false
            }
            continuation.resume()
        case .restart(let background, let root):
            guard !lifecycle.hasLiveWorker, !lifecycle.isDiscarded, !context.flags.isQuitting.load(ordering: .relaxed)
            else { break }
            do {
                try await launch(
                    background: background,
                    root: root,
                    argv: lastWorkerArgv ?? context.configuration.worker
                )
            } catch {
                context.trace.record(
                    TraceEvent(
                        kind: .error,
                        scene: id,
                        op: "restart",
                        code: ProtocolError.Code.operationFailed.rawValue,
                        message: "restart failed: \(error)"
                    )
                )
            }
        case .workerExited(let identifier):
            if let connection, ObjectIdentifier(connection) == identifier, let exit = connection.recordedExit {
                workerDied(exit)
            }
        case .suspendTimer(let generation):
            if generation == suspendGeneration, lifecycle.shouldSuspend, let connection {
                try? connection.child.stopProcessGroup()
                if connection.recordWhileAlive(
                    TraceEvent(kind: .process, scene: id, processEvent: .suspended, pid: connection.pid)
                ) {
                    lifecycle.suspended()
                }
            }
        case .backgroundTaskExpiring(let generation):
            if generation == backgroundTaskGeneration, lifecycle.hasBackgroundTask, lifecycle.process == .running {
                _ = try? await send(.expireBackgroundTask)
            }
        case .backgroundTaskDeadline(let generation):
            if generation == backgroundTaskGeneration, lifecycle.hasBackgroundTask, let connection {
                connection.kill(signal: SIGKILLNumber, reason: .backgroundTaskTimeout)
                workerDied(await connection.waitForExit())
            }
        }
    }

    private func execute(_ op: SceneOperation) async throws {
        switch op {
        case .disconnect, .discard, .terminate: endingWorkerOnPurpose = true
        default: break
        }
        defer { endingWorkerOnPurpose = false }
        switch lifecycle.request(op) {
        case .refuse(let reason):
            context.trace.record(
                TraceEvent(
                    kind: .error,
                    scene: id,
                    op: op.name,
                    code: ProtocolError.Code.illegalTransition.rawValue,
                    message: reason
                )
            )
            throw HostError.refused(scene: id, op: op.name, reason: reason)
        case .perform(let steps):
            do {
                for step in steps {
                    try await run(step, for: op)
                    notifyWaiters()
                }
            } catch {
                // `terminate` ends the worker even when a step failed on the way (a write to a
                // worker killed from outside): `quit()` relies on it.
                if case .terminate = op, let connection {
                    workerDied(
                        await exit(
                            of: connection,
                            within: context.configuration.terminateLimit,
                            else: .terminateTimeout
                        )
                    )
                }
                // A step that failed because the worker died (watchdog, kill, crash): the scene
                // is unattached before the caller hears of it, so its next request is judged
                // against the state the death left.
                if let connection, let exit = connection.recordedExit {
                    workerDied(exit)
                }
                throw error
            }
        }
    }

    private func run(_ step: SceneLifecycle.Step, for op: SceneOperation) async throws {
        switch step {
        case .launch(let background, let root):
            // A quit in progress starts no worker: whatever came after it in the mailbox
            // would outlive the quit (its deadline and its wait for every worker).
            guard !context.flags.isQuitting.load(ordering: .relaxed) else { throw HostError.shuttingDown }
            var argv = context.configuration.worker
            if case .connect(_, _, let worker?) = op { argv = worker }
            lastWorkerArgv = argv
            try await launch(background: background, root: root, argv: argv)

        case .resume:
            guard let connection else { return }
            try? connection.child.sendToProcessGroup(signal: SIGCONT)
            // A worker killed while suspended must not be reported resumed after its exit.
            guard
                connection.recordWhileAlive(
                    TraceEvent(kind: .process, scene: id, processEvent: .resumed, pid: connection.pid)
                )
            else {
                workerDied(await connection.waitForExit())
                throw HostError.workerExited(scene: id, op: op.name, reason: lastExit?.reason ?? .killed)
            }
            lifecycle.resumed()

        case .deliverQueuedNotifications:
            for notification in lifecycle.takeQueuedNotifications() {
                try await send(.notify(name: notification.name, value: notification.value))
            }

        case .send(let workerOperation):
            try await send(workerOperation)

        case .disconnectWorker:
            guard let connection else { return }
            connection.expectCleanExit(.disconnected)
            try await send(.disconnect)
            workerDied(await exit(of: connection, within: context.configuration.transitionLimit, else: .watchdog))

        case .terminateWorker:
            guard let connection else { return }
            connection.expectCleanExit(.terminated)
            let limit = context.configuration.terminateLimit
            _ = try? await connection.request(.terminate, limit: limit, timeoutReason: .terminateTimeout)
            workerDied(await exit(of: connection, within: limit, else: .terminateTimeout))

        case .signal(let signal, let reason):
            guard let connection else { return }
            connection.kill(signal: signal, reason: reason)
            if signal == SIGKILLNumber {
                workerDied(await connection.waitForExit())
            } else if let exit = await connection.waitForExit(limit: context.configuration.terminateLimit) {
                workerDied(exit)
            } else {
                connection.withdrawKillReason()
            }

        case .discardSession:
            context.trace.record(
                TraceEvent(kind: .callback, scene: id, name: CallbackName.didDiscardSceneSessions.rawValue)
            )
            context.sessions.delete(id)
            lifecycle.discarded()

        case .queueNotification(let name, let value):
            lifecycle.queue(notification: name, value: value)
        }
    }

    private func launch(background: Bool, root: String, argv: [String]) async throws {
        let session = context.sessions.session(id) ?? SceneSession(identifier: id)
        let reconnect = lifecycle.sessionExists
        if !reconnect {
            try context.sessions.save(session)
            lifecycle.sessionSaved()
        }
        let options = ConnectOptions(
            session: id,
            configuration: session.configuration,
            role: session.role,
            background: background,
            root: root,
            reconnect: reconnect,
            restoration: session.restoration
        )
        lifecycle.launching(root: root)
        let mailbox = self.mailbox
        let connection: WorkerConnection
        do {
            connection = try WorkerConnection(
                scene: id,
                argv: argv,
                environment: nil,
                maximumFrameSize: context.configuration.maximumFrameSize,
                forwardsStderr: context.configuration.forwardsWorkerStderr,
                trace: context.trace,
                onExit: { [mailbox] connection, _ in mailbox.post(.workerExited(ObjectIdentifier(connection))) }
            )
        } catch {
            lifecycle.processExited()
            throw error
        }
        self.connection = connection
        let result = try await connection.request(
            .connect(options),
            limit: context.configuration.launchLimit,
            hello: true
        )
        lifecycle.completed(.connect(options))
        if background { try storeRestoration(result) }
        scheduleSuspensionIfIdle()
    }

    /// Sends one operation to the live worker and applies its completion.
    @discardableResult
    private func send(_ op: WorkerOperation) async throws -> JSONValue? {
        guard let connection else {
            throw HostError.workerExited(scene: id, op: op.name, reason: lastExit?.reason ?? .crashed)
        }
        let result = try await connection.request(op, limit: context.configuration.transitionLimit)
        lifecycle.completed(op)
        switch op {
        case .enterBackground:
            try storeRestoration(result)
            scheduleSuspensionIfIdle()
        case .enterForeground:
            suspendGeneration += 1
        case .beginBackgroundTask:
            startBackgroundTaskTimers()
        case .endBackgroundTask:
            backgroundTaskGeneration += 1
            scheduleSuspensionIfIdle()
        default:
            break
        }
        return result
    }

    /// Stores the worker's restoration state durably; the transition counts as done only after.
    private func storeRestoration(_ result: JSONValue?) throws {
        guard let result else { return }
        var session = context.sessions.session(id) ?? SceneSession(identifier: id)
        session.restoration = result
        try context.sessions.save(session)
    }

    private func exit(
        of connection: WorkerConnection,
        within limit: Duration,
        else reason: TerminationReason
    ) async -> WorkerExit {
        if let exit = await connection.waitForExit(limit: limit) { return exit }
        connection.kill(signal: SIGKILLNumber, reason: reason)
        return await connection.waitForExit()
    }

    /// The worker is gone: the scene is unattached and the session keeps its stored state.
    private func workerDied(_ exit: WorkerExit) {
        guard connection != nil else { return }
        let background = lifecycle.activation == .background
        let root = lifecycle.stack.first ?? "Root"
        connection = nil
        lastExit = exit
        lifecycle.processExited()
        suspendGeneration += 1
        backgroundTaskGeneration += 1
        considerRestart(after: exit, background: background, root: root)
    }

    private func considerRestart(after exit: WorkerExit, background: Bool, root: String) {
        guard let restartPolicy, !endingWorkerOnPurpose, !context.flags.isQuitting.load(ordering: .relaxed) else {
            return
        }
        switch exit.reason {
        case .killed, .crashed, .watchdog, .protocolViolation: break
        default: return
        }
        guard restartIntensity.allowsRestart(at: .now, policy: restartPolicy) else {
            context.trace.record(
                TraceEvent(
                    kind: .error,
                    scene: id,
                    op: "restart",
                    code: ProtocolError.Code.operationFailed.rawValue,
                    message:
                        "gave up: more than \(restartPolicy.maximumRestarts) restarts within \(restartPolicy.window)"
                )
            )
            return
        }
        mailbox.post(.restart(background: background, root: root))
    }

    private func scheduleSuspensionIfIdle() {
        suspendGeneration += 1
        guard lifecycle.shouldSuspend else { return }
        let generation = suspendGeneration
        let delay = context.configuration.suspendDelay
        let mailbox = self.mailbox
        Task {
            try await Task.sleep(for: delay)
            mailbox.post(.suspendTimer(generation: generation))
        }
    }

    private func startBackgroundTaskTimers() {
        backgroundTaskGeneration += 1
        suspendGeneration += 1
        let generation = backgroundTaskGeneration
        let limit = context.configuration.backgroundTaskLimit
        let lead = context.configuration.backgroundTaskExpirationLead
        let mailbox = self.mailbox
        Task {
            try await Task.sleep(for: limit - lead)
            mailbox.post(.backgroundTaskExpiring(generation: generation))
            try await Task.sleep(for: lead)
            mailbox.post(.backgroundTaskDeadline(generation: generation))
        }
    }
}
