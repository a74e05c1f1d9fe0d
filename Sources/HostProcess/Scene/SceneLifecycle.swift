import Protocol

/// The host's state machine for one scene: the transition table that decides which
/// operations are legal, and the plan of steps that carries a legal one out.
///
/// A plain value with no I/O. The scene's `SceneMachine` asks it for a plan, performs each step,
/// and reports back with one mutating call per event (`completed`, `processExited`, …).
struct SceneLifecycle: Sendable {
    /// One thing the scene's owner must do, in order, to carry out an operation.
    enum Step: Sendable, Hashable {
        /// Spawn the worker, say hello and send `connect`.
        case launch(background: Bool, root: String)
        /// SIGCONT the worker's process group.
        case resume
        /// Deliver notifications queued while suspended, merged by name.
        case deliverQueuedNotifications
        /// Send one operation and wait for its reply.
        case send(WorkerOperation)
        /// Send `disconnect` and wait for the worker to exit 0.
        case disconnectWorker
        /// Send `terminate` and wait for the worker to exit within the terminate limit.
        case terminateWorker
        /// Signal the worker and wait for its death.
        case signal(Int32, TerminationReason)
        /// Report `didDiscardSceneSessions` and delete the session.
        case discardSession
        /// Hold a notification until the worker resumes.
        case queueNotification(name: String, value: JSONValue)
    }

    /// What to do with a request.
    enum RequestAction: Sendable, Hashable {
        case refuse(String)
        case perform([Step])
    }

    private(set) var activation: ActivationState = .unattached
    private(set) var process: ProcessState = .none
    /// The navigation stack by controller name, root first.
    private(set) var stack: [String] = []
    /// Whether the controllers have appeared in this worker (LIFECYCLE.md: first appearance).
    private(set) var hasAppeared = false
    private(set) var hasBackgroundTask = false
    private(set) var isDiscarded = false
    /// Whether a session exists for this scene (so `connect` is a reconnect).
    var sessionExists = false
    /// Notifications queued while suspended, in first-arrival order, latest value per name.
    private(set) var queuedNotifications: [(name: String, value: JSONValue)] = []

    /// Whether the worker is alive (running or suspended).
    var hasLiveWorker: Bool { process == .launching || process == .running || process == .suspended }

    /// Decides whether `op` is legal now and, if so, how to carry it out.
    func request(_ op: SceneOperation) -> RequestAction {
        if isDiscarded { return .refuse("the session was discarded") }
        switch op {
        case .connect(let background, let root, _):
            guard !hasLiveWorker else { return .refuse("already connected (\(activation))") }
            return .perform([.launch(background: background, root: root)])

        case .activate:
            guard activation == .foregroundInactive, process == .running else {
                return .refuse("activate needs foregroundInactive, scene is \(activation)")
            }
            return .perform([.send(.activate)])

        case .deactivate:
            guard activation == .foregroundActive, process == .running else {
                return .refuse("deactivate needs foregroundActive, scene is \(activation)")
            }
            return .perform([.send(.deactivate)])

        case .background:
            guard activation.isForeground, process == .running else {
                return .refuse("background needs a foreground scene, scene is \(activation)")
            }
            return .perform([.send(.enterBackground)])

        case .foreground:
            guard activation == .background, hasLiveWorker else {
                return .refuse("foreground needs a background scene, scene is \(activation)")
            }
            return .perform(resumeSteps + [.send(.enterForeground)])

        case .disconnect:
            guard hasLiveWorker, activation != .unattached else {
                return .refuse("disconnect needs a connected scene, scene is \(activation)")
            }
            return .perform(resumeSteps + toBackgroundSteps + [.disconnectWorker])

        case .discard:
            if hasLiveWorker {
                return .perform(resumeSteps + toBackgroundSteps + [.disconnectWorker, .discardSession])
            }
            guard sessionExists else { return .refuse("no session to discard") }
            return .perform([.discardSession])

        case .push(let name):
            guard activation.isForeground, process == .running else {
                return .refuse("navigation needs a foreground scene, scene is \(activation)")
            }
            guard !name.isEmpty else { return .refuse("push needs a view controller name") }
            return .perform([.send(.push(viewController: name))])

        case .pop:
            guard activation.isForeground, process == .running else {
                return .refuse("navigation needs a foreground scene, scene is \(activation)")
            }
            guard stack.count > 1 else { return .refuse("cannot pop the root view controller") }
            return .perform([.send(.pop)])

        case .resize(let width, let height):
            guard activation.isForeground, process == .running else {
                return .refuse("resize needs a foreground scene, scene is \(activation)")
            }
            guard width > 0, height > 0 else { return .refuse("resize needs a positive width and height") }
            return .perform([.send(.resize(width: width, height: height))])

        case .memoryWarning:
            guard process == .running, activation != .unattached else {
                return .refuse("memoryWarning needs a running worker, worker is \(process)")
            }
            return .perform([.send(.memoryWarning)])

        case .notify(let name, let value):
            guard hasLiveWorker, activation != .unattached else {
                return .refuse("notify needs a connected scene, scene is \(activation)")
            }
            if process == .suspended { return .perform([.queueNotification(name: name, value: value)]) }
            return .perform([.send(.notify(name: name, value: value))])

        case .beginBackgroundTask:
            guard process == .running, activation != .unattached else {
                return .refuse("beginBackgroundTask needs a running worker, worker is \(process)")
            }
            guard !hasBackgroundTask else { return .refuse("a background task is already running") }
            return .perform([.send(.beginBackgroundTask)])

        case .endBackgroundTask:
            guard hasBackgroundTask, process == .running else { return .refuse("no background task is running") }
            return .perform([.send(.endBackgroundTask)])

        case .kill(let signal):
            guard hasLiveWorker else { return .refuse("no worker to kill") }
            return .perform([.signal(signal, .killed)])

        case .terminate:
            guard hasLiveWorker else { return .refuse("no worker to terminate") }
            // LIFECYCLE.md §4: a suspended worker is killed silently, no callback.
            if process == .suspended { return .perform([.signal(SIGKILLNumber, .killed)]) }
            return .perform(toBackgroundSteps + [.terminateWorker])
        }
    }

