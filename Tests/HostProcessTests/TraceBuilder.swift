import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// Builds a trace, assigning `seq` 1, 2, 3, … in order.
struct TraceBuilder {
    var events: [TraceEvent] = []
    /// The scene of the events added without an explicit scene.
    var scene = "A"
    /// The pid of the last `spawned`: a process event names its process.
    var pid: Int32 = 100

    init(scene: String = "A") { self.scene = scene }

    mutating func add(_ event: TraceEvent) {
        var event = event
        event.seq = events.count + 1
        event.time = Double(events.count) * 0.001
        events.append(event)
    }

    mutating func callback(_ name: CallbackName, _ vc: String? = nil) {
        add(TraceEvent(kind: .callback, scene: scene, name: name.rawValue, viewController: vc))
    }

    mutating func state(_ from: ActivationState, _ to: ActivationState) {
        add(TraceEvent(kind: .state, scene: scene, from: from, to: to))
    }

    mutating func spawned(pid: Int32 = 100) {
        self.pid = pid
        add(TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: pid))
    }

    mutating func suspended() { add(TraceEvent(kind: .process, scene: scene, processEvent: .suspended, pid: pid)) }
    mutating func resumed() { add(TraceEvent(kind: .process, scene: scene, processEvent: .resumed, pid: pid)) }

    mutating func exited(_ reason: TerminationReason, status: Int32? = nil, signal: String? = nil) {
        add(
            TraceEvent(
                kind: .process,
                scene: scene,
                processEvent: .exited,
                pid: pid,
                reason: reason,
                status: status,
                signal: signal
            )
        )
    }

    mutating func notification(_ name: String, _ value: JSONValue) {
        add(
            TraceEvent(
                kind: .callback,
                scene: scene,
                name: CallbackName.didReceiveNotification.rawValue,
                notification: name,
                value: value
            )
        )
    }

    // Atoms, for the tests that are not about the atoms themselves.

    mutating func launch(root: String = "Root", newSession: Bool = true) {
        spawned()
        callback(.willFinishLaunching)
        callback(.didFinishLaunching)
        if newSession { callback(.configurationForConnecting) }
        callback(.willConnectTo)
        callback(.loadView, root)
        callback(.viewDidLoad, root)
    }

    mutating func firstAppearance(from: ActivationState, top: String = "Root") {
        callback(.viewWillAppear, top)
        callback(.viewIsAppearing, top)
        callback(.viewWillLayoutSubviews, top)
        callback(.viewDidLayoutSubviews, top)
        callback(.sceneWillEnterForeground)
        state(from, .foregroundInactive)
        callback(.sceneDidBecomeActive)
        state(.foregroundInactive, .foregroundActive)
        callback(.viewDidAppear, top)
    }

    mutating func connectToForeground(root: String = "Root", newSession: Bool = true) {
        launch(root: root, newSession: newSession)
        firstAppearance(from: .unattached, top: root)
    }

    mutating func toBackground(from: ActivationState = .foregroundActive) {
        if from == .foregroundActive {
            callback(.sceneWillResignActive)
            state(.foregroundActive, .foregroundInactive)
        }
        callback(.sceneDidEnterBackground)
        state(from == .unattached ? .unattached : .foregroundInactive, .background)
        callback(.stateRestorationActivity)
    }

    mutating func push(_ pushed: String, over top: String) {
        callback(.loadView, pushed)
        callback(.viewDidLoad, pushed)
        callback(.viewWillDisappear, top)
        callback(.viewWillAppear, pushed)
        callback(.viewIsAppearing, pushed)
        callback(.viewWillLayoutSubviews, pushed)
        callback(.viewDidLayoutSubviews, pushed)
        callback(.viewDidDisappear, top)
        callback(.viewDidAppear, pushed)
    }

    mutating func disconnect(stackTopFirst: [String] = ["Root"]) {
        callback(.sceneDidDisconnect)
        state(.background, .unattached)
        for vc in stackTopFirst { callback(.deinit, vc) }
        exited(.disconnected, status: 0)
    }
}

/// Runs `events` through a fresh verifier; returns the first violation.
func firstViolation(_ events: [TraceEvent]) -> LifecycleViolation? {
    var verifier = TraceVerifier()
    for event in events {
        if let violation = verifier.check(event) { return violation }
    }
    return nil
}

/// The full valid life of one scene, written out event by event (the model's example).
func fullLife(scene: String = "A") -> [TraceEvent] {
    var t = TraceBuilder(scene: scene)
    t.spawned(pid: 4242)
    // Launch to foreground.
    t.callback(.willFinishLaunching)
    t.callback(.didFinishLaunching)
    t.callback(.configurationForConnecting)
    t.callback(.willConnectTo)
    t.callback(.loadView, "Root")
    t.callback(.viewDidLoad, "Root")
    t.callback(.viewWillAppear, "Root")
    t.callback(.viewIsAppearing, "Root")
    t.callback(.viewWillLayoutSubviews, "Root")
    t.callback(.viewDidLayoutSubviews, "Root")
    t.callback(.sceneWillEnterForeground)
    t.state(.unattached, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    t.callback(.viewDidAppear, "Root")
    // Deactivate, activate.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    // Push Detail.
    t.callback(.loadView, "Detail")
    t.callback(.viewDidLoad, "Detail")
    t.callback(.viewWillDisappear, "Root")
    t.callback(.viewWillAppear, "Detail")
    t.callback(.viewIsAppearing, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    t.callback(.viewDidDisappear, "Root")
    t.callback(.viewDidAppear, "Detail")
    // Resize, with the layout pass running twice.
    t.callback(.viewWillTransition, "Root")
    t.callback(.viewWillTransition, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    t.callback(.viewWillLayoutSubviews, "Detail")
    t.callback(.viewDidLayoutSubviews, "Detail")
    // Pop.
    t.callback(.viewWillDisappear, "Detail")
    t.callback(.viewWillAppear, "Root")
    t.callback(.viewIsAppearing, "Root")
    t.callback(.viewWillLayoutSubviews, "Root")
    t.callback(.viewDidLayoutSubviews, "Root")
    t.callback(.viewDidDisappear, "Detail")
    t.callback(.viewDidAppear, "Root")
    t.callback(.deinit, "Detail")
    // Memory warning.
    t.callback(.applicationDidReceiveMemoryWarning)
    t.callback(.didReceiveMemoryWarning, "Root")
    // Background, saving state.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidEnterBackground)
    t.state(.foregroundInactive, .background)
    t.callback(.stateRestorationActivity)
    // Suspended, resumed, a queued notification.
    t.suspended()
    t.resumed()
    t.notification("refresh", .int(3))
    // Foreground (controllers already appeared: no VC callbacks).
    t.callback(.sceneWillEnterForeground)
    t.state(.background, .foregroundInactive)
    t.callback(.sceneDidBecomeActive)
    t.state(.foregroundInactive, .foregroundActive)
    // Background again, then disconnect.
    t.callback(.sceneWillResignActive)
    t.state(.foregroundActive, .foregroundInactive)
    t.callback(.sceneDidEnterBackground)
    t.state(.foregroundInactive, .background)
    t.callback(.stateRestorationActivity)
    t.callback(.sceneDidDisconnect)
    t.state(.background, .unattached)
    t.callback(.deinit, "Root")
    t.exited(.disconnected, status: 0)
    return t.events
}
