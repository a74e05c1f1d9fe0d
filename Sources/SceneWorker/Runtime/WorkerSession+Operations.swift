import Protocol

/// The operations a worker carries out once they are legal: each runs the app's callbacks in
/// UIKit's order and returns the reply's result.
extension WorkerSession {
    /// Runs a legal operation's callbacks; returns the reply's `result`.
    func execute(_ operation: WorkerOperation) throws(ProtocolError) -> JSONValue? {
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
            return sendable(lifecycle == .app ? appSaveState() : stateRestorationActivity())
        case .disconnect:
            didDisconnectAndRelease()
            // In an app process the scene leaves, and the process runs on (c15).
            if appProcess != nil { return detach() }
        case .terminate:
            if lifecycle == .app {
                appWillTerminate()
                break
            }
            // The app's other scenes go first; its last one ends the process (c13).
            if let appProcess, appProcess.hasOtherScenes(than: self) {
                didDisconnectAndRelease()
                return detach()
            }
            didDisconnect()
            sink.report(.applicationWillTerminate)
            applicationDelegate?.applicationWillTerminate(application)
            sink.delegateReturned()
        case .push(let name, let payload):
            let controller = try makeViewController(name, payload: payload)
            scene?.window.navigationStack.performPush(controller, animated: true)
        case .pop:
            popAndRelease()
        case .resize(let width, let height):
            resize(to: Size(width: width, height: height))
        case .memoryWarning:
            sink.report(.applicationDidReceiveMemoryWarning)
            applicationDelegate?.applicationDidReceiveMemoryWarning(application)
            sink.delegateReturned()
            for controller in scene?.window.allLoadedControllers ?? [] {
                controller.runDidReceiveMemoryWarning()
            }
        case .windowMemoryWarning:
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
        case .present(let name, let style, let modal):
            let controller = try makeViewController(name, payload: nil)
            controller.modalPresentationStyle = style
            if modal { controller.isModalInPresentation = true }
            scene?.window.navigationStack.performPresent(controller)
        case .dismiss:
            scene?.window.navigationStack.performDismiss()
        case .swipeDismiss(let completes):
            // The reply says whether the sheet went (a modal-in-presentation one never does).
            let dismissed = scene?.window.navigationStack.performSwipeDismiss(completes: completes) ?? false
            return .bool(dismissed)
        case .swipeBack(let completes):
            guard let stack = scene?.window.navigationStack else { break }
            // The gesture that does not begin on a device changes nothing here either.
            if let refusal = stack.swipeBackRefusal() {
                throw ProtocolError(.operationFailed, "the swipe back does not begin: \(refusal)")
            }
            stack.performSwipeBack(completes: completes)
        case .tap:
            // The frontmost controller: the presented one, if any, else the stack's top.
            let navigation = scene?.window.navigationStack
            navigation?.visibleViewController?.runTap()
        case .didDiscardSceneSessions(let sessions):
            didDiscard(sessions)
        case .openURL(let url):
            deliverInForeground { $0.openURLContexts(url) }
        case .continueUserActivity(let activityType, let userInfo):
            deliverInForeground { $0.continueUserActivity(activityType, userInfo: userInfo) }
        case .quickAction(let type, let userInfo):
            deliverInForeground { $0.performAction(type: type, userInfo: userInfo) }
        case .openNotification(let actionIdentifier, let userInfo):
            let response = NotificationResponse(
                jsonValue: .object(["actionIdentifier": .string(actionIdentifier), "userInfo": userInfo ?? .null])
            )
            deliverInForeground { $0.didReceive(response ?? NotificationResponse()) }
        case .remoteNotification(let userInfo):
            didReceiveRemoteNotification(userInfo)
        case .popToRoot:
            scene?.window.navigationStack.performPop(to: 0)
        case .selectTab(let index):
            scene?.window.tabBarController?.performSelect(index)
        case .addChild(let name):
            let child = try makeViewController(name, payload: nil)
            frontmostController?.performAddChild(child, asContainer: true)
        case .removeChild(let name):
            removeChildAndRelease(name)
        case .user(let action):
            try performUserAction(action)
        case .inspect:
            let tree = VisibleTree.bounded(scene, state: state)
            let count = backgroundTimers.scheduledWhileSuspendable
            guard count > 0, case .object(var object) = tree else { return tree }
            object["backgroundTimers"] = .int(count)
            return .object(object)
        }
        return nil
    }

    /// `sceneDidDisconnect`, then the window's controllers are released: the shown stack
    /// first, then each other loaded tab's, in tab order (choice).
    func didDisconnectAndRelease() {
        didDisconnect()
        guard let scene else { return }
        scene.window.navigationStack.releaseAllTopFirst()
        for tab in scene.window.tabBarController?.otherLoadedTabs ?? [] { tab.releaseAllTopFirst() }
    }

    /// The scene leaves its app's process, which runs on: the reply says so.
    func detach() -> JSONValue {
        hasDetached = true
        if application.connectedScene === scene { application.connectedScene = nil }
        scene = nil
        sceneDelegate = nil
        return WorkerOperation.detachedReply
    }

    /// The frontmost controller: the presented one, else the top of the selected stack.
    var frontmostController: UIViewController? { scene?.window.navigationStack.visibleViewController }

    /// Removes the frontmost controller's child `name` and drops the runtime's last reference
    /// to it, so its `deinit` runs (and reports) before the reply, unless app code keeps it.
    func removeChildAndRelease(_ name: String) {
        guard let parent = frontmostController, let child = parent.child(named: name) else { return }
        parent.performRemoveChild(child, asContainer: true)
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
        _ = applicationDelegate.application(
            application,
            willFinishLaunchingWithOptions: nil as [Application.LaunchOptionsKey: Any]?
        )
        return (applicationDelegate, launchOptions)
    }

    /// The app's launch: `willFinishLaunching`, then `didFinishLaunching`; the new delegate.
    private func launch(_ options: ConnectOptions) -> any ApplicationDelegate {
        let (applicationDelegate, launchOptions) = willFinishLaunching(options)
        sink.report(.didFinishLaunching)
        _ = applicationDelegate.application(application, didFinishLaunchingWithOptions: launchOptions)
        // UIKit's form of the same callback (a template's), right after: scene-based apps get nil.
        _ = applicationDelegate.application(
            application,
            didFinishLaunchingWithOptions: nil as [Application.LaunchOptionsKey: Any]?
        )
        sink.delegateReturned()
        return applicationDelegate
    }

    func connect(_ options: ConnectOptions) throws(ProtocolError) -> JSONValue? {
        // A silent push for an app that does not run: launched into the background for it,
        // with no scene connected (c20); in its running process, the push alone.
        if let push = options.remoteNotification, appProcess != nil {
            if let launched = application.delegate {
                applicationDelegate = launched
            } else {
                _ = launch(options)
            }
            didReceiveRemoteNotification(push)
            return detach()
        }
        let root = try makeViewController(options.root, payload: nil)
        // Another scene of the app connects in its running process: no launch (c13, c15).
        if appProcess != nil, let launched = application.delegate {
            applicationDelegate = launched
            return try connectScene(options, root: root, applicationDelegate: launched)
        }
        let applicationDelegate = launch(options)
        if let discarded = options.discardedSessions, !discarded.isEmpty {
            didDiscard(discarded)
        }
        return try connectScene(options, root: root, applicationDelegate: applicationDelegate)
    }

    /// A scene's connect, after the app's launch (or in the app's running process):
    /// `configurationForConnecting` for a new session, `willConnectTo`, the root, and the
    /// first appearance or the entry to the background.
    func connectScene(
        _ options: ConnectOptions,
        root: UIViewController,
        applicationDelegate: any ApplicationDelegate
    ) throws(ProtocolError) -> JSONValue? {
        let session = SceneSession(
            persistentIdentifier: options.session,
            role: options.role,
            configuration: SceneConfiguration(name: options.configuration, sessionRole: options.role)
        )
        session.stateRestorationActivity = options.restoration.flatMap(UserActivity.init(jsonValue:))
        let connectionOptions = Scene.ConnectionOptions(
            restoration: options.restoration,
            url: options.url,
            userActivity: options.activityType.map { UserActivity(activityType: $0, userInfo: options.userInfo) },
            shortcutItem: options.shortcutItem.flatMap(ApplicationShortcutItem.init(jsonValue:)),
            notificationResponse: options.notificationResponse.flatMap(NotificationResponse.init(jsonValue:))
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
        let sceneDelegate =
            (session.configuration.delegateClass?.init() as? any UISceneDelegate) ?? app.makeSceneDelegate()
        scene.delegate = sceneDelegate
        self.scene = scene
        self.sceneDelegate = sceneDelegate
        application.connectedScene = scene

        if let windowSceneDelegate = sceneDelegate as? any UIWindowSceneDelegate {
            windowSceneDelegate.window = scene.window
        }
        sink.report(CallbackEvent(.willConnectTo, restoration: options.restoration, value: options.connectionValue))
        isInWillConnectTo = true
        let runtimeWindow = scene.window
        let runtimeRoot = runtimeWindow.rootViewController
        scene.acceptsWindowMadeInCode = true
        sceneDelegate.scene(scene, willConnectTo: session, options: connectionOptions)
        scene.acceptsWindowMadeInCode = false
        adoptWindowMadeInCode(scene, replacing: runtimeWindow, originalRoot: runtimeRoot, root: root)
        sink.delegateReturned()
        if let activity = session.stateRestorationActivity {
            sceneDelegate.scene(scene, restoreInteractionStateWith: activity)
        }
        isInWillConnectTo = false
        scene.window.navigationStack.viewControllers.first?.runLoadViewIfNeeded()
        loadRestoredControllers()

        if options.background {
            return enterBackground()
        }
        // A tapped notification that launched the app reaches the notification center's
        // delegate while the scene is still foregroundInactive (real-ios-orders-3 c12).
        if let response = connectionOptions.notificationResponse {
            firstAppearance { $0.didReceive(response) }
        } else {
            firstAppearance()
        }
        return nil
    }

    /// The window: one navigation stack on `root`, or a tab bar whose first tab is `root`'s
    /// and whose other tabs' roots report nothing until their first selection.
    func makeWindow(root: UIViewController, _ options: ConnectOptions) throws(ProtocolError) -> Window {
        func stack(_ controller: UIViewController) -> NavigationController {
            let navigationController = NavigationController(rootViewController: controller)
            navigationController.sink = sink
            navigationController.changeHandler = self
            return navigationController
        }
        let size = Self.launchSize(options)
        guard let tabs = options.tabs else {
            let window = Window(rootViewController: stack(root), size: size)
            window.userInterfaceStyle = options.style == .dark ? .dark : .light
            return window
        }
        var stacks = [stack(root)]
        for name in tabs.dropFirst() {
            let controller = try makeViewController(name, payload: nil)
            controller.sink = nil
            stacks.append(stack(controller))
        }
        let tabBarController = TabBarController(viewControllers: stacks)
        tabBarController.changeHandler = self
        let window = Window(tabBarController: tabBarController, size: size)
        window.userInterfaceStyle = options.style == .dark ? .dark : .light
        return window
    }

    /// `application(_:didDiscardSceneSessions:)`, reported with the sessions as its `value`.
    func didDiscard(_ sessions: [String]) {
        sink.report(CallbackEvent(.didDiscardSceneSessions, value: .array(sessions.map { .string($0) })))
        applicationDelegate?.application(application, didDiscardSceneSessions: Set(sessions))
        let discarded = sessions.map { identifier in
            SceneSession(
                persistentIdentifier: identifier,
                role: SceneSession.windowApplicationRole,
                configuration: SceneConfiguration(
                    name: "Default Configuration",
                    sessionRole: SceneSession.windowApplicationRole
                )
            )
        }
        applicationDelegate?.application(application, didDiscardSceneSessions: Set(discarded))
    }

    /// The window size a launch starts at: the host's `width`/`height`, else the default.
    static func launchSize(_ options: ConnectOptions) -> Size {
        guard let width = options.width, let height = options.height else { return Window.defaultSize }
        return Size(width: width, height: height)
    }

    /// Top `viewWillAppear`, Top layout pair, `sceneWillEnterForeground`, (`delivering`),
    /// `sceneDidBecomeActive`, Top `viewDidAppear`.
    func firstAppearance(delivering delivery: ((WorkerSession) -> Void)? = nil) {
        guard let scene, let top = scene.window.navigationStack.topViewController else { return }
        let navigationController = scene.window.navigationStack
        top.runLoadViewIfNeeded()
        // A navigation controller's stack is added to the window now (its root's
        // `isMovingToParent` is true, as UIKit's); the runtime's own stack is not the app's.
        top.isMovingToParent = !navigationController.isImplicit
        defer { top.isMovingToParent = false }
        top.runViewWillAppear(false)
        top.runLayout(size: scene.window.size)
        enterForeground()
        delivery?(self)
        becomeActive()
        navigationController.isOnScreen = true
        hasAppeared = true
        top.runViewDidAppear(false)
    }

    func enterForeground() {
        guard let scene else { return }
        sink.report(.sceneWillEnterForeground)
        sceneDelegate?.sceneWillEnterForeground(scene)
        sink.delegateReturned()
        scene.activationState = .foregroundInactive
    }

    func becomeActive() {
        guard let scene else { return }
        scene.activationState = .foregroundActive
        // The application follows once the scene's own notification is out (c01).
        application.isActivating = true
        sink.report(.sceneDidBecomeActive)
        sceneDelegate?.sceneDidBecomeActive(scene)
        sink.delegateReturned()
        application.isActivating = false
    }

    func resignActive() {
        guard let scene else { return }
        sink.report(.sceneWillResignActive)
        sceneDelegate?.sceneWillResignActive(scene)
        sink.delegateReturned()
        scene.activationState = .foregroundInactive
    }

    /// `sceneDidEnterBackground`, `stateRestorationActivity`; returns the latter's answer.
    /// From the foreground, a dark scene's snapshots follow (`snapshotInBothAppearances`).
    func enterBackground() -> JSONValue? {
        guard let scene else { return nil }
        let wasOnScreen = scene.activationState.isForeground
        leftTheForeground = wasOnScreen
        scene.activationState = .background
        sink.report(.sceneDidEnterBackground)
        sceneDelegate?.sceneDidEnterBackground(scene)
        sink.delegateReturned()
        let answer = sendable(stateRestorationActivity())
        if wasOnScreen { snapshotInBothAppearances() }
        return answer
    }

    /// `state` as the reply can carry it: itself, or, when no frame could (larger than the
    /// frame limit less a connect frame's room, or nested deeper than a frame's parser
    /// reads), the marker that says why (`SceneLimits.unsendableState`). The host then keeps
    /// the session's earlier state and fails the request with `sessionNotStored`; a reply
    /// over the limit was a protocol violation, and the worker was killed for the app's state.
    func sendable(_ state: JSONValue?) -> JSONValue? {
        guard let state,
            let refusal = SceneLimits.restorationStateRefusal(state, frameLimit: FrameLimits.defaultMaximumFrameSize)
        else { return state }
        return SceneLimits.unsendableState(refusal)
    }

    /// UIKit snapshots a dark scene for the app switcher in both appearances: every loaded
    /// controller's traits flip to light, then back (real-ios-orders-3 c17). A light scene's
    /// snapshot changes nothing.
    func snapshotInBothAppearances() {
        guard let window = scene?.window, window.userInterfaceStyle == .dark else { return }
        let controllers = window.allLoadedControllers
        var light = window.traitCollection
        light.userInterfaceStyle = .light
        for controller in controllers { controller.runTraitCollectionDidChange(to: light) }
        for controller in controllers { controller.runTraitCollectionDidChange(to: window.traitCollection) }
    }

    func stateRestorationActivity() -> JSONValue? {
        guard let scene else { return nil }
        sink.report(.stateRestorationActivity)
        guard let sceneDelegate else { return nil }
        if let activity: UserActivity = sceneDelegate.stateRestorationActivity(for: scene) {
            return activity.jsonValue
        }
        return sceneDelegate.stateRestorationActivity(for: scene) as JSONValue?
    }

    func didDisconnect() {
        guard let scene else { return }
        application.unattachedState = .background
        scene.activationState = .unattached
        sink.report(.sceneDidDisconnect)
        sceneDelegate?.sceneDidDisconnect(scene)
        sink.delegateReturned()
    }

    /// Pops the top controller and drops the runtime's last reference to it, so its `deinit`
    /// runs (and reports) before the reply, unless app code keeps it alive.
    func popAndRelease() {
        _ = scene?.window.navigationStack.performPop(animated: true)
    }

    func resize(to size: Size) {
        guard let scene else { return }
        let navigationController = scene.window.navigationStack
        let blocks = PendingTransitionBlocks()
        let coordinator = TransitionCoordinator(fromSize: scene.window.size, toSize: size, pending: blocks)
        // A tab bar's other loaded tabs follow the shown stack (choice); they lay out when shown.
        let controllers = scene.window.allLoadedControllers
        for controller in controllers {
            controller.runViewWillTransition(to: size, with: coordinator)
        }
        let before = scene.window.traitCollection
        let traits = TraitCollection(size: size, userInterfaceStyle: scene.window.userInterfaceStyle)
        if before.changesSizeClass(to: traits) {
            for controller in controllers { controller.runWillTransition(to: traits, with: coordinator) }
            for controller in controllers { controller.runTraitCollectionDidChange(to: traits) }
        }
        scene.window.size = size
        if let windowScene = scene as? UIWindowScene {
            sink.report(.windowSceneDidUpdate)
            (sceneDelegate as? any UIWindowSceneDelegate)?.windowScene(
                windowScene,
                didUpdate: WindowCoordinateSpace(size: coordinator.fromSize),
                interfaceOrientation: InterfaceOrientation(size: coordinator.fromSize),
                traitCollection: before
            )
        }
        for tab in scene.window.tabBarController?.tabStacks ?? [navigationController] { tab.size = size }
        navigationController.visibleViewController?.runLayout(size: size)
        // What the controllers asked to run alongside and after it, at the new size.
        blocks.run(coordinator)
    }
}
