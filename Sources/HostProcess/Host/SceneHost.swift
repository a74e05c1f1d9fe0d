import Glibc
import Protocol
import SceneModel
import Synchronization

/// A scene host: the system side of LIFECYCLE.md. It spawns one worker per scene,
/// serializes each scene's transitions, keeps the sessions and records one trace.
///
/// ```swift
/// let host = try SceneHost(configuration: HostConfiguration(worker: ["/path/to/hostctl", "worker"]))
/// let a = try host.scene("A")
/// try await a.connect()
/// try await a.push("Detail")
/// try await a.background()
/// await host.quit()
/// ```
public final class SceneHost: Sendable {
    public let configuration: HostConfiguration
    /// Every event, in `seq` order.
    public let trace: TraceRecorder
    /// The scene sessions.
    public let sessions: SessionStore
    let context: HostContext
    private let scenes = Locked<[String: SceneController]>([:])
    /// Names handed to new windows apps asked for (never handed out twice).
    package let reservedWindowNames = Locked<Set<String>>([])
    /// Which scenes requests use, so that one no request made anything of is forgotten.
    private let usage = SceneUsage()
    private let quitting = Atomic<Bool>(false)
    /// Whether this host still counts among those tuned for throughput (`HostTuning`).
    private let holdsThroughputTuning = Atomic<Bool>(false)
    /// Whether the quit has ended, and the callers of `quit()` waiting for the one under way.
    private let quitCompletion = Locked<(ended: Bool, waiters: [UnsafeContinuation<Void, Never>])>((false, []))

    /// Starts a host. `tracePath`: where to write the JSON Lines trace, if anywhere.
    public init(configuration: HostConfiguration, tracePath: String? = nil) throws(HostError) {
        HostSignals.ignoreWriteSignals()
        // Every thread the host needs, now: at the process limit it fails here, not mid-request.
        do { try HostThreads.start() } catch { throw HostError.io("\(error)") }
        self.configuration = configuration
        // The store first: a host that finds its state directory in use by another fails
        // before it creates (and truncates) a trace file, which may be the other host's.
        self.sessions = try SessionStore(directory: configuration.stateDirectory, keepingDamagedFilesAside: false)
        self.trace = try TraceRecorder(path: tracePath, historyLimitBytes: configuration.traceHistoryLimitBytes)
        // Only now that the host has started: one that failed to leaves every file as it was.
        sessions.keepDamagedFilesAside()
        trace.record(TraceEvent(kind: .host, name: "started", pid: getpid()))
        for file in sessions.damagedFiles {
            trace.record(
                TraceEvent(
                    kind: .error,
                    op: "sessions",
                    code: ProtocolError.Code.operationFailed.rawValue,
                    message: file.message
                )
            )
        }
        // LIFECYCLE.md §2: discards recorded while no host ran are reported right after launch.
        // Each once its file is gone: one that could not be deleted is still a session, as if
        // never discarded here (its scene, the app's workers), and its discard is tried again
        // at the next start.
        var discardedAtLaunch: [String] = []
        for identifier in sessions.pendingDiscards {
            do throws(HostError) {
                try sessions.delete(identifier)
                discardedAtLaunch.append(identifier)
                trace.record(
                    TraceEvent(kind: .callback, scene: identifier, name: CallbackName.didDiscardSceneSessions.rawValue)
                )
            } catch {
                trace.record(
                    TraceEvent(
                        kind: .error,
                        scene: identifier,
                        op: "sessions",
                        code: ProtocolError.Code.operationFailed.rawValue,
                        message: "the discard recorded while no host ran is not carried out: \(error)"
                    )
                )
            }
        }
        let tasks = HostTasks()
        self.context = HostContext(
            configuration: configuration,
            trace: trace,
            sessions: sessions,
            flags: HostFlags(),
            prewarmed: PrewarmedWorkers(
                argv: configuration.worker,
                capacity: configuration.prewarmedWorkers,
                scheduling: configuration.workerScheduling,
                environment: configuration.workerEnvironment
            ),
            discardedAtLaunch: Set(discardedAtLaunch),
            discards: DiscardMailbox(discardedAtLaunch),
            tasks: tasks,
            sceneRequests: AppSceneRequests(tasks: tasks)
        )
        context.sceneRequests.setPerformer { [weak self] opener, change in
            await self?.performAppRequest(from: opener, change)
        }
        // Weakly: the mailbox lives in the context every scene holds, so capturing the scenes
        // here would make a cycle (scenes → scene → context → mailbox → scenes) that outlives
        // the host.
        context.discards.setListener { [weak self] discarded in
            guard let self else { return }
            for controller in allControllers where controller.id != discarded {
                controller.offerDiscardsSoon()
            }
        }
        startMemoryMonitor()
        if configuration.tuning == .throughput {
            holdsThroughputTuning.store(true, ordering: .relaxed)
            EventLoop.shared.beginThroughputTuning()
        }
    }

