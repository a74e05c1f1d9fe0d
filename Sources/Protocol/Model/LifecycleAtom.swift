/// The callback grammar: the transitions of docs/LIFECYCLE.md §2–§4 as the trace shows them.
/// Each is an atom: once its first callback is seen, the rest must follow exactly, in order.
/// Given the scene's state, the first callback identifies the atom unambiguously.
///
/// The trace checker builds its expectations from `firstStep` and `remainingSteps`; the
/// worker and the checker take the legality of each atom from `requirements`.
public enum LifecycleAtom: Sendable, Hashable, CaseIterable {
    case launch
    case firstAppearance
    case enterForeground
    case becomeActive
    case resignActive
    case enterBackground
    /// `stateRestorationActivity` asked again of a background scene (the `stateRestoration`
    /// wire operation); entering background asks it as part of its own atom.
    case stateRestoration
    case disconnect
    case push
    case pop
    case sizeChange
    case memoryWarning
    case notification
    case beginBackgroundTask
    case backgroundTaskExpiration
    case endBackgroundTask
    /// A tap on the frontmost controller (docs/LIFECYCLE.md §3c).
    case tap
    /// A URL or a user activity delivered to a connected scene (docs/LIFECYCLE.md §3c).
    case openURL
    case continueUserActivity
    /// The app delegate hears of sessions discarded elsewhere (`didDiscardSceneSessions` from
    /// a worker, not the host's event of the discarded scene itself).
    case discardedSessions

    /// The scene's state an atom is built from.
    public struct Context: Sendable, Hashable {
        public var activation: ActivationState
        /// Bottom first.
        public var stack: [String]
        /// Whether the session was connected before in this trace (then the launch has no
        /// `configurationForConnecting`).
        public var sessionExists: Bool

        public init(activation: ActivationState, stack: [String], sessionExists: Bool) {
            self.activation = activation
            self.stack = stack
            self.sessionExists = sessionExists
        }
    }

    /// The step that starts the atom.
    public func firstStep(stack: [String]) -> ExpectedStep {
        let top = stack.last ?? ""
        switch self {
        case .launch: return .callback(.willFinishLaunching)
        case .firstAppearance: return .callback(.viewWillAppear, vc: top)
        case .enterForeground: return .callback(.sceneWillEnterForeground)
        case .becomeActive: return .callback(.sceneDidBecomeActive)
        case .resignActive: return .callback(.sceneWillResignActive)
        case .enterBackground: return .callback(.sceneDidEnterBackground)
        case .stateRestoration: return .callback(.stateRestorationActivity)
        case .disconnect: return .callback(.sceneDidDisconnect)
        case .push: return .callback(.loadView, .newController)
        case .pop: return .callback(.viewWillDisappear, vc: top)
        case .sizeChange: return .callback(.viewWillTransition, vc: stack.first ?? "")
        case .memoryWarning: return .callback(.applicationDidReceiveMemoryWarning)
        case .notification: return .callback(.didReceiveNotification)
        case .beginBackgroundTask: return .callback(.beginBackgroundTask)
        case .backgroundTaskExpiration: return .callback(.backgroundTaskExpiration)
        case .endBackgroundTask: return .callback(.endBackgroundTask)
        case .tap: return .callback(.touchesBegan, vc: top)
        case .openURL: return .callback(.openURLContexts)
        case .continueUserActivity: return .callback(.continueUserActivity)
        case .discardedSessions: return .callback(.didDiscardSceneSessions)
        }
    }

