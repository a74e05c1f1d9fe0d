import Protocol

/// One worker's protocol state machine, without any I/O: it takes host commands (or raw
/// frames) and records the worker's messages — callbacks, replies, failures — in `sink`,
/// in order. The run loop feeds it and writes what it recorded; tests drive it directly.
///
/// It keeps the scene's state itself and refuses operations that are illegal in that state
/// with `illegalTransition` and no callback, so a confused host cannot make the app see an
/// impossible sequence.
@MainActor
final class WorkerSession {
    enum Phase: Equatable {
        /// Nothing received yet: the first frame must be `hello`.
        case awaitingHello
        /// Handshake done.
        case running
        /// The worker must exit with this status once its output is written.
        case exiting(Int32)
    }

    /// What the window's objects and the application hold to reach this session.
    let link = SessionLink()
    let app: WorkerApp
    let pid: Int32
    let sink = CallbackSink()
    let application: Application

    // The properties below that hold a reference or a few bytes are `@exclusivity(unchecked)`:
    // every access to one is a load or a store that ends before any other code runs, so two
    // can never overlap, and the runtime's check of each cost about 100 instructions, a
    // dozen times per request. The array below keeps its check: it is changed in place.
    @exclusivity(unchecked) private(set) var phase: Phase = .awaitingHello
    // Set by the app-based lifecycle too (WorkerSession+AppBased.swift).
    @exclusivity(unchecked) var scene: Scene?
    @exclusivity(unchecked) var applicationDelegate: (any ApplicationDelegate)?
    @exclusivity(unchecked) var sceneDelegate: (any UISceneDelegate)?
    /// Whether the stack appeared in this process (the first appearance ran).
    @exclusivity(unchecked) var hasAppeared = false
    /// The lifecycle this worker declared in its `ready` (docs/LIFECYCLE.md §3d).
    @exclusivity(unchecked) private(set) var lifecycle = LifecycleKind.scene
    /// Whether the host's `hello` asked for replies folded into callback frames
    /// (`CallbackSink.drain`'s `foldingReplies`).
    @exclusivity(unchecked) private(set) var hostReadsFoldedReplies = false

    // The app's own changes (WorkerSession+AppChanges.swift).
    /// Set while a host request's callbacks run: the app's navigation waits for the reply.
    @exclusivity(unchecked) var isCarryingOutRequest = false
    /// Set while an app change runs: changes it causes wait for it.
    @exclusivity(unchecked) var isRunningAppChange = false
    /// Set while `scene(_:willConnectTo:options:)` runs: the only time the app may replace
    /// its stack.
    @exclusivity(unchecked) var isInWillConnectTo = false
    /// Navigation the app asked for while something else ran, oldest first. Unchecked
    /// exclusivity (read on every request): changed only by `append`, `insert`, `removeFirst`
    /// (which moves the change out) and `dropQueuedChanges` (which releases what it drops
    /// only after), none of which runs app code, and read by `contains` with closures that
    /// compare and call out to nothing.
    @exclusivity(unchecked) var deferredChanges: [DeferredAppChange] = []
    /// Children added in a controller's `viewDidLoad` before it could take them, oldest
    /// first: added once their parent is frontmost in the foreground (`queueWaitingChildren`).
    /// Unchecked exclusivity, as `deferredChanges`: what leaves it is released after.
    @exclusivity(unchecked) var waitingChildren: [WaitingChild] = []
    /// App changes run or queued in this turn (since the last host frame, or the last run of
    /// main-queue work), against an app that navigates from every callback of its own
    /// navigation.
    @exclusivity(unchecked) var appChangesThisTurn = 0
    /// This scene's background task (`Application.task` while its request runs).
    @exclusivity(unchecked) var backgroundTask: Application.Task?
    /// The main run loop's timers left scheduled while the app could be suspended.
    var backgroundTimers = BackgroundTimerWatch()

    /// The app process this session's scene shares with the app's other scenes (a tagged
    /// session, `SceneTag`); nil: the process's one session. Not weak: the process's run loop
    /// keeps it for good once made, and a weak reference would give it a side table (every
    /// retain of it, twice per frame, the runtime's slow path).
    @exclusivity(unchecked) unowned(unsafe) var appProcess: WorkerAppProcess?
    /// The scene left the app's process, which runs on: the session is done.
    @exclusivity(unchecked) var hasDetached = false
    /// Whether the scene's last entry to the background came from the foreground (not a
    /// connect into the background): only such an entry can take an app process there.
    var leftTheForeground = false

    init(app: WorkerApp, pid: Int32) {
        self.app = app
        self.pid = pid
        sink.notificationPoster = app.lifecycleNotificationPoster
        application = Application(sink: sink)
        application.makeShared()
        link.session = self
        application.changeHandler = self
        // Through the link, not `[weak self]`: a weak reference would give the session a side
        // table, and every retain of it the runtime's slow path (see `SessionLink`).
        sink.willPostApplicationDidBecomeActive = { [link] in link.session?.applicationBecomesActive() }
    }

