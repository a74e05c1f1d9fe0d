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
    @exclusivity(unchecked) private(set) var sceneDelegate: (any UISceneDelegate)?
    /// Whether the stack appeared in this process (the first appearance ran).
    @exclusivity(unchecked) var hasAppeared = false
    /// The lifecycle this worker declared in its `ready` (docs/LIFECYCLE.md §3d).
    @exclusivity(unchecked) private(set) var lifecycle = LifecycleKind.scene

    // The app's own changes (WorkerSession+AppChanges.swift).
    /// Set while a host request's callbacks run: the app's navigation waits for the reply.
    @exclusivity(unchecked) var isCarryingOutRequest = false
    /// Set while an app change runs: changes it causes wait for it.
    @exclusivity(unchecked) var isRunningAppChange = false
    /// Set while `scene(_:willConnectTo:options:)` runs: the only time the app may replace
    /// its stack.
    @exclusivity(unchecked) var isInWillConnectTo = false
    /// Navigation the app asked for while something else ran, oldest first.
    var deferredChanges: [DeferredAppChange] = []
    /// App changes run or queued in this turn (since the last host frame, or the last run of
    /// main-queue work), against an app that navigates from every callback of its own
    /// navigation.
    @exclusivity(unchecked) var appChangesThisTurn = 0

    init(app: WorkerApp, pid: Int32) {
        self.app = app
        self.pid = pid
        application = Application(sink: sink)
        application.makeShared()
        application.changeHandler = self
    }

    /// The scene's activation state (`unattached` before connect).
    var state: ActivationState { scene?.activationState ?? .unattached }

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
        let command: HostCommand
        do {
            command = try HostCommand(frame: frame)
        } catch {
            handleUndecodableFrame(error, id: Self.requestID(in: Array(frame)))
            return
        }
        handle(command)
    }

    /// Handles a frame the decoder skipped for being longer than the limit.
    func handleOversizedFrame(length: Int) {
        guard exitStatus == nil else { return }
        handleUndecodableFrame(
            ProtocolError(.frameTooLarge, "frame of \(length)+ bytes exceeds the maximum frame size"),
            id: nil
        )
    }

    private func handleUndecodableFrame(_ error: ProtocolError, id: Int?) {
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
        switch (phase, command) {
        case (.exiting, _):
            return
        case (.awaitingHello, .hello(let version, let requested)):
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
            lifecycle = app.lifecycle ?? requested ?? .scene
            sink.send(.ready(protocolVersion: ProtocolVersion.current, pid: pid, lifecycle: lifecycle))
        case (.awaitingHello, .request(let id, let operation)):
            failHandshake(
                ProtocolError(
                    .invalidMessage,
                    "expected hello as the first frame, got \(operation.name) (request \(id))"
                )
            )
        case (.running, .hello):
            sink.send(.failure(id: nil, ProtocolError(.invalidMessage, "unexpected hello: the handshake is done")))
        case (.running, .request(let id, let operation)):
            perform(operation, id: id)
        }
    }

    private func failHandshake(_ error: ProtocolError) {
        sink.send(.failure(id: nil, error))
        exit(status: 2)
    }

    private func exit(status: Int32) {
        phase = .exiting(status)
        sink.close()
    }

    private func perform(_ operation: WorkerOperation, id: Int) {
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
        case .disconnect, .terminate:
            deferredChanges.removeAll()
            exit(status: 0)
        default:
            runDeferredAppChanges()
        }
    }

    // MARK: - Legality

    /// Why `operation` is illegal now, or nil when it is legal: the model's atom table
    /// (`WorkerOperation.refusal(in:)`) over the worker's own view of its scene, then the
    /// parameters.
    func refusal(of operation: WorkerOperation) -> ProtocolError? {
        let backgroundTask: BackgroundTaskState =
            switch application.task {
            case nil: .none
            case let task?: task.expired ? .expired : .running
            }
        let snapshot = SceneSnapshot(
            activation: state,
            process: .running,
            stackDepth: scene?.window.rootViewController.viewControllers.count ?? 0,
            backgroundTask: backgroundTask,
            hasAppeared: hasAppeared,
            sessionExists: true,
            presentation: scene?.window.rootViewController.presentedViewController?.modalPresentationStyle,
            lifecycle: lifecycle,
            tabCount: scene?.window.tabBarController?.viewControllers.count ?? 0,
            selectedTab: scene?.window.tabBarController?.selectedIndex ?? 0,
            frontmostChildren: frontmostController?.children.map(\.restorationIdentifier) ?? []
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

    // MARK: - Operations

    /// Runs a legal operation's callbacks; returns the reply's `result`.
    private func execute(_ operation: WorkerOperation) throws(ProtocolError) -> JSONValue? {
        switch operation {
        case .connect(let options):
            return lifecycle == .app ? try appConnect(options) : try connect(options)
        case .activate:
            if lifecycle == .app { appBecomeActive() } else { becomeActive() }
        case .deactivate:
            if lifecycle == .app { appResignActive() } else { resignActive() }
        case .enterBackground:
            if lifecycle == .app {
                if state == .foregroundActive { appResignActive() }
                return appEnterBackground()
            }
            if state == .foregroundActive {
                resignActive()
            }
            return enterBackground()
        case .enterForeground:
            if lifecycle == .app {
                if hasAppeared {
                    appEnterForeground()
                    appBecomeActive()
                } else {
                    appFirstAppearance()
                }
            } else if hasAppeared {
                enterForeground()
                becomeActive()
            } else {
                firstAppearance()
            }
        case .stateRestoration:
            return lifecycle == .app ? appSaveState() : stateRestorationActivity()
        case .disconnect:
            didDisconnect()
            guard let scene else { break }
            // The shown stack first, then each other loaded tab's, in tab order (choice).
            scene.window.rootViewController.releaseAllTopFirst()
            for tab in scene.window.tabBarController?.otherLoadedTabs ?? [] { tab.releaseAllTopFirst() }
        case .terminate:
            if lifecycle == .app {
                appWillTerminate()
                break
            }
            didDisconnect()
            sink.report(.applicationWillTerminate)
            applicationDelegate?.applicationWillTerminate(application)
        case .push(let name, let payload):
            let controller = try makeViewController(name, payload: payload)
            scene?.window.rootViewController.performPush(controller, animated: true)
        case .pop:
            popAndRelease()
        case .resize(let width, let height):
            resize(to: Size(width: width, height: height))
        case .memoryWarning:
            sink.report(.applicationDidReceiveMemoryWarning)
            applicationDelegate?.applicationDidReceiveMemoryWarning(application)
            for controller in scene?.window.allLoadedControllers ?? [] {
                controller.runDidReceiveMemoryWarning()
            }
        case .notify(let name, let value):
            sink.report(CallbackEvent(.didReceiveNotification, notification: name, value: value))
            if let scene {
                sceneDelegate?.scene(scene, didReceiveNotification: name, value: value)
            }
        case .beginBackgroundTask:
            if lifecycle == .app {
                // No scene delegate to ask: the app begins one, as the scene's default does.
                application.beginsHostTask = true
                _ = application.beginBackgroundTask(withName: "app", expirationHandler: {})
                application.beginsHostTask = false
            } else if let scene {
                application.beginsHostTask = true
                sceneDelegate?.scene(scene, beginBackgroundTaskWith: application)
                application.beginsHostTask = false
            }
            guard application.task != nil else {
                throw ProtocolError(.operationFailed, "the scene delegate did not begin a background task")
            }
        case .endBackgroundTask:
            application.finishTask(origin: nil)
        case .expireBackgroundTask:
            application.expireBackgroundTask()
        case .present(let name, let style):
            let controller = try makeViewController(name, payload: nil)
            controller.modalPresentationStyle = style
            scene?.window.rootViewController.performPresent(controller)
        case .dismiss:
            scene?.window.rootViewController.performDismiss()
        case .swipeDismiss(let completes):
            // The reply says whether the sheet went (a modal-in-presentation one never does).
            let dismissed = scene?.window.rootViewController.performSwipeDismiss(completes: completes) ?? false
            return .bool(dismissed)
        case .swipeBack(let completes):
            scene?.window.rootViewController.performSwipeBack(completes: completes)
        case .tap:
            // The frontmost controller: the presented one, if any, else the stack's top.
            let navigation = scene?.window.rootViewController
            (navigation?.presentedViewController ?? navigation?.topViewController)?.runTap()
        case .didDiscardSceneSessions(let sessions):
            didDiscard(sessions)
        case .openURL(let url):
            // The trace says which URL arrived (`value`).
            sink.report(CallbackEvent(.openURLContexts, value: .string(url)))
            if let scene { sceneDelegate?.scene(scene, openURLContexts: [OpenURLContext(url: url)]) }
        case .continueUserActivity(let activityType, let userInfo):
            // The trace says which activity arrived (`value`).
            sink.report(
                CallbackEvent(
                    .continueUserActivity,
                    value: .object(["activityType": .string(activityType), "userInfo": userInfo ?? .null])
                )
            )
            if let scene {
                sceneDelegate?.scene(scene, continue: UserActivity(activityType: activityType, userInfo: userInfo))
            }
        case .selectTab(let index):
            scene?.window.tabBarController?.performSelect(index)
        case .addChild(let name):
            let child = try makeViewController(name, payload: nil)
            frontmostController?.performAddChild(child)
        case .removeChild(let name):
            removeChildAndRelease(name)
        }
        return nil
    }

    /// The frontmost controller: the presented one, else the top of the selected stack.
    var frontmostController: UIViewController? { scene?.window.rootViewController.visibleViewController }

    /// Removes the frontmost controller's child `name` and drops the runtime's last reference
    /// to it, so its `deinit` runs (and reports) before the reply, unless app code keeps it.
    private func removeChildAndRelease(_ name: String) {
        guard let parent = frontmostController, let child = parent.child(named: name) else { return }
        parent.performRemoveChild(child)
    }

    /// Makes the controller the host named, checking it carries that name.
    func makeViewController(_ name: String, payload: JSONValue?) throws(ProtocolError) -> UIViewController {
        let controller = app.makeViewController(name, payload)
        guard controller.restorationIdentifier == name else {
            throw ProtocolError(
                .operationFailed,
                "makeViewController(\"\(name)\") returned a controller identified as \"\(controller.restorationIdentifier)\""
            )
        }
        controller.sink = sink
        return controller
    }

    /// Every launch's start, either kind: the app delegate is made and installed, the
    /// application takes its unattached state, and `willFinishLaunching` runs.
    func willFinishLaunching(_ options: ConnectOptions) -> (any ApplicationDelegate, LaunchOptions) {
        let applicationDelegate = app.makeApplicationDelegate()
        self.applicationDelegate = applicationDelegate
        application.delegate = applicationDelegate
        application.unattachedState = options.background ? .background : .inactive
        let launchOptions = LaunchOptions(
            launchedInBackground: options.background,
            reconnecting: options.reconnect,
            url: options.url
        )
        sink.report(.willFinishLaunching)
        _ = applicationDelegate.application(application, willFinishLaunchingWithOptions: launchOptions)
        return (applicationDelegate, launchOptions)
    }

    private func connect(_ options: ConnectOptions) throws(ProtocolError) -> JSONValue? {
        let root = try makeViewController(options.root, payload: nil)
        let (applicationDelegate, launchOptions) = willFinishLaunching(options)
        sink.report(.didFinishLaunching)
        _ = applicationDelegate.application(application, didFinishLaunchingWithOptions: launchOptions)
        // UIKit's form of the same callback (a template's), right after: scene-based apps get nil.
        _ = applicationDelegate.application(
            application,
            didFinishLaunchingWithOptions: nil as [Application.LaunchOptionsKey: Any]?
        )
        if let discarded = options.discardedSessions, !discarded.isEmpty {
            didDiscard(discarded)
        }

        let session = SceneSession(
            persistentIdentifier: options.session,
            role: options.role,
            configuration: SceneConfiguration(name: options.configuration, sessionRole: options.role)
        )
        session.stateRestorationActivity = options.restoration.flatMap(UserActivity.init(jsonValue:))
        let connectionOptions = Scene.ConnectionOptions(
            restoration: options.restoration,
            url: options.url,
            userActivity: options.activityType.map { UserActivity(activityType: $0, userInfo: options.userInfo) }
        )
        if !options.reconnect {
            sink.report(.configurationForConnecting)
            session.configuration = applicationDelegate.application(
                application,
                configurationForConnecting: session,
                options: connectionOptions
            )
        }

        if app.rootFromStoryboard { root.runStoryboardInstantiation() }
        let scene = UIWindowScene(session: session, window: try makeWindow(root: root, options))
        let sceneDelegate = app.makeSceneDelegate()
        scene.delegate = sceneDelegate
        self.scene = scene
        self.sceneDelegate = sceneDelegate
        application.connectedScene = scene

        if let windowSceneDelegate = sceneDelegate as? any UIWindowSceneDelegate {
            windowSceneDelegate.window = scene.window
        }
        sink.report(CallbackEvent(.willConnectTo, restoration: options.restoration, value: options.connectionValue))
        isInWillConnectTo = true
        sceneDelegate.scene(scene, willConnectTo: session, options: connectionOptions)
        isInWillConnectTo = false
        root.runLoadViewIfNeeded()
        loadRestoredControllers()

        if options.background {
            return enterBackground()
        }
        firstAppearance()
        return nil
    }

    /// The window: one navigation stack on `root`, or a tab bar whose first tab is `root`'s
    /// and whose other tabs' roots report nothing until their first selection.
    private func makeWindow(root: UIViewController, _ options: ConnectOptions) throws(ProtocolError) -> Window {
        func stack(_ controller: UIViewController) -> NavigationController {
            let navigationController = NavigationController(rootViewController: controller)
            navigationController.sink = sink
            navigationController.changeHandler = self
            return navigationController
        }
        let size = Self.launchSize(options)
        guard let tabs = options.tabs else {
            return Window(rootViewController: stack(root), size: size)
        }
        var stacks = [stack(root)]
        for name in tabs.dropFirst() {
            let controller = try makeViewController(name, payload: nil)
            controller.sink = nil
            stacks.append(stack(controller))
        }
        let tabBarController = TabBarController(viewControllers: stacks)
        tabBarController.changeHandler = self
        return Window(tabBarController: tabBarController, size: size)
    }

    /// `application(_:didDiscardSceneSessions:)`, reported with the sessions as its `value`.
    private func didDiscard(_ sessions: [String]) {
        sink.report(CallbackEvent(.didDiscardSceneSessions, value: .array(sessions.map { .string($0) })))
        applicationDelegate?.application(application, didDiscardSceneSessions: Set(sessions))
    }

    /// The window size a launch starts at: the host's `width`/`height`, else the default.
    static func launchSize(_ options: ConnectOptions) -> Size {
        guard let width = options.width, let height = options.height else { return Window.defaultSize }
        return Size(width: width, height: height)
    }

    /// Top `viewWillAppear`, Top layout pair, `sceneWillEnterForeground`, `sceneDidBecomeActive`,
    /// Top `viewDidAppear`.
    private func firstAppearance() {
        guard let scene, let top = scene.window.rootViewController.topViewController else { return }
        let navigationController = scene.window.rootViewController
        top.runLoadViewIfNeeded()
        top.runViewWillAppear(false)
        top.runTraitCollectionDidChange(to: TraitCollection(size: scene.window.size), first: true)
        top.runLayout(size: scene.window.size)
        enterForeground()
        becomeActive()
        navigationController.isOnScreen = true
        hasAppeared = true
        top.runViewDidAppear(false)
    }

    private func enterForeground() {
        guard let scene else { return }
        sink.report(.sceneWillEnterForeground)
        sceneDelegate?.sceneWillEnterForeground(scene)
        scene.activationState = .foregroundInactive
    }

    private func becomeActive() {
        guard let scene else { return }
        scene.activationState = .foregroundActive
        sink.report(.sceneDidBecomeActive)
        sceneDelegate?.sceneDidBecomeActive(scene)
    }

    private func resignActive() {
        guard let scene else { return }
        sink.report(.sceneWillResignActive)
        sceneDelegate?.sceneWillResignActive(scene)
        scene.activationState = .foregroundInactive
    }

    /// `sceneDidEnterBackground`, `stateRestorationActivity`; returns the latter's answer.
    private func enterBackground() -> JSONValue? {
        guard let scene else { return nil }
        scene.activationState = .background
        sink.report(.sceneDidEnterBackground)
        sceneDelegate?.sceneDidEnterBackground(scene)
        return stateRestorationActivity()
    }

    private func stateRestorationActivity() -> JSONValue? {
        guard let scene else { return nil }
        sink.report(.stateRestorationActivity)
        guard let sceneDelegate else { return nil }
        if let activity: UserActivity = sceneDelegate.stateRestorationActivity(for: scene) {
            return activity.jsonValue
        }
        return sceneDelegate.stateRestorationActivity(for: scene) as JSONValue?
    }

    private func didDisconnect() {
        guard let scene else { return }
        application.unattachedState = .background
        scene.activationState = .unattached
        sink.report(.sceneDidDisconnect)
        sceneDelegate?.sceneDidDisconnect(scene)
    }

    /// Pops the top controller and drops the runtime's last reference to it, so its `deinit`
    /// runs (and reports) before the reply, unless app code keeps it alive.
    func popAndRelease() {
        _ = scene?.window.rootViewController.performPop(animated: true)
    }

    private func resize(to size: Size) {
        guard let scene else { return }
        let navigationController = scene.window.rootViewController
        let coordinator = TransitionCoordinator(fromSize: scene.window.size, toSize: size)
        // A tab bar's other loaded tabs follow the shown stack (choice); they lay out when shown.
        let controllers = scene.window.allLoadedControllers
        for controller in controllers {
            controller.runViewWillTransition(to: size, with: coordinator)
        }
        let traits = TraitCollection(size: size)
        if traits != TraitCollection(size: scene.window.size) {
            for controller in controllers {
                controller.runTraitCollectionDidChange(to: traits, first: false)
            }
        }
        scene.window.size = size
        for tab in scene.window.tabBarController?.viewControllers ?? [navigationController] { tab.size = size }
        navigationController.visibleViewController?.runLayout(size: size)
    }
}