    /// The steps after the first one. `startedBy` is the controller named by the event that
    /// matched `firstStep` (a push learns the new controller's name from it).
    public func remainingSteps(startedBy controller: String?, in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        let top = stack.last ?? ""
        switch self {
        case .launch:
            // The root's name is unknown until its loadView: later steps use `.top`.
            let configuration: [ExpectedStep] =
                context.sessionExists ? [] : [.oneOf([[.callback(.configurationForConnecting)], []])]
            let toForeground = Self.firstAppearanceSteps(from: .unattached, controller: .top)
            let toBackground = Self.enterBackgroundSteps(from: .unattached)
            // Sessions discarded while no worker of the app ran come right after launching.
            let discarded: ExpectedStep = .oneOf([[.callback(.didDiscardSceneSessions)], []])
            return [.callback(.didFinishLaunching), discarded] + configuration + [
                .callback(.willConnectTo),
                .callback(.loadView, .newController),
                .callback(.viewDidLoad, .top),
                .oneOf([toForeground, toBackground]),
            ]
        case .firstAppearance:
            return Array(Self.firstAppearanceSteps(from: context.activation, controller: .named(top)).dropFirst())
        case .enterForeground:
            return [
                .state(from: .background, to: .foregroundInactive),
                .callback(.sceneDidBecomeActive),
                .state(from: .foregroundInactive, to: .foregroundActive),
            ]
        case .becomeActive:
            return [.state(from: .foregroundInactive, to: .foregroundActive)]
        case .resignActive:
            return [.state(from: .foregroundActive, to: .foregroundInactive)]
        case .enterBackground:
            return Array(Self.enterBackgroundSteps(from: .foregroundInactive).dropFirst())
        case .disconnect:
            // Deinits top first, or applicationWillTerminate with no deinits (choice).
            let deinits = stack.reversed().map { ExpectedStep.callback(.deinit, vc: $0) }
            return [
                .state(from: .background, to: .unattached),
                .oneOf([deinits, [.callback(.applicationWillTerminate)]]),
            ]
        case .push:
            let pushed = controller ?? ""
            return [
                .callback(.viewDidLoad, vc: pushed),
                .callback(.viewWillDisappear, vc: top),
                .callback(.viewWillAppear, vc: pushed),
                .callback(.viewWillLayoutSubviews, vc: pushed),
                .callback(.viewDidLayoutSubviews, vc: pushed),
                .callback(.viewDidDisappear, vc: top),
                .callback(.viewDidAppear, vc: pushed),
            ]
        case .pop:
            let below = stack.dropLast().last ?? ""
            return [
                .callback(.viewWillAppear, vc: below),
                .callback(.viewWillLayoutSubviews, vc: below),
                .callback(.viewDidLayoutSubviews, vc: below),
                .callback(.viewDidDisappear, vc: top),
                .callback(.viewDidAppear, vc: below),
                .callback(.deinit, vc: top),
            ]
        case .sizeChange:
            return stack.dropFirst().map { ExpectedStep.callback(.viewWillTransition, vc: $0) } + [
                .callback(.viewWillLayoutSubviews, vc: top),
                .callback(.viewDidLayoutSubviews, vc: top),
                .moreLayoutPasses(top),
            ]
        case .memoryWarning:
            return stack.map { ExpectedStep.callback(.didReceiveMemoryWarning, vc: $0) }
        case .tap:
            return [.callback(.touchesEnded, vc: top)]
        case .stateRestoration, .notification, .beginBackgroundTask, .backgroundTaskExpiration, .endBackgroundTask,
            .openURL, .continueUserActivity, .discardedSessions:
            return []
        }
    }

    /// First appearance from `unattached` (right after launch) or `background` (the first
    /// foreground trip after a background launch).
    private static func firstAppearanceSteps(from: ActivationState, controller: ControllerPattern) -> [ExpectedStep] {
        [
            .callback(.viewWillAppear, controller),
            .callback(.viewWillLayoutSubviews, controller),
            .callback(.viewDidLayoutSubviews, controller),
            .callback(.sceneWillEnterForeground),
            .state(from: from, to: .foregroundInactive),
            .callback(.sceneDidBecomeActive),
            .state(from: .foregroundInactive, to: .foregroundActive),
            .callback(.viewDidAppear, controller),
        ]
    }

    /// Every entry to background saves state, the connect-to-background one included (choice).
    private static func enterBackgroundSteps(from: ActivationState) -> [ExpectedStep] {
        [
            .callback(.sceneDidEnterBackground),
            .state(from: from, to: .background),
            .callback(.stateRestorationActivity),
        ]
    }
}

extension LifecycleAtom {
    /// When the atom may start, a new process's launch aside (the launch comes first in a
    /// process and only then): the model's one table of which transition is legal in which
    /// state. The worker refuses a wire operation none of whose atoms may start; the trace
    /// checker refuses an atom that may not start.
    public var requirements: [LifecycleRequirement] {
        switch self {
        case .launch: [.activation([.unattached])]
        case .firstAppearance: [.activation([.background]), .appeared(false)]
        case .enterForeground: [.activation([.background]), .appeared(true)]
        case .becomeActive, .enterBackground: [.activation([.foregroundInactive])]
        case .resignActive: [.activation([.foregroundActive])]
        case .stateRestoration, .disconnect: [.activation([.background])]
        case .push, .sizeChange: [.foreground]
        case .pop: [.foreground, .controllerAboveRoot]
        case .memoryWarning, .notification: [.attached]
        case .beginBackgroundTask: [.attached, .noBackgroundTask]
        case .backgroundTaskExpiration: [.attached, .unexpiredBackgroundTask]
        case .endBackgroundTask: [.attached, .backgroundTask]
        // Inactive means "running, receives no events".
        case .tap: [.activation([.foregroundActive])]
        // The host brings a background scene forward first (choice).
        case .openURL, .continueUserActivity: [.foreground]
        case .discardedSessions: [.attached]
        }
    }

    /// Whether the atom may start in `snapshot` (the launch aside, see `requirements`).
    public func mayStart(in snapshot: SceneSnapshot) -> Bool {
        requirements.firstUnmet(by: snapshot) == nil
    }
}
