import Protocol

/// The app-based lifecycle (docs/LIFECYCLE.md §3d): an app without scene support. The
/// runtime still keeps its window in an internal scene object, but no scene callback runs,
/// no scene is connected (`Application.connectedScene` stays nil) and the app delegate gets
/// the activation and background callbacks.
extension WorkerSession {
    /// `willFinishLaunching`, (`shouldRestoreSecureApplicationState` when state was saved),
    /// `didFinishLaunching`, the root loads, then the first appearance or the background.
    func appConnect(_ options: ConnectOptions) throws(ProtocolError) -> JSONValue? {
        let root = try makeViewController(options.root, payload: nil)
        let (applicationDelegate, launchOptions) = willFinishLaunching(options)
        // UIKit restores app-level state between the two launch callbacks.
        if case .object(let values)? = options.restoration {
            sink.report(CallbackEvent(.shouldRestoreSecureApplicationState, restoration: options.restoration))
            _ = applicationDelegate.application(
                application,
                shouldRestoreSecureApplicationState: NSCoder(values: values)
            )
        }
        sink.report(CallbackEvent(.didFinishLaunching, value: options.launchValue))
        _ = applicationDelegate.application(application, didFinishLaunchingWithOptions: launchOptions)
        _ = applicationDelegate.application(
            application,
            didFinishLaunchingWithOptions: [:] as [Application.LaunchOptionsKey: Any]?
        )
        sink.delegateReturned()

        let navigationController = NavigationController(rootViewController: root)
        navigationController.sink = sink
        navigationController.changeHandler = self
        let session = SceneSession(
            persistentIdentifier: options.session,
            role: options.role,
            configuration: SceneConfiguration(name: options.configuration, sessionRole: options.role)
        )
        scene = UIWindowScene(
            session: session,
            window: Window(rootViewController: navigationController, size: Self.launchSize(options))
        )
        root.runLoadViewIfNeeded()
        if options.background {
            return appEnterBackground()
        }
        appFirstAppearance()
        return nil
    }

    /// Top `viewWillAppear` … layout, (`applicationWillEnterForeground` from the background),
    /// `applicationDidBecomeActive`, Top `viewDidAppear`: UIKit's window-based launch order.
    func appFirstAppearance() {
        guard let scene, let top = scene.window.navigationStack.topViewController else { return }
        let navigationController = scene.window.navigationStack
        top.runLoadViewIfNeeded()
        top.isMovingToParent = !navigationController.isImplicit
        defer { top.isMovingToParent = false }
        top.runViewWillAppear(false)
        top.runLayout(size: scene.window.size)
        if scene.activationState == .background {
            appEnterForeground()
        }
        appBecomeActive()
        navigationController.isOnScreen = true
        hasAppeared = true
        top.runViewDidAppear(false)
    }

    func appEnterForeground() {
        sink.report(.applicationWillEnterForeground)
        applicationDelegate?.applicationWillEnterForeground(application)
        sink.delegateReturned()
        setAppState(.foregroundInactive)
    }

    func appBecomeActive() {
        setAppState(.foregroundActive)
        sink.report(.applicationDidBecomeActive)
        applicationDelegate?.applicationDidBecomeActive(application)
        sink.delegateReturned()
    }

    func appResignActive() {
        sink.report(.applicationWillResignActive)
        applicationDelegate?.applicationWillResignActive(application)
        sink.delegateReturned()
        setAppState(.foregroundInactive)
    }

    /// `applicationDidEnterBackground`, `shouldSaveSecureApplicationState`; returns the saved state.
    func appEnterBackground() -> JSONValue? {
        setAppState(.background)
        sink.report(.applicationDidEnterBackground)
        applicationDelegate?.applicationDidEnterBackground(application)
        sink.delegateReturned()
        return sendable(appSaveState())
    }

    /// `shouldSaveSecureApplicationState`: what the app encoded, when it answers `true`.
    func appSaveState() -> JSONValue? {
        sink.report(.shouldSaveSecureApplicationState)
        let coder = NSCoder()
        guard applicationDelegate?.application(application, shouldSaveSecureApplicationState: coder) == true else {
            return nil
        }
        return coder.jsonValue
    }

    /// `applicationWillTerminate` of a background app; the process exits after the reply.
    func appWillTerminate() {
        sink.report(.applicationWillTerminate)
        applicationDelegate?.applicationWillTerminate(application)
        sink.delegateReturned()
        application.unattachedState = .background
        setAppState(.unattached)
    }

    private func setAppState(_ state: ActivationState) {
        scene?.activationState = state
        application.appActivation = state == .unattached ? nil : state
    }
}