    // A host dropped without its quit stops counting as tuned for throughput.
    deinit {
        if holdsThroughputTuning.exchange(false, ordering: .relaxed) {
            Task { await EventLoop.shared.endThroughputTuning() }
        }
    }

    /// The scene named `identifier`, if this host has one.
    package func existingScene(_ identifier: String) -> SceneController? {
        scenes.withLock { $0[identifier] }
    }

    /// The handle of scene `identifier` (created on first use; its session on first connect).
    public func scene(_ identifier: String) throws(HostError) -> SceneHandle {
        SceneHandle(
            controller: try usage.acquire(identifier, pinned: true) { () throws(HostError) in try controller(identifier)
            },
            frameLimit: RequestLimits.frameLimit(configuration)
        )
    }

    package func controller(_ identifier: String) throws(HostError) -> SceneController {
        guard SceneSession.isValidIdentifier(identifier) else { throw HostError.invalidSceneIdentifier(identifier) }
        guard !quitting.load(ordering: .relaxed) else { throw HostError.shuttingDown }
        return scenes.withLock { scenes in
            if let existing = scenes[identifier] { return existing }
            let controller = SceneController(id: identifier, context: context)
            scenes[identifier] = controller
            return controller
        }
    }

    /// Whether `quit()` has begun (it may still be under way).
    public var isQuitting: Bool { quitting.load(ordering: .relaxed) }

    /// The workers this host keeps started ahead of launches.
    package var prewarmed: PrewarmedWorkers { context.prewarmed }

    /// The host's background work, which `quit()` waits for.
    package var tasks: HostTasks { context.tasks }

    /// The executor the scenes run on: a caller that drives scenes one request after another
    /// (a scenario, a benchmark loop) can prefer it with `withTaskExecutorPreference`, so that
    /// each request reaches its scene and its caller resumes without a thread hop. Blocking
    /// work must not run under that preference: it would stall every scene.
    package var taskExecutor: any TaskExecutor { EventLoop.shared.taskExecutor }

    package var allControllers: [SceneController] {
        scenes.withLock { Array($0.values) }
    }

    /// Runs one operation on one scene.
    public func perform(_ op: SceneOperation, on scene: String) async throws {
        // Before the scene is looked up: a request refused for its size creates no scene.
        try RequestLimits.check(op, scene: scene, frameLimit: RequestLimits.frameLimit(configuration))
        try await using(scene) { try await $0.perform(op) }
    }

    /// What scene `scene` shows: its visible tree (`SceneHandle.inspect()`).
    public func inspect(_ scene: String) async throws -> JSONValue {
        try RequestLimits.check(.inspect, scene: scene, frameLimit: RequestLimits.frameLimit(configuration))
        return try await using(scene) { try await $0.performReturningValue(.inspect) }
    }

    /// Runs `body` on scene `identifier`'s controller. A scene that `body` left with nothing
    /// (a refused operation on a new name, a `waitFor` that timed out) is forgotten again
    /// once no request uses it: a name alone must not hold memory or a `ps` row for good.
    package func using<Result: Sendable>(
        _ identifier: String,
        _ body: (SceneController) async throws -> Result
    ) async throws -> Result {
        let controller = try usage.acquire(identifier, pinned: false) { () throws(HostError) in
            try self.controller(identifier)
        }
        let result: Result
        do {
            result = try await body(controller)
        } catch {
            await forgetIfUnused(controller)
            throw error
        }
        await forgetIfUnused(controller)
        return result
    }

    /// Forgets scene `identifier` whole, its session too, once its worker has ended: a tool's
    /// throwaway scene (each fuzz run's), in a host that keeps sessions in memory only, so
    /// that a long session holds no memory per run. No app hears of it (it is not a discard).
    /// False, and nothing changed, while the scene has a worker, work in flight, or the store
    /// keeps sessions on disk.
    package func forgetEndedScene(_ identifier: String) async -> Bool {
        guard sessions.isMemoryOnly, let controller = existingScene(identifier) else { return false }
        let status = await controller.status
        guard !status.process.isAlive, await controller.isIdle else { return false }
        try? sessions.delete(identifier)
        usage.drop(identifier)
        scenes.withLock { scenes in
            if scenes[identifier] === controller { scenes[identifier] = nil }
        }
        await controller.close()
        return true
    }