    /// The application becomes active between the scene's `didActivate` notification and its
    /// own `didBecomeActive` one (c01: `applicationState` is not `.active` yet at the first).
    func applicationBecomesActive() {
        application.isActivating = false
    }

    deinit {
        // First: see `SessionLink`.
        link.session = nil
    }

    /// A session for one more scene of the app in this process: it shares `primary`'s
    /// application (and so its delegate, once launched) and handshake.
    init(sharing primary: WorkerSession, in appProcess: WorkerAppProcess) {
        app = primary.app
        pid = primary.pid
        application = primary.application
        phase = .running
        lifecycle = primary.lifecycle
        self.appProcess = appProcess
        sink.notificationPoster = app.lifecycleNotificationPoster
        link.session = self
        // Through the link, not `[weak self]`: a weak reference would give the session a side
        // table, and every retain of it the runtime's slow path (see `SessionLink`).
        sink.willPostApplicationDidBecomeActive = { [link] in link.session?.applicationBecomesActive() }
        sink.postsApplicationNotification = { [link] name in
            guard let session = link.session, let appProcess = session.appProcess else { return true }
            return appProcess.postsApplicationNotification(name, for: session)
        }
    }

    /// The application reports to this session while its scene's request runs.
    func takeApplication() {
        application.sink = sink
        application.changeHandler = self
        application.connectedScene = scene
    }

    /// The scene's activation state (`unattached` before connect).
    var state: ActivationState { scene?.activationState ?? .unattached }

    /// Whether a device could suspend the app now: in the background, no background task.
    var isSuspendable: Bool { state == .background && application.task == nil }

    /// The exit status, once the worker must exit (after writing its output).
    var exitStatus: Int32? {
        if case .exiting(let status) = phase { return status }
        return nil
    }

    /// Takes everything recorded so far.
    func takeOutput() -> [WorkerMessage] {
        sink.take()
    }

    // MARK: - Frames

    /// Decodes and handles one frame (without its newline).
    func handleFrame(_ frame: [UInt8]) {
        frame.withUnsafeBytes { handleFrame($0) }
    }

    /// Decodes and handles one frame (without its newline) where it lies: the read loop's
    /// buffer, no copy.
    func handleFrame(_ frame: UnsafeRawBufferPointer) {
        guard exitStatus == nil else { return }
        do {
            // Handled where it was decoded: a command declared outside the `do` was copied
            // once more and destroyed twice, on every request.
            let command = try HostCommand(frame: frame)
            handle(command)
        } catch {
            handleUndecodableFrame(error, id: Self.requestID(in: Array(frame)))
        }
    }

    /// Decodes and handles the frame inside a tagged one (an app process's), where it lies.
    func handleFrame(_ tagged: SceneTag.Tagged) {
        guard exitStatus == nil else { return }
        do {
            let command = try tagged.command()
            handle(command)
        } catch {
            handleUndecodableFrame(error, id: Self.requestID(in: tagged.body))
        }
    }

    /// Handles a frame the decoder skipped for being longer than the limit.
    func handleOversizedFrame(length: Int) {
        guard exitStatus == nil else { return }
        handleUndecodableFrame(
            ProtocolError(.frameTooLarge, "frame of \(length)+ bytes exceeds the maximum frame size"),
            id: nil
        )
    }

    func handleUndecodableFrame(_ error: ProtocolError, id: Int?) {
        if phase == .awaitingHello {
            failHandshake(ProtocolError(.invalidMessage, "expected hello as the first frame: \(error.message)"))
        } else {
            sink.send(.failure(id: id, error))
        }
    }

    /// The `id` of a frame that did not decode, when it is at least a JSON object with an integer id.
    static func requestID(in frame: [UInt8]) -> Int? {
        guard case .object(let object)? = try? JSONParser.parse(frame), case .int(let id)? = object["id"] else {
            return nil
        }
        return id
    }

    /// The main queue's work is about to run: a turn of its own, with its own budget of app
    /// changes, as a host request's is.
    func beginMainQueueTurn() {
        appChangesThisTurn = 0
    }

    // MARK: - Commands

    /// Handles one decoded command.
    func handle(_ command: HostCommand) {
        appChangesThisTurn = 0
        // On the phase, then on the command: a switch on the pair copied the command into a
        // tuple and destroyed the copy, about 300 instructions on every request.
        switch phase {
        case .exiting:
            return
        case .awaitingHello:
            switch command {
            case .hello(let version, let requested, let foldedReplies):
                guard version == ProtocolVersion.current else {
                    failHandshake(
                        ProtocolError(
                            .versionMismatch,
                            "protocol version mismatch: host speaks \(version), worker speaks \(ProtocolVersion.current)"
                        )
                    )
                    return
                }
                phase = .running
                hostReadsFoldedReplies = foldedReplies
                lifecycle = app.lifecycle ?? requested ?? .scene
                sink.send(.ready(protocolVersion: ProtocolVersion.current, pid: pid, lifecycle: lifecycle))
            case .request(let id, let operation):
                failHandshake(
                    ProtocolError(
                        .invalidMessage,
                        "expected hello as the first frame, got \(operation.name) (request \(id))"
                    )
                )
            }
        case .running:
            switch command {
            case .hello:
                sink.send(.failure(id: nil, ProtocolError(.invalidMessage, "unexpected hello: the handshake is done")))
            case .request(let id, let operation):
                perform(operation, id: id)
            }
        }
    }

