import Protocol

/// The host's state machine for one scene: the transition table that decides which
/// operations are legal, and the plan of steps that carries a legal one out.
///
/// A plain value with no I/O. The scene's `SceneMachine` asks it for a plan, performs each step,
/// and reports back with one mutating call per event (`completed`, `processExited`, …).
package struct SceneLifecycle: Sendable {
    /// One thing the scene's owner must do, in order, to carry out an operation.
    package enum Step: Sendable, Hashable {
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
    package enum RequestAction: Sendable, Hashable {
        case refuse(String)
        case perform([Step])
    }

    package private(set) var activation: ActivationState = .unattached
    package private(set) var process: ProcessState = .none
    /// The navigation stack by controller name, root first.
    package private(set) var stack: [String] = []
    /// The controllers presented over the stack, each with its style, the first presented
    /// first: a presented controller may present another (LIFECYCLE.md §3a, §3f).
    package private(set) var presentedChain: [(name: String, style: PresentationStyle)] = []
    /// The last controller presented (the frontmost one), if any.
    package var presented: (name: String, style: PresentationStyle)? { presentedChain.last }
    package private(set) var hasBackgroundTask = false
    /// A tab bar root's tabs, each tab's stack root first (LIFECYCLE.md §3a); empty when the
    /// root is one navigation stack. The selected tab's entry is stale: `stack` is its stack.
    package private(set) var tabs: [[String]] = []
    /// The selected tab's index (0 without tabs).
    package private(set) var selectedTab = 0
    /// The tabs are the app's, made while connecting: the connect's reply keeps them.
    private var tabsFromApp = false
    /// The controllers' children (LIFECYCLE.md §3a): `containment.stack` per controller of
    /// `stack`, the presented controller's, and each tab's.
    package private(set) var containment = SceneContainment()
    package private(set) var isDiscarded = false
    /// The root the last worker launched with: an `openURL` that relaunches uses it.
    package private(set) var launchedRoot = "Root"
    /// Whether a session exists for this scene (so `connect` is a reconnect).
    package var sessionExists = false
    /// The user ended the app (`terminate`): iOS launches it for no silent push until the
    /// user opens it again (c20).
    package private(set) var userEndedApp = false
    /// The lifecycle the last worker's app declared in its `ready` (docs/LIFECYCLE.md §3d);
    /// it stays after the worker's death, as the session's kind.
    package var kind = LifecycleKind.scene
    /// Notifications queued while suspended, in first-arrival order, latest value per name.
    package private(set) var queuedNotifications: [(name: String, value: JSONValue)] = [] {
        didSet { if queuedNotifications.isEmpty { queuedNotificationBytes = 0 } }
    }
    /// About how many bytes `queuedNotifications` holds (`JSONValue.estimatedSize`).
    package private(set) var queuedNotificationBytes = 0

    /// At most this many notifications (distinct names) wait for a suspended worker.
    package static let maximumQueuedNotifications = 64
    /// At most about this many bytes of notifications wait for a suspended worker.
    package static let maximumQueuedNotificationBytes = 4 << 20
    /// The deepest navigation stack: with `RequestLimits`' name limit, the restoration
    /// state a worker saves stays far below the frame limit.
    package static let maximumStackDepth = SceneLimits.maximumStackDepth

    /// Whether the worker is alive (launching, running or suspended).
    package var hasLiveWorker: Bool { process.isAlive }

    /// The scene as the model's legality table sees it.
    package var snapshot: SceneSnapshot {
        SceneSnapshot(
            activation: activation,
            process: process,
            stackDepth: stack.count,
            backgroundTask: hasBackgroundTask ? .running : .none,
            isDiscarded: isDiscarded,
            sessionExists: sessionExists,
            presentation: presented?.style,
            presentationDepth: presentedChain.count,
            lifecycle: kind,
            tabCount: tabs.count,
            selectedTab: selectedTab,
            frontmostChildren: frontmostChildren
        )
    }

    /// The children of the frontmost controller: the presented one, else the stack's top.
    package var frontmostChildren: [String] {
        presented == nil ? containment.children(ofTopOf: stack.count) : containment.presented.last ?? []
    }

    /// Every tab's stack, the selected one's current (empty without tabs).
    package var tabStacks: [[String]] {
        var stacks = tabs
        if stacks.indices.contains(selectedTab) { stacks[selectedTab] = stack }
        return stacks
    }

    /// Decides whether `op` is legal now and, if so, how to carry it out. Legality is the
    /// model's (`LifecycleOperation.refusal(in:)`); only parameters are checked here.
    package func request(_ op: SceneOperation) -> RequestAction {
        if case .selectTab(let index) = op {
            if let refusal = LifecycleOperation.selectTabRefusal(index: index, in: snapshot) {
                return .refuse(refusal.reason)
            }
            // The selected tab again: its stack pops to its root (real-ios-orders-3 c27), and a
            // root alone hears nothing, as in UIKit.
            guard index == selectedTab else { return .perform([.send(.selectTab(index: index))]) }
            return .perform(stack.count > 1 && presented == nil ? [.send(.popToRoot)] : [])
        }
        switch op {
        case .addChild(let name), .removeChild(let name):
            guard !name.isEmpty else { return .refuse("\(op.name) needs a view controller name") }
            if let refusal = LifecycleOperation.containmentRefusal(op.kind, child: name, in: snapshot) {
                return .refuse(refusal.reason)
            }
            if case .addChild = op { return .perform([.send(.addChild(viewController: name))]) }
            return .perform([.send(.removeChild(viewController: name))])
        default:
            break
        }
        if let refusal = op.kind.refusal(in: snapshot) { return .refuse(refusal.reason) }
        switch op {
        case .connect(let background, let root, _, let launch):
            if let refusal = launch.refusal { return .refuse(refusal) }
            // A tab bar root is a scene's (choice, LIFECYCLE.md §3a): an app without scene
            // support, asked for or kept from the session's last worker, cannot have one.
            if launch.tabs != nil, (launch.lifecycle ?? kind) == .app {
                return .refuse("a tab bar root needs a scene-based app; this one has no scene support")
            }
            // An app process carries scenes (§4a): an app without scene support has none to share.
            if launch.app != nil, (launch.lifecycle ?? kind) == .app {
                return .refuse(
                    "\"app\" needs a scene-based app; this session's app has no scene support (connect it with "
                        + "\"lifecycle\": \"scene\")"
                )
            }
            // A tab bar's first tab's root is the root that launches.
            return .perform([.launch(background: background, root: launch.tabs?.first ?? root)])
        case .activate:
            return .perform([.send(.activate)])
        case .deactivate:
            return .perform([.send(.deactivate)])
        case .background:
            return .perform([.send(.enterBackground)])
        case .foreground:
            return .perform(resumeSteps + [.send(.enterForeground)])
        case .disconnect:
            return .perform(resumeSteps + toBackgroundSteps + [.disconnectWorker])
        case .discard:
            guard hasLiveWorker else { return .perform([.discardSession]) }
            return .perform(resumeSteps + toBackgroundSteps + [.disconnectWorker, .discardSession])
        case .push(let name, let payload):
            guard !name.isEmpty else { return .refuse("push needs a view controller name") }
            guard stack.count < Self.maximumStackDepth else {
                return .refuse("the navigation stack is at its limit of \(Self.maximumStackDepth) view controllers")
            }
            return .perform([.send(.push(viewController: name, payload: payload))])
        case .pop:
            return .perform([.send(.pop)])
        case .resize(let width, let height):
            guard width > 0, height > 0 else { return .refuse("resize needs a positive width and height") }
            return .perform([.send(.resize(width: width, height: height))])
        case .memoryWarning:
            return .perform([.send(.memoryWarning)])
        case .windowMemoryWarning:
            return .perform([.send(.windowMemoryWarning)])
        case .notify(let name, let value):
            if process == .suspended {
                if let full = queueRefusal(name: name, value: value) { return .refuse(full) }
                return .perform([.queueNotification(name: name, value: value)])
            }
            return .perform([.send(.notify(name: name, value: value))])
        case .beginBackgroundTask:
            return .perform([.send(.beginBackgroundTask)])
        case .endBackgroundTask:
            return .perform([.send(.endBackgroundTask)])
        case .kill(let signal):
            // SIGCONT resumes a stopped process whatever else is pending: the scene would run
            // while its status, and the trace, say suspended.
            if signal == SIGCONTNumber, process == .suspended {
                return .refuse(
                    "SIGCONT would resume the suspended worker behind the host's back: foreground resumes it"
                )
            }
            return .perform([.signal(signal, .killed)])
        case .tap:
            return .perform([.send(.tap)])
        case .user(let action):
            if let refusal = action.parameterRefusal { return .refuse(refusal) }
            return .perform([.send(.user(action))])
        case .inspect:
            return .perform([.send(.inspect)])
        case .openURL(let url):
            guard !url.isEmpty else { return .refuse("openURL needs a non-empty url") }
            return .perform(deliverySteps(.openURL(url: url)))
        case .continueUserActivity(let activityType, let userInfo):
            guard !activityType.isEmpty else { return .refuse("continueUserActivity needs an activityType") }
            return .perform(deliverySteps(.continueUserActivity(activityType: activityType, userInfo: userInfo)))
        case .quickAction(let type, let userInfo):
            guard !type.isEmpty else { return .refuse("quickAction needs a type") }
            return .perform(deliverySteps(.quickAction(type: type, userInfo: userInfo)))
        case .openNotification(let userInfo, let actionIdentifier):
            guard !actionIdentifier.isEmpty else {
                return .refuse("openNotification needs a non-empty actionIdentifier")
            }
            return .perform(
                deliverySteps(.openNotification(actionIdentifier: actionIdentifier, userInfo: userInfo))
            )
        case .remoteNotification(let userInfo):
            guard hasLiveWorker else {
                if userEndedApp {
                    return .refuse(
                        "the user ended the app (terminate): a silent push launches it only after the user opens it again"
                    )
                }

                // Launched into the background for the push, with no scene connected (c20).
                return .perform([.launch(background: true, root: launchedRoot)])
            }
            return .perform(resumeSteps + [.send(.remoteNotification(userInfo: userInfo))])
        case .popToRoot:
            return .perform([.send(.popToRoot)])
        case .terminate, .windowTerminate:
            // LIFECYCLE.md §4: a suspended worker is killed silently, no callback; so is one
            // still launching (it has no scene to disconnect yet).
            if process != .running { return .perform([.signal(SIGKILLNumber, .killed)]) }
            return .perform(toBackgroundSteps + [.terminateWorker])
        case .present(let name, let style, let modal):
            guard !name.isEmpty else { return .refuse("present needs a view controller name") }
            return .perform([.send(.present(viewController: name, style: style, modalInPresentation: modal))])
        case .dismiss:
            return .perform([.send(.dismiss)])
        case .swipeDismiss(let completes):
            return .perform([.send(.swipeDismiss(completes: completes))])
        case .swipeBack(let completes):
            return .perform([.send(.swipeBack(completes: completes))])
        case .selectTab, .addChild, .removeChild:
            return .refuse("\(op.name) is judged above")
        }
    }

    private var resumeSteps: [Step] {
        process == .suspended ? [.resume, .deliverQueuedNotifications] : []
    }

    /// What the system hands a scene (§3f): with no live worker the scene launches with it in
    /// its connection options (the machine takes it from the request); a suspended one is
    /// resumed, and the worker brings a background scene forward with it in one operation.
    private func deliverySteps(_ delivery: WorkerOperation) -> [Step] {
        guard hasLiveWorker else { return [.launch(background: false, root: launchedRoot)] }
        return resumeSteps + [.send(delivery)]
    }

    private var toBackgroundSteps: [Step] {
        activation.isForeground ? [.send(.enterBackground)] : []
    }

    // MARK: Events

    /// The worker is being started.
    package mutating func launching(root: String) {
        launchedRoot = root
        userEndedApp = false
        // A launch after a discard opens a new session under the same name.
        isDiscarded = false
        process = .launching
        stack = [root]
        presentedChain = []
        containment = SceneContainment()
        hasBackgroundTask = false
        queuedNotifications = []
    }

    /// The session was stored before the first launch: from now on `connect` is a reconnect,
    /// even when this first worker dies before it finishes connecting.
    package mutating func sessionSaved() {
        sessionExists = true
    }

    /// A `send` step's reply arrived: the worker ran the operation's callbacks.
    /// `result`: the reply's result (a swipe down says whether the sheet went).
    package mutating func completed(_ op: WorkerOperation, result: JSONValue? = nil) {
        switch op {
        case .connect(let options):
            process = .running
            sessionExists = true
            // Each tab's stack starts as its root alone (loaded on first selection); the first
            // tab is selected and its stack is `stack`.
            if tabsFromApp {
                tabsFromApp = false
            } else {
                tabs = options.tabs?.map { [$0] } ?? []
                selectedTab = 0
            }
            if options.background {
                activation = .background
            } else {
                activation = .foregroundActive
            }
        case .activate: activation = .foregroundActive
        case .deactivate: activation = .foregroundInactive
        case .enterBackground: activation = .background
        case .enterForeground: activation = .foregroundActive
        case .push(let name, _): stack.append(name)
        case .pop:
            stack.removeLast()
            containment.popped(stackCount: stack.count)
        case .beginBackgroundTask: hasBackgroundTask = true
        case .endBackgroundTask: hasBackgroundTask = false
        case .present(let name, let style, _):
            presentedChain.append((name, style))
            containment.presented.append([])
        case .dismiss:
            _ = presentedChain.popLast()
            _ = containment.presented.popLast()
        case .swipeDismiss:
            if result == .bool(true) {
                _ = presentedChain.popLast()
                _ = containment.presented.popLast()
            }
        case .swipeBack(let completes):
            if completes {
                stack.removeLast()
                containment.popped(stackCount: stack.count)
            }
        case .selectTab(let index):
            guard tabs.indices.contains(index), index != selectedTab else { break }
            tabs[selectedTab] = stack
            stack = tabs[index]
            containment.select(tab: index, from: selectedTab)
            selectedTab = index
        case .addChild(let name):
            containment.add(name, presented: presented != nil, stackCount: stack.count)
        case .removeChild(let name):
            containment.remove(name, presented: presented != nil, stackCount: stack.count)
        case .openURL, .continueUserActivity, .quickAction, .openNotification:
            // A background scene came to the foreground for it.
            if activation == .background { activation = .foregroundActive }
        case .popToRoot:
            stack = Array(stack.prefix(1))
            containment.popped(stackCount: stack.count)
        case .disconnect, .terminate, .stateRestoration, .resize, .memoryWarning, .notify, .expireBackgroundTask,
            .tap, .didDiscardSceneSessions, .user, .inspect, .remoteNotification, .windowMemoryWarning:
            break
        }
    }

    /// The user ended the app: `terminate` carried out.
    package mutating func userEndedTheApp() { userEndedApp = true }

    /// The worker's process group was stopped.
    package mutating func suspended() { process = .suspended }

    /// The worker's process group was continued.
    package mutating func resumed() { process = .running }

    /// The app popped its stack to the controller at `index` (an app change): the ones above
    /// it are gone.
    package mutating func popped(to index: Int) {
        guard stack.indices.contains(index) else { return }
        stack = Array(stack.prefix(index + 1))
        containment.popped(stackCount: stack.count)
    }

    /// The app rebuilt its navigation stack while connecting (an app change), root first.
    package mutating func rebuiltStack(_ controllers: [String]) {
        stack = controllers
        containment.stack = []
    }

    /// The app replaced its shown stack (an app change): the controllers at `kept` (indices
    /// of the stack, in increasing order) stay, with their children, the new ones `below`
    /// load above them, and `top` is pushed.
    package mutating func replacedStack(keeping kept: [Int], below: [String] = [], top: String) {
        let old = stack
        let children = containment.stack
        stack = kept.map { old[$0] } + below + [top]
        containment.stack = kept.map { children.indices.contains($0) ? children[$0] : [] }
    }

    /// The app made a tab bar root while connecting (an app change): each tab's stack its
    /// root alone, `selected` shown.
    package mutating func madeTabs(_ roots: [String], selected: Int) {
        tabs = roots.map { [$0] }
        selectedTab = selected
        stack = [roots[selected]]
        containment = SceneContainment()
        tabsFromApp = true
    }

    /// Queues a notification for delivery on resume; a later one of the same name replaces
    /// the value. `request` refused it beforehand if it does not fit the queue's limits.
    package mutating func queue(notification name: String, value: JSONValue) {
        if let index = queuedNotifications.firstIndex(where: { $0.name == name }) {
            queuedNotificationBytes -= queuedNotifications[index].value.estimatedSize
            queuedNotifications[index].value = value
            queuedNotificationBytes += value.estimatedSize
        } else {
            queuedNotifications.append((name, value))
            queuedNotificationBytes += Self.queuedSize(name: name, value: value)
        }
    }

    /// Why `name` cannot be queued now (nil: it can): the queue of a suspended scene holds at
    /// most `maximumQueuedNotifications` names and `maximumQueuedNotificationBytes` bytes.
    private func queueRefusal(name: String, value: JSONValue) -> String? {
        let existing = queuedNotifications.firstIndex { $0.name == name }
        if existing == nil, queuedNotifications.count >= Self.maximumQueuedNotifications {
            return "the worker is suspended and \(Self.maximumQueuedNotifications) notifications already wait for it"
        }
        let replaced = existing.map { queuedNotifications[$0].value.estimatedSize } ?? 0
        let added = existing == nil ? Self.queuedSize(name: name, value: value) : value.estimatedSize
        let total = queuedNotificationBytes - replaced + added
        guard total <= Self.maximumQueuedNotificationBytes else {
            return "the worker is suspended and its queued notifications would take about \(total) bytes, "
                + "over the limit of \(Self.maximumQueuedNotificationBytes)"
        }
        return nil
    }

    private static func queuedSize(name: String, value: JSONValue) -> Int {
        32 + name.utf8.count + value.estimatedSize
    }

    /// Takes the queued notifications for delivery.
    package mutating func takeQueuedNotifications() -> [(name: String, value: JSONValue)] {
        defer { queuedNotifications = [] }
        return queuedNotifications
    }

    /// The worker died, whatever the reason: `terminated` until the next spawn. The session
    /// survives.
    package mutating func processExited() {
        process = .terminated
        activation = .unattached
        stack = []
        presentedChain = []
        hasBackgroundTask = false
        queuedNotifications = []
        tabs = []
        selectedTab = 0
        tabsFromApp = false
        containment = SceneContainment()
    }

    /// The session was discarded: every later request is refused.
    package mutating func discarded() {
        isDiscarded = true
        sessionExists = false
        // The next session under this name has had no worker to declare a kind.
        kind = .scene
    }

    /// Whether the worker should be suspended now (background, running, no background task).
    package var shouldSuspend: Bool {
        activation == .background && process == .running && !hasBackgroundTask
    }

    package init() {}
}

/// SIGKILL's number, spelled once.
package let SIGKILLNumber: Int32 = 9
