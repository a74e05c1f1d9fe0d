import Protocol

/// The trace rules for the callbacks of changes the app made itself (`origin: "app"`,
/// docs/LIFECYCLE.md §3b), kept apart from the host's atoms: `SceneTraceChecker` asks it
/// about every scene event before its own atom matching.
///
/// - An app push, pop, pop to the root or to a controller (`popTo`, the app's only), stack
///   replacement (`replaceStack`, the app's only), present or dismiss is an atom of its own,
///   with the host's steps for it, every one of them marked `app`; it starts only where the
///   host's could (no atom in progress, foreground, a stack of two or more for a pop,
///   something presented for a dismiss), and nothing of the host comes inside it. A host atom takes no `app` step either, except the two below.
/// - `beginBackgroundTask` and `endBackgroundTask` marked `app` stand alone, anywhere the
///   scene is attached (even inside an atom, the host's or the app's, as UIKit runs them
///   synchronously: the classic is a task begun in `sceneDidEnterBackground`), with the
///   host's rules: one task at a time, an end only for a running task.
/// - A stack the app rebuilt while connecting loads after the root: inside the launch, right
///   after the root's `viewDidLoad` (or another restored controller's), each restored
///   controller's `loadView` then `viewDidLoad`, both marked `app`, bottom first.
///
/// Like the checker, deciding never changes anything: the caller commits a copy once the
/// event is accepted.
package struct AppOriginRules: Sendable, Equatable {
    /// The origin of the atom in progress: nil for the host's, `app` for an app push or pop.
    package private(set) var atomOrigin: String?
    /// The launch loaded its root (and maybe restored controllers) and nothing else came
    /// since: a restored controller may load now.
    private var mayLoadRestored = false
    /// A restored controller whose `loadView` came: its `viewDidLoad` must come next.
    private var pendingRestoredLoad: String?

    /// What the checker knows of the scene that these rules need.
    package struct Scene {
        package var activation: ActivationState
        package var processState: ProcessState
        package var hasLaunched: Bool
        package var isShuttingDown: Bool
        package var hasBackgroundTask: Bool
        /// The atom in progress (asked only when an event's origin is not the atom's).
        package var progress: AtomProgress

        package var isInsideAtom: Bool { progress.isInsideAtom }

        /// The atom in progress owes the state event of its last callback next.
        package var owesStateEvent: Bool {
            guard case .state? = progress.remaining.first else { return false }
            return true
        }
    }

    /// What to do with an event.
    package enum Decision: Equatable {
        /// A stand-alone app event (a background task, a restored controller's load): apply
        /// its effects, without touching the atom in progress.
        case standalone
        /// Match it against the atom in progress (it has that atom's origin).
        case matchAtom
        /// It cannot continue the atom in progress (another origin): it must start a new atom.
        case startAtom
    }

    /// Decides what `event` is; throws (a description of what was expected) when the app
    /// rules refuse it outright. Changes nothing.
    package func decide(_ event: TraceEvent, in scene: Scene) throws(AppOriginRefusal) -> Decision {
        if let origin = event.origin {
            guard origin == CallbackOrigin.app.rawValue, event.kind == .callback else {
                throw AppOriginRefusal("no origin (only callbacks carry one, and only \"app\")")
            }
        }
        if let pending = pendingRestoredLoad {
            guard event.isAppCallback(.viewDidLoad, vc: pending) else {
                throw AppOriginRefusal("callback viewDidLoad (vc \(pending.inMessage)) with origin app")
            }
            return .standalone
        }
        if event.origin != nil, let name = CallbackName(named: event.name ?? "") {
            switch name {
            case .beginBackgroundTask, .endBackgroundTask:
                try checkBackgroundTask(name, event, in: scene)
                return .standalone
            case .loadView where mayLoadRestored:
                guard event.viewController != nil else {
                    throw AppOriginRefusal("callback loadView with a vc")
                }
                return .standalone
            default:
                break
            }
        }
        if event.origin == atomOrigin { return .matchAtom }
        guard !scene.isInsideAtom else {
            let whose = atomOrigin == nil ? "the host's transition" : "the app's change"
            throw AppOriginRefusal("the rest of \(whose) first (no event with another origin inside it)")
        }
        return .startAtom
    }

    /// The host's rules for a background task the app begins or ends.
    private func checkBackgroundTask(
        _ name: CallbackName,
        _ event: TraceEvent,
        in scene: Scene
    ) throws(AppOriginRefusal) {
        guard event.viewController == nil else {
            throw AppOriginRefusal("callback \(name) without a vc")
        }
        guard !scene.owesStateEvent else {
            throw AppOriginRefusal("the state event of the callback before")
        }
        let running = scene.processState == .running || scene.processState == .launching
        guard running, scene.hasLaunched, !scene.isShuttingDown, scene.activation != .unattached else {
            throw AppOriginRefusal(
                "no app background task while the scene is \(scene.activation) (worker \(scene.processState))"
            )
        }
        if name == .beginBackgroundTask && scene.hasBackgroundTask {
            throw AppOriginRefusal("no second background task (one is running)")
        }
        if name == .endBackgroundTask && !scene.hasBackgroundTask {
            throw AppOriginRefusal("no endBackgroundTask without a running background task")
        }
    }

    /// Checks that the atom `event` starts may have its origin. Changes nothing.
    package func checkStart(of atom: LifecycleAtom, by event: TraceEvent) throws(AppOriginRefusal) {
        guard event.origin != nil else {
            // No request of the host's pops to a controller: only the app does.
            if atom == .popTo { throw AppOriginRefusal("popTo only with origin app (popToViewController)") }
            if atom == .replaceStack {
                throw AppOriginRefusal("replaceStack only with origin app (setViewControllers)")
            }
            return
        }
        switch atom {
        case .push, .pop, .popToRoot, .popTo, .replaceStack, .present, .dismiss, .selectTab, .addChild, .removeChild:
            return
        default:
            throw AppOriginRefusal(
                "no app-initiated \(atom) (the app may push, pop, pop to the root or to a controller, replace its"
                    + " stack, present, dismiss, select a tab, add and remove children, and run background tasks)"
            )
        }
    }

    /// Records an accepted event. `decision` is what `decide` said; `startedAtom` whether it
    /// started a new atom.
    package mutating func accepted(_ event: TraceEvent, as decision: Decision, startedAtom: Bool, in scene: Scene) {
        switch decision {
        case .standalone:
            if event.name == CallbackName.loadView.rawValue {
                pendingRestoredLoad = event.viewController
            } else if event.name == CallbackName.viewDidLoad.rawValue {
                pendingRestoredLoad = nil
            }
            return
        case .matchAtom, .startAtom:
            if startedAtom { atomOrigin = event.origin }
        }
        // The launch's root loaded (host `viewDidLoad` while launching): restored controllers may follow.
        mayLoadRestored =
            scene.processState == .launching && event.origin == nil && event.kind == .callback
            && event.name == CallbackName.viewDidLoad.rawValue
    }

    /// Whether a state event with no origin would be matched against the atom in progress
    /// (`decide` says `.matchAtom`): the host's atom, no restored controller's load pending.
    package var matchesOwnStateEvents: Bool {
        atomOrigin == nil && pendingRestoredLoad == nil
    }

    /// `accepted` of a state event `decide` matched against the atom (`matchesOwnStateEvents`).
    package mutating func acceptedStateEvent() {
        mayLoadRestored = false
    }

    /// The worker is gone: nothing of its changes remains.
    package mutating func reset() {
        self = AppOriginRules()
    }
}

/// Why the app-origin rules refuse an event: what they expected instead.
package struct AppOriginRefusal: Error {
    package var expected: String

    package init(_ expected: String) {
        self.expected = expected
    }
}

extension TraceEvent {
    /// Whether the event is the callback `name` of `vc`, marked as the app's.
    fileprivate func isAppCallback(_ name: CallbackName, vc: String) -> Bool {
        kind == .callback && self.name == name.rawValue && viewController == vc
            && origin == CallbackOrigin.app.rawValue
    }
}