    func failHandshake(_ error: ProtocolError) {
        sink.send(.failure(id: nil, error))
        exit(status: 2)
    }

    func exit(status: Int32) {
        phase = .exiting(status)
        sink.close()
    }

    func perform(_ operation: WorkerOperation, id: Int) {
        if let refusal = refusal(of: operation) {
            sink.send(.failure(id: id, refusal))
            return
        }
        isCarryingOutRequest = true
        do {
            let result = try execute(operation)
            sink.send(.reply(id: id, result: result))
        } catch {
            sink.send(.failure(id: id, error))
        }
        isCarryingOutRequest = false
        switch operation {
        case .disconnect where hasDetached, .terminate where hasDetached:
            // The scene left the app's process, which runs on (no exit).
            dropQueuedChanges()
        case .disconnect, .terminate:
            dropQueuedChanges()
            exit(status: 0)
        default:
            runDeferredAppChanges()
        }
    }

    /// Drops the changes and children still queued (the scene ends). Released only once
    /// both lists are empty: a dropped controller's `deinit` is app code, which may ask for
    /// more.
    private func dropQueuedChanges() {
        withExtendedLifetime((deferredChanges, waitingChildren)) {
            deferredChanges = []
            waitingChildren = []
        }
    }

    // MARK: - Legality

    /// Why `operation` is illegal now, or nil when it is legal: the model's atom table
    /// (`WorkerOperation.refusal(in:)`) over the worker's own view of its scene, then the
    /// parameters.
    func refusal(of operation: WorkerOperation) -> ProtocolError? {
        // This scene's own task, which `Application.task` returns while the scene's request
        // runs (read there, a weak load of the session and a release, on every request).
        let backgroundTask: BackgroundTaskState =
            switch self.backgroundTask {
            case nil: .none
            case let task?: task.expired ? .expired : .running
            }
        // A lifecycle transition (the common request) is judged on the session's own state:
        // its requirements read no view, and walking the window costs a slow retain and
        // release of each object on the way (every one has a side table for its weak
        // references). A refusal is worked out below, on the full snapshot, with its message.
        if !operation.readsViewHierarchy {
            let snapshot = SceneSnapshot(
                activation: state,
                process: .running,
                backgroundTask: backgroundTask,
                hasAppeared: hasAppeared,
                sessionExists: true,
                lifecycle: lifecycle
            )
            if operation.refusal(in: snapshot) == nil { return nil }
        }
        // Every request is checked: one look at the window and one walk of what is presented
        // serve every field.
        let window = scene?.window
        let root = window?.navigationStack
        let presented = root?.presentedChain ?? []
        let frontmost = presented.last ?? root?.topViewController
        let tabBar = window?.tabBarController
        let snapshot = SceneSnapshot(
            activation: state,
            process: .running,
            stackDepth: root?.viewControllers.count ?? 0,
            backgroundTask: backgroundTask,
            hasAppeared: hasAppeared,
            sessionExists: true,
            presentation: presented.last?.modalPresentationStyle,
            presentationDepth: presented.count,
            lifecycle: lifecycle,
            tabCount: tabBar?.tabStacks.count ?? 0,
            selectedTab: tabBar?.selectedIndex ?? 0,
            frontmostChildren: frontmost?.children.map(\.restorationIdentifier) ?? []
        )
        if let refusal = operation.refusal(in: snapshot) {
            return ProtocolError(.illegalTransition, refusal.description)
        }
        if case .resize(let width, let height) = operation {
            if width <= 0 || height <= 0 {
                return ProtocolError(.invalidParameters, "cannot resize to \(width)x\(height): sizes must be positive")
            }
            // A size change is a change to a new size (LIFECYCLE.md §3): UIKit runs nothing for
            // a window set to the size it has, and no controller's layout turns dirty.
            if let current = scene?.window.size, current == Size(width: width, height: height) {
                return ProtocolError(
                    .invalidParameters,
                    "cannot resize to \(width)x\(height): the window already has that size (a size change needs a new size)"
                )
            }
        }
        if case .selectTab(let index) = operation,
            let refusal = LifecycleOperation.selectTabRefusal(index: index, in: snapshot)
        {
            return ProtocolError(.illegalTransition, refusal.description)
        }
        if let (kind, child) = operation.containment,
            let refusal = LifecycleOperation.containmentRefusal(kind, child: child, in: snapshot)
        {
            return ProtocolError(.illegalTransition, refusal.description)
        }
        if case .swipeDismiss = operation, snapshot.presentation != .pageSheet {
            return ProtocolError(.illegalTransition, "cannot swipeDismiss: only a pageSheet can be swiped down")
        }
        return nil
    }
}