    private var resumeSteps: [Step] {
        process == .suspended ? [.resume, .deliverQueuedNotifications] : []
    }

    private var toBackgroundSteps: [Step] {
        activation.isForeground ? [.send(.enterBackground)] : []
    }

    // MARK: Events

    /// The worker is being started.
    mutating func launching(root: String) {
        process = .launching
        stack = [root]
        hasAppeared = false
        hasBackgroundTask = false
        queuedNotifications = []
    }

    /// The session was stored before the first launch: from now on `connect` is a reconnect,
    /// even when this first worker dies before it finishes connecting.
    mutating func sessionSaved() {
        sessionExists = true
    }

    /// A `send` step's reply arrived: the worker ran the operation's callbacks.
    mutating func completed(_ op: WorkerOperation) {
        switch op {
        case .connect(let options):
            process = .running
            sessionExists = true
            if options.background {
                activation = .background
            } else {
                activation = .foregroundActive
                hasAppeared = true
            }
        case .activate: activation = .foregroundActive
        case .deactivate: activation = .foregroundInactive
        case .enterBackground: activation = .background
        case .enterForeground:
            activation = .foregroundActive
            hasAppeared = true
        case .push(let name): stack.append(name)
        case .pop: stack.removeLast()
        case .beginBackgroundTask: hasBackgroundTask = true
        case .endBackgroundTask: hasBackgroundTask = false
        case .disconnect, .terminate, .stateRestoration, .resize, .memoryWarning, .notify, .expireBackgroundTask:
            break
        }
    }

    /// The worker's process group was stopped.
    mutating func suspended() { process = .suspended }

    /// The worker's process group was continued.
    mutating func resumed() { process = .running }

    /// The app rebuilt its navigation stack while connecting (an app change), root first.
    mutating func rebuiltStack(_ controllers: [String]) {
        stack = controllers
    }

    /// Queues a notification for delivery on resume; a later one of the same name replaces the value.
    mutating func queue(notification name: String, value: JSONValue) {
        if let index = queuedNotifications.firstIndex(where: { $0.name == name }) {
            queuedNotifications[index].value = value
        } else {
            queuedNotifications.append((name, value))
        }
    }

    /// Takes the queued notifications for delivery.
    mutating func takeQueuedNotifications() -> [(name: String, value: JSONValue)] {
        defer { queuedNotifications = [] }
        return queuedNotifications
    }

    /// The worker died, whatever the reason. The session survives.
    mutating func processExited() {
        process = .none
        activation = .unattached
        stack = []
        hasAppeared = false
        hasBackgroundTask = false
        queuedNotifications = []
    }

    /// The session was discarded: every later request is refused.
    mutating func discarded() {
        isDiscarded = true
        sessionExists = false
    }

    /// Whether the worker should be suspended now (background, running, no background task).
    var shouldSuspend: Bool {
        activation == .background && process == .running && !hasBackgroundTask
    }
}

/// SIGKILL's number, spelled once.
let SIGKILLNumber: Int32 = 9