    private func forgetIfUnused(_ controller: SceneController) async {
        guard let acquisitions = usage.release(controller.id) else { return }
        let status = await controller.status
        guard status.activation == .unattached, status.process == .none, !status.isDiscarded,
            sessions.session(controller.id) == nil
        else { return }
        let forgotten = usage.forget(controller.id, ifUnusedSince: acquisitions) {
            scenes.withLock { scenes in
                if scenes[controller.id] === controller { scenes[controller.id] = nil }
            }
        }
        if forgotten { await controller.close() }
    }

    /// Every known scene's status, sorted by identifier.
    public func statuses() async -> [SceneStatus] {
        let controllers = scenes.withLock { Array($0.values) }
        var result: [SceneStatus] = []
        for controller in controllers { result.append(await controller.status) }
        return result.sorted { $0.scene < $1.scene }
    }

    /// Terminates every scene (LIFECYCLE.md §4: suspended and launching workers are killed
    /// silently, at once; running ones get `sceneDidDisconnect` and
    /// `applicationWillTerminate`) and waits until no worker is left.
    ///
    /// Bounded by the terminate limit: a worker still alive that long after the quit began
    /// (it hangs in a transition queued ahead of its terminate, or in
    /// `applicationWillTerminate`) is SIGKILLed with reason `terminate-timeout`.
    ///
    /// The quit runs once, in the first caller's task: a call while it is under way returns
    /// when it has ended (a scenario whose step failed because an interrupt began the quit
    /// finds the host stopped). Its waits ignore the caller's cancellation (a cancelled quit
    /// would stop waiting for a launching worker's death, and record `stopped` before that
    /// worker's `exited`). Not a task of its own: that would need a free thread of the
    /// cooperative pool to start, and a quit must end even when callers have blocked them.
    public func quit() async {
        guard !quitting.exchange(true, ordering: .relaxed) else {
            await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
                let ended = quitCompletion.withLock { state in
                    if !state.ended { state.waiters.append(continuation) }
                    return state.ended
                }
                if ended { continuation.resume() }
            }
            return
        }
        await quitOnce()
        let waiters = quitCompletion.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func quitOnce() async {
        context.flags.isQuitting.store(true, ordering: .relaxed)
        trace.record(TraceEvent(kind: .host, name: "quit"))
        // First: a launch that ends during the quit must not start a worker ahead.
        await context.prewarmed.close()
        let controllers = scenes.withLock { Array($0.values) }
        let limit = configuration.terminateLimit
        await withTaskGroup(of: Void.self) { group in
            for controller in controllers {
                group.addTask {
                    await controller.beginQuit(deadline: limit)
                    switch await controller.status.process {
                    case .launching:
                        // `beginQuit` killed it silently (§4): its death is what is left. The
                        // quit's deadline SIGKILLs again; the wait is bounded beyond that.
                        try? await controller.waitUntil(
                            "the launching worker's death",
                            timeout: limit * 2,
                            ignoringCancellation: true
                        ) { !$0.process.isAlive }
                    case .running, .suspended:
                        // Each scene of an app process on its own: its worker ends the process
                        // with the app's last scene.
                        try? await controller.performAlone(.terminate)
                    case .none, .terminated:
                        break
                    }
                    // What a scene without a worker still has in flight (an undone launch
                    // deleting its session) ends before the store closes.
                    await controller.settled()
                    await controller.close()
                }
            }
        }
        // The processes of apps that no scene is in any more end too, together: each is given
        // the terminate limit, and a dozen that ignore their closed stdin must not add theirs up.
        await withTaskGroup(of: Void.self) { group in
            for process in context.apps.running { group.addTask { await process.end(within: limit) } }
        }
        // The app requests still being carried out end now (every scene refuses new work),
        // and the memory monitor with them: nothing records after `stopped`.
        await context.tasks.finish()
        // Every worker is gone and no scene takes mail: nothing more is stored. Released now,
        // not when the last reference to the host goes, so another host may take the state
        // directory as soon as this one has quit, in this process or another.
        sessions.close()
        trace.record(TraceEvent(kind: .host, name: "stopped"))
        trace.finish()
        // The loop stops polling, and gives back a reserved CPU, once no host wants them.
        if holdsThroughputTuning.exchange(false, ordering: .relaxed) {
            await EventLoop.shared.endThroughputTuning()
        }
        // Whoever reads the trace file next (`run` says it was written) finds it whole; a
        // reader that has not taken it all within the terminate limit ends it (`fileError`).
        await trace.fileWritten(within: limit)
    }
}
