import Glibc
import Protocol
import SceneModel

/// One scene: the thin shell around its `SceneMachine`.
///
/// The actor runs on the event loop (its executor is `EventLoop.shared`), where the worker's
/// output, its exit and the timers are delivered: those enter the actor synchronously
/// (`onLoop`, an `assumeIsolated` checked cheaply), so replies, callbacks and deaths reach the
/// machine in exactly the order the loop saw them. Each event is fed to the machine and its
/// actions are performed at once; nothing here awaits in the middle of a transition. Callers
/// await only a continuation that a `resume` action resumes.
///
/// The state a transition touches is `@exclusivity(unchecked)`: the runtime's check of each
/// access (about 100 instructions, a dozen accesses per transition) guards against an access
/// that overlaps another, and none can here. The actor runs one job at a time on the loop
/// thread, and the machine is a struct whose methods never call out: every mutation of it
/// ends before the actions it returned are performed. The compiler still checks statically.
package actor SceneController {
    package nonisolated let id: String
    let context: HostContext
    @exclusivity(unchecked) var machine: SceneMachine
    @exclusivity(unchecked) var connection: WorkerConnection?
    /// The app process the worker is, when the scene shares it with its app's others
    /// (SceneController+AppProcess.swift).
    @exclusivity(unchecked) var appProcess: AppProcess?
    /// The callers waiting, each resumed exactly once: by the `resume` action that takes it
    /// out of here, or by a cancelled wait that does. (Unsafe continuations: the checked
    /// ones allocate a guard per transition to catch what this single owner rules out.)
    @exclusivity(unchecked) private var callers = WaitingCallers<UnsafeContinuation<Void, any Error>>()
    @exclusivity(unchecked) private var nextCaller = 0
    /// Where the callers of `performReturningValue` get what their reply carried.
    @exclusivity(unchecked) private var deliveries: [SceneMachine.CallerID: DeliveredValue] = [:]
    @exclusivity(unchecked) var timers = TimerTable<ArmedTimer>()
    /// The argv of a launch under way, for the prewarmed workers to catch up once it ends.
    private var launchingArgv: [String]?
    /// The argv of a launch waiting for its app's process to start or to end (`launchAgain`).
    @exclusivity(unchecked) var argvWaitingForApp: [String]?

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        EventLoop.shared.asUnownedSerialExecutor()
    }

    package init(id: String, context: HostContext) {
        self.id = id
        self.context = context
        self.machine = SceneMachine(
            id: id,
            configuration: SceneMachine.Configuration(context.configuration, scene: id),
            session: context.sessions.session(id),
            discardedAtLaunch: context.discardedAtLaunch.contains(id)
        )
    }

    /// Runs `op` after every operation enqueued before it (a `kill` at once); throws if it
    /// is refused or fails.
    ///
    /// A caller already on the loop thread (the host's `taskExecutor`) hands the operation to
    /// the machine synchronously and waits in its own context: the reply then resumes it with
    /// one job on the loop, not two (the actor's, then the hop back to the caller's executor).
    /// Running synchronously on the loop thread is running on this actor's executor.
    package nonisolated(nonsending) func perform(_ op: SceneOperation) async throws {
        switch op {
        case .memoryWarning, .terminate: return try await performInApp(op)
        default: try await performAlone(op)
        }
    }

    /// `perform` on this scene alone, whatever its app's other scenes (a `memoryWarning` or
    /// `terminate` of a scene in an app process reaches them too, see `performInApp`).
    /// `askedAfterTerminations`: see `SceneMachine.request`.
    package nonisolated(nonsending) func performAlone(
        _ op: SceneOperation,
        askedAfterTerminations: Int? = nil
    ) async throws {
        guard EventLoop.shared.inEventLoop else {
            return try await performIsolated(op, askedAfterTerminations: askedAfterTerminations)
        }
        let request = LoopRequest(op: op, askedAfterTerminations: askedAfterTerminations)
        try await withUnsafeThrowingContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, any Error>) in
            self.beginOnLoop(request, continuation)
        }
    }

    private func performIsolated(
        _ op: SceneOperation,
        delivering box: DeliveredValue? = nil,
        askedAfterTerminations: Int? = nil
    ) async throws {
        try await withUnsafeThrowingContinuationFromAnyThread { continuation in
            begin(op, continuation, delivering: box, askedAfterTerminations: askedAfterTerminations)
        }
    }

    func begin(
        _ op: SceneOperation,
        _ continuation: UnsafeContinuation<Void, any Error>,
        delivering box: DeliveredValue? = nil,
        askedAfterTerminations: Int? = nil
    ) {
        if context.flags.isQuitting.load(ordering: .relaxed), !machine.isQuitting {
            apply(machine.beginQuit(deadline: context.configuration.terminateLimit))
        }
        let caller = register(continuation)
        if let box { deliveries[caller] = box }
        apply(machine.request(op, caller: caller, askedAfterTerminations: askedAfterTerminations))
    }

    /// Runs `op` and returns the value its reply carried (`inspect`'s visible tree).
    package nonisolated(nonsending) func performReturningValue(_ op: SceneOperation) async throws -> JSONValue {
        let box = DeliveredValue()
        if EventLoop.shared.inEventLoop {
            try await withUnsafeThrowingContinuationFromAnyThread {
                (continuation: UnsafeContinuation<Void, any Error>) in
                self.onLoop { $0.begin(op, continuation, delivering: box) }
            }
        } else {
            try await performIsolated(op, delivering: box)
        }
        return box.value ?? .null
    }

    /// Records `event` (about this scene, from outside its queue) after the work queued
    /// before it: between two transitions, never inside one. Returns once it is recorded.
    package func recordInTurn(_ event: TraceEvent) async {
        try? await withUnsafeThrowingContinuationFromAnyThread { continuation in
            let caller = register(continuation)
            apply(machine.recordInTurn(event, caller: caller))
        }
    }

    /// Returns once the work queued before the call is done.
    package func settled() async {
        try? await withUnsafeThrowingContinuationFromAnyThread { continuation in
            let caller = register(continuation)
            apply(machine.settle(caller: caller))
        }
    }

    /// Kills the live worker with SIGKILL and `reason` (no callback, no restart), at once.
    package func kill(reason: TerminationReason) async throws {
        try await withUnsafeThrowingContinuationFromAnyThread { continuation in
            let caller = register(continuation)
            apply(machine.systemKill(reason: reason, caller: caller))
        }
    }

    /// The host quits: nothing starts from now on, and a worker still alive `deadline` later
    /// is SIGKILLed with reason `terminate-timeout`.
    package func beginQuit(deadline: Duration) {
        apply(machine.beginQuit(deadline: deadline))
    }

    /// Stops accepting requests; the ones queued still run.
    package func close() {
        apply(machine.close())
    }

    package var status: SceneStatus { machine.status }
    /// Whether nothing is in flight or queued.
    package var isIdle: Bool { machine.isIdle }
    /// What the scene last launched with (a connect's parameters, and what the system opened
    /// it for since).
    package var lastLaunch: LaunchParameters { machine.lastLaunch }

    /// Offers the sessions discarded elsewhere to this scene's worker, if it runs attached
    /// (docs/LIFECYCLE.md §3c); else they wait for another worker or the next launch.
    package func offerDiscards() {
        let status = machine.status
        guard status.process == .running, status.activation != .unattached else { return }
        let sessions = context.discards.takeAll()
        guard !sessions.isEmpty else { return }
        apply(machine.deliverDiscards(sessions))
    }

    /// `offerDiscards()` in a loop job of its own, soon: called in another scene's turn, which
    /// must not run this one's (and a task per scene for it would be one nobody waits for).
    package nonisolated func offerDiscardsSoon() {
        EventLoop.shared.execute { [self] in
            self.onLoop { $0.offerDiscards() }
        }
    }

    package func setRestartPolicy(_ policy: RestartPolicy?) {
        machine.setRestartPolicy(policy)
    }

    /// Resident memory of the live worker, in bytes.
    package var residentMemoryBytes: Int? {
        connection?.child.residentMemoryBytes()
    }

    /// Waits until `predicate` holds for the scene's status, at most `timeout`.
    /// `ignoringCancellation`: the caller's cancellation does not end the wait (the host's
    /// quit, which must see its workers' deaths whoever called it).
    package func waitUntil(
        _ what: String,
        timeout: Duration?,
        ignoringCancellation: Bool = false,
        _ predicate: @escaping @Sendable (SceneStatus) -> Bool
    ) async throws {
        if predicate(machine.status) { return }
        // The registration is spelled out in each closure, not shared through a local
        // function: a closure that does not itself use `self` is not isolated to this actor,
        // and its body then ran on the cooperative pool (ThreadSanitizer caught it).
        if ignoringCancellation {
            nextCaller += 1
            let caller = nextCaller
            try await withUnsafeThrowingContinuationFromAnyThread {
                (continuation: UnsafeContinuation<Void, any Error>) in
                callers.add(caller, continuation)
                apply(machine.wait(caller: caller, what: what, timeout: timeout, predicate))
            }
            return
        }
        // Cancelling the waiting task ends the wait (a control client hung up), and with it
        // the waiter's timer: a 24 h timeout must not outlive a wait that ended sooner.
        nextCaller += 1
        let caller = nextCaller
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuationFromAnyThread {
                (continuation: UnsafeContinuation<Void, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                callers.add(caller, continuation)
                apply(machine.wait(caller: caller, what: what, timeout: timeout, predicate))
            }
        } onCancel: {
            // Runs on the loop, so on the actor, after the waiter was added (the registration
            // happens before this actor method suspends): it finds it unless it was resolved
            // meanwhile. A loop job, not a task of its own.
            EventLoop.shared.execute { [self] in
                self.onLoop { $0.cancelWait(caller) }
            }
        }
    }

    private func cancelWait(_ caller: SceneMachine.CallerID) {
        guard let continuation = callers.remove(caller) else { return }
        apply(machine.dropWaiter(caller: caller))
        continuation.resume(throwing: CancellationError())
    }

    private func register(_ continuation: UnsafeContinuation<Void, any Error>) -> SceneMachine.CallerID {
        nextCaller += 1
        callers.add(nextCaller, continuation)
        return nextCaller
    }

    // MARK: Events from the loop

    /// The worker of `connection` did something (called on the loop thread).
    func workerEvent(_ event: WorkerConnection.Event, from sender: WorkerConnection) {
        guard sender === connection else { return }
        switch event {
        case .message(let message), .sceneMessage(_, let message):
            apply(machine.received(message))
        case .violation(let message, let code):
            apply(machine.workerViolated(message, code: code))
        case .stdoutClosed:
            apply(machine.pipeClosed(.stdout))
        case .exited(let exit, let stderrTail):
            connection = nil
            if let appProcess {
                self.appProcess = nil
                appProcess.remove(self)
                if let kill = appProcess.killReason(excluding: id) {
                    apply(machine.processKilledBySibling(reason: kill.reason, onPurpose: kill.onPurpose))
                }
            }
            apply(machine.processExited(exit, now: .now, stderrTail: stderrTail))
        }
    }

    func spawnFinished(_ outcome: Result<ChildProcess, HostError>) {
        switch outcome {
        case .success(let child): apply(feed(.spawned(child)))
        case .failure(let error): apply(feed(.spawnFailed(error)))
        }
    }

    private func stopFinished(pid: Int32, stopped: Bool) {
        if let appProcess {
            return appProcessStopFinished(appProcess, pid: pid, stopped: stopped)
        }
        apply(machine.stopCompleted(pid: pid, stopped: stopped))
    }

    private func storeFinished(_ outcome: Result<Void, HostError>) {
        apply(feed(Self.storeEvent(outcome)))
    }

    private static func storeEvent(_ outcome: Result<Void, HostError>) -> SceneMachine.Event {
        switch outcome {
        case .success: .stored
        case .failure(let error): .storeFailed(error)
        }
    }

    /// Runs a session write (a save or a delete) and reports it as `stored` or `storeFailed`:
    /// on the storage thread, whose fsync and rename block, back as an event; in place for a
    /// memory-only store, where a hop to that thread and back would only delay the spawn that
    /// waits for the answer.
    private func store(
        _ write: @escaping @Sendable () throws(HostError) -> Void,
        followUps: inout FollowUps
    ) {
        guard !context.sessions.isMemoryOnly else {
            followUps.append(Self.storeEvent(Result { () throws(HostError) in try write() }))
            return
        }
        BlockingWorkThread.storage.submit { [self] in
            let outcome = Result { () throws(HostError) in try write() }
            EventLoop.shared.execute { [self] in
                self.onLoop { $0.storeFinished(outcome) }
            }
        }
    }

    // MARK: Actions

    /// Performs `actions` in order; what they report back (a spawn, a store, a recorded
    /// callback, a write that found the pipe closed) is fed to the machine after them.
    ///
    /// Each action is moved out of the array, not copied: a trace event it carries then
    /// reaches the recorder uniquely referenced, which stamps it in place instead of copying
    /// its storage (and a copy and a release per action, on every transition, are saved).
    func apply(_ actions: consuming [SceneMachine.Action]) {
        var actions = actions
        var followUps = FollowUps()
        // Reversed once, then popped from the end: `popLast` moves an element out in constant
        // time (`removeFirst` copies it, then drops it; `remove(at: 0)` shifts the rest, which
        // is quadratic for an event that resumes thousands of waiters).
        if actions.count > 1 {
            // Through a buffer pointer: `Array.reverse()` cost over 300 instructions for two or
            // three actions (a uniqueness check per swap).
            actions.withUnsafeMutableBufferPointer { $0.reverse() }
        }
        while let action = actions.popLast() {
            // Trace events in a row (a callback, the state it leads to, the notifications it
            // posted) are recorded together: one lock and one clock read for all of them.
            if case .record = action, let next = actions.indices.last, Self.isRecord(actions[next]) {
                var first: SceneMachine.Action? = consume action
                context.trace.recordRun {
                    if let action = first.take() { return Self.recordedEvent(action) }
                    guard let next = actions.indices.last, Self.isRecord(actions[next]) else { return nil }
                    return Self.recordedEvent(actions.removeLast())
                }
                continue
            }
            perform(action, followUps: &followUps)
        }
        machine.recycle(actions)
        if let first = followUps.first {
            apply(feed(first))
            for followUp in followUps.rest {
                apply(feed(followUp))
            }
        }
        // A launch waiting for its app's process was given up (a kill, a terminate, the quit):
        // it ends now, not when that process starts or ends.
        if argvWaitingForApp != nil, machine.launchGivenUp { abandonAppWait() }
    }

    /// Whether `action` records an event, looked at in place (a pattern matched on the array's
    /// element copied it: a retain and a release of its event).
    private static func isRecord(_ action: borrowing SceneMachine.Action) -> Bool {
        switch action {
        case .record: true
        default: false
        }
    }

    /// The event a record action carries, moved out of it.
    private static func recordedEvent(_ action: consuming SceneMachine.Action) -> TraceEvent {
        guard case .record(let event) = consume action else {
            preconditionFailure("recordedEvent takes a record action")
        }
        return event
    }

    func feed(_ event: SceneMachine.Event) -> [SceneMachine.Action] {
        switch event {
        case .spawned(let child):
            let connection = WorkerConnection(
                scene: id,
                child: child,
                maximumFrameSize: context.configuration.maximumFrameSize,
                forwardsStderr: context.configuration.forwardsWorkerStderr,
                carriesScenes: machine.appName != nil
            )
            self.connection = connection
            let actions = machine.spawnCompleted(pid: child.pid, discarded: context.discards.takeAll())
            if let app = machine.appName {
                startAppProcess(app, connection)
            } else {
                connection.start { [self] sender, event in
                    self.workerEventOnLoop(event, from: sender)
                }
            }
            return actions
        case .attached(let process):
            joinAppProcess(process)
            return machine.attachCompleted(pid: process.pid)
        case .stopDeferred(let retrying):
            return machine.stopDeferred(retrying: retrying)
        case .spawnFailed(let error):
            if let app = machine.appName { appProcessSpawnFailed(app, error) }
            return machine.spawnFailed(error)
        case .stored: return machine.storeCompleted()
        case .storeFailed(let error): return machine.storeFailed(error)
        case .stdinClosed: return machine.pipeClosed(.stdin)
        case .writeFailed(let message): return machine.writeFailed(message)
        case .exitProbed(let exiting): return machine.exitProbed(exiting: exiting)
        case .recordInTurn(let event): return machine.recordInTurn(event, caller: nil)
        }
    }

    private func perform(_ action: consuming SceneMachine.Action, followUps: inout FollowUps) {
        switch consume action {
        case .spawn(let argv, let app):
            launchingArgv = argv
            if let event = launch(argv: argv, app: app) { followUps.append(event) }
        case .write(let commands):
            guard let connection else {
                followUps.append(.stdinClosed)
                return
            }
            switch connection.write(commands, scene: appProcess == nil ? nil : id) {
            case .written: break
            case .closed: followUps.append(.stdinClosed)
            case .refused(let message): followUps.append(.writeFailed(message))
            }
            // Every scene in the app's process told it to terminate (this one last): the worker
            // ends with the last of them, and no scene joins the process any more. (The frames
            // are looked at first: a computed property of the machine read here copies the
            // whole machine, a retain and a release per field, on every request of an app's
            // scene. Its terminate goes in the write that makes it terminate its worker.)
            if let appProcess, commands.containsTerminateRequest, machine.terminatesItsWorker,
                allTerminate(appProcess.others(than: self))
            {
                appProcess.noteEnding()
            }
        case .signal(let number):
            connection?.signal(number)
            if let appProcess, let kill = machine.killReason {
                appProcess.noteKill(by: id, reason: kill.reason, onPurpose: kill.onPurpose)
                // Only a SIGKILL is sure to end it: a worker may survive any other signal.
                if number == SIGKILLNumber { appProcess.noteEnding() }
            }
        case .signalProcessGroup(let number):
            // The worker too, through its pidfd: it may have left its group (as stops do).
            try? connection?.child.sendToProcessGroup(signal: number)
            connection?.signal(number)
            if let appProcess, number == SIGCONTNumber { appProcessContinued(appProcess) }
        case .probeExiting:
            // Off the hot path (once a second at most, and only for a worker whose pipe
            // closed): one read of /proc on the loop.
            followUps.append(.exitProbed(exiting: connection?.child.isExiting ?? true))
        case .stopProcessGroup:
            // The wait for the stop is polled on the waits thread, with every other scene's;
            // the outcome comes back as an event. A worker already gone counts as stopped:
            // its exit event follows.
            guard let child = connection?.child else { return }
            if let appProcess, !othersMayBeSuspended(appProcess) {
                followUps.append(.stopDeferred(retrying: !siblingStopsTheProcessLater(appProcess)))
                return
            }
            StopWaiter.stop(child) { [self] stopped in
                EventLoop.shared.execute { [self] in
                    self.onLoop { $0.stopFinished(pid: child.pid, stopped: stopped) }
                }
            }
        case .storeSession(let session):
            let sessions = context.sessions
            store({ () throws(HostError) in try sessions.save(session) }, followUps: &followUps)
        case .deleteSession:
            let sessions = context.sessions
            let scene = id
            store({ () throws(HostError) in try sessions.delete(scene) }, followUps: &followUps)
        case .record(let event):
            context.trace.record(consume event)
        case .hostDefect(let violation):
            context.trace.noteHostDefect(violation)
        case .deliver(let caller, let value):
            deliveries.removeValue(forKey: caller)?.value = value
        case .resume(let caller, let result):
            if !deliveries.isEmpty { deliveries[caller] = nil }
            if let argv = launchingArgv {
                launchingArgv = nil
                context.prewarmed.launchEnded(argv: argv)
            }
            guard let continuation = callers.remove(caller) else { return }
            switch result {
            case .success: continuation.resume()
            case .failure(let error): continuation.resume(throwing: error)
            }
        case .armTimer(let token, let delay):
            armTimer(token, after: delay)
        case .cancelTimer(let token):
            cancelTimer(token)
        case .announceDiscard:
            context.discards.discarded(id)
        case .returnDiscards(let sessions):
            context.discards.add(sessions)
        case .leaveAppProcess(let endsProcess):
            let others = appProcess?.others(than: self) ?? []
            appProcess?.remove(self)
            if let appProcess, appProcess.members.isEmpty {
                if endsProcess {
                    appProcess.noteEnding()
                    appProcess.connection.child.closeStdin()
                } else {
                    appProcess.suspendWhenIdle(after: context.configuration.suspendDelay)
                    // Not while the host quits: it ends them all, gently (`AppProcess.end`).
                    if !context.flags.isQuitting.load(ordering: .relaxed) {
                        let limit = context.configuration.maximumIdleAppProcesses
                        for idle in context.apps.becameIdle(appProcess, limit: limit) {
                            guard idle.reclaim() else { continue }
                            // No scene's trace carries a reclaimed process: the host's says so.
                            context.trace.record(
                                TraceEvent(kind: .host, name: TraceEvent.appReclaimedName, pid: idle.pid, app: idle.app)
                            )
                        }
                    }
                }
            }
            appProcess = nil
            connection = nil
            // A scene that waited for this one to suspend the process with it may now.
            for other in others {
                EventLoop.shared.execute { other.onLoop { $0.apply($0.machine.siblingLeftProcess()) } }
            }
        case .appSceneRequest(let change):
            // Refused at once (its line is full, or the host quits), it is recorded in this
            // scene's turn: the app asked from a callback of the transition in flight.
            if let refusal = context.sceneRequests.request(from: id, change) {
                followUps.append(.recordInTurn(refusal.event(refusing: change, from: id)))
            }
        }
    }
}

extension SceneMachine {
    /// What the shell reports back after performing an action.
    package enum Event: Sendable {
        case spawned(ChildProcess)
        /// The scene joins its app's running process (`attachCompleted`).
        case attached(AppProcess)
        /// The app's process is not stopped for this scene (`stopDeferred`).
        case stopDeferred(retrying: Bool)
        case spawnFailed(HostError)
        case stored
        case storeFailed(HostError)
        case stdinClosed
        case writeFailed(String)
        case exitProbed(exiting: Bool)
        /// An event about this scene to record in its turn (`SceneMachine.recordInTurn`).
        case recordInTurn(TraceEvent)
    }
}

/// What performing a batch of actions reported back, in order: usually one event at most
/// (a recorded callback's acceptance), kept inline; an array is allocated only for a second.
private struct FollowUps {
    package private(set) var first: SceneMachine.Event?
    /// The events after `first`.
    package private(set) var rest: [SceneMachine.Event] = []

    package mutating func append(_ event: SceneMachine.Event) {
        if first == nil {
            first = event
        } else {
            rest.append(event)
        }
    }
}
