import Protocol

/// The transitions of docs/LIFECYCLE.md. Each is an atom: once its first callback is seen,
/// the rest must follow exactly, in order. Given the scene's state, the first callback
/// identifies the atom unambiguously.
enum LifecycleAtom: Sendable, CaseIterable {
    case launch
    case firstAppearance
    case enterForeground
    case becomeActive
    case resignActive
    case enterBackground
    case disconnect
    case push
    case pop
    case sizeChange
    case memoryWarning
    case notification
    case beginBackgroundTask
    case backgroundTaskExpiration
    case endBackgroundTask

    /// The scene's state an atom is built from.
    struct Context {
        var activation: ActivationState
        /// Bottom first.
        var stack: [String]
        /// Whether the session was connected before in this trace (then the launch has no
        /// `configurationForConnecting`).
        var sessionExists: Bool
    }

    /// The step that starts the atom.
    func firstStep(stack: [String]) -> ExpectedStep {
        let top = stack.last ?? ""
        switch self {
        case .launch: return .callback(.didFinishLaunching)
        case .firstAppearance: return .callback(.viewWillAppear, vc: top)
        case .enterForeground: return .callback(.sceneWillEnterForeground)
        case .becomeActive: return .callback(.sceneDidBecomeActive)
        case .resignActive: return .callback(.sceneWillResignActive)
        case .enterBackground: return .callback(.sceneDidEnterBackground)
        case .disconnect: return .callback(.sceneDidDisconnect)
        case .push: return .callback(.loadView, .newController)
        case .pop: return .callback(.viewWillDisappear, vc: top)
        case .sizeChange: return .callback(.viewWillTransition, vc: stack.first ?? "")
        case .memoryWarning: return .callback(.applicationDidReceiveMemoryWarning)
        case .notification: return .callback(.didReceiveNotification)
        case .beginBackgroundTask: return .callback(.beginBackgroundTask)
        case .backgroundTaskExpiration: return .callback(.backgroundTaskExpiration)
        case .endBackgroundTask: return .callback(.endBackgroundTask)
        }
    }

    /// The steps after the first one. `started` is the event that matched `firstStep`
    /// (a push learns the new controller's name from it).
    func remainingSteps(after started: TraceEvent, in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        let top = stack.last ?? ""
        switch self {
        case .launch:
            // The root's name is unknown until its loadView: later steps use `.top`.
            let configuration: [ExpectedStep] =
                context.sessionExists ? [] : [.oneOf([[.callback(.configurationForConnecting)], []])]
            let toForeground = Self.firstAppearanceSteps(from: .unattached, controller: .top)
            let toBackground = Self.enterBackgroundSteps(from: .unattached)
            return configuration + [
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
            let pushed = started.viewController ?? ""
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
        case .notification, .beginBackgroundTask, .backgroundTaskExpiration, .endBackgroundTask:
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
