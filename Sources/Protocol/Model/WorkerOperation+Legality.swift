extension WorkerOperation {
    /// The atoms the operation may start with, in the order the worker tries them: the
    /// operation is legal when one of them may start. `background` from `foregroundActive`
    /// starts by resigning active; `foreground` is the first appearance or an enter-foreground;
    /// `disconnect` and `terminate` both run the disconnect atom.
    public var firstAtoms: [LifecycleAtom] {
        switch self {
        case .connect: [.launch]
        case .activate: [.becomeActive, .appBecomeActive]
        case .deactivate: [.resignActive, .appResignActive]
        case .enterBackground: [.resignActive, .enterBackground, .appResignActive, .appEnterBackground]
        case .enterForeground: [.firstAppearance, .enterForeground, .appFirstAppearance, .appEnterForeground]
        case .stateRestoration: [.stateRestoration, .appStateRestoration]
        case .disconnect: [.disconnect]
        case .terminate: [.disconnect, .appTerminate]
        case .push: [.push]
        case .pop: [.pop]
        case .resize: [.sizeChange]
        case .memoryWarning: [.memoryWarning]
        case .windowMemoryWarning: [.windowMemoryWarning]
        case .notify: [.notification]
        case .beginBackgroundTask: [.beginBackgroundTask]
        case .endBackgroundTask: [.endBackgroundTask]
        case .expireBackgroundTask: [.backgroundTaskExpiration]
        case .present: [.present]
        case .swipeBack: [.pop]
        case .dismiss: [.dismiss]
        case .swipeDismiss: [.dismiss, .attemptToDismiss]
        case .tap: [.tap]
        // From the background the scene comes forward with it (§3f).
        case .openURL: [.openURL, .firstAppearance, .enterForeground]
        case .continueUserActivity: [.continueUserActivity, .firstAppearance, .enterForeground]
        case .quickAction: [.quickAction, .firstAppearance, .enterForeground]
        case .openNotification: [.openNotification, .firstAppearance, .enterForeground]
        case .remoteNotification: [.remoteNotification]
        case .popToRoot: [.popToRoot]
        case .didDiscardSceneSessions: [.discardedSessions]
        case .selectTab: [.selectTab]
        case .addChild: [.addChild]
        case .removeChild: [.removeChild]
        case .user: [.userAction]
        // A look, not a transition: legal whenever a scene is attached (the host checks that).
        case .inspect: []
        }
    }

    /// Whether judging the operation reads the view hierarchy: one of its first atoms'
    /// requirements does (`LifecycleAtom.readsViewHierarchy`), or its parameters are checked
    /// against the window (a size, a tab, a child, a swipe). The lifecycle transitions read
    /// only the scene's state.
    public var readsViewHierarchy: Bool {
        switch self {
        case .resize, .selectTab, .addChild, .removeChild, .swipeDismiss: true
        default: firstAtoms.contains(where: \.readsViewHierarchy)
        }
    }

    /// Why the worker must refuse the operation in `snapshot` (the worker's own view of its
    /// scene), or nil when one of its first atoms may start. The refusal names the first
    /// atom's first unmet requirement (the activation states of all of them, when that is
    /// what none of them has). Parameters are not judged here.
    public func refusal(in snapshot: SceneSnapshot) -> LifecycleRefusal? {
        var unmet: [LifecycleRequirement] = []
        for atom in firstAtoms {
            guard let requirement = atom.requirements.firstUnmet(by: snapshot) else { return nil }
            unmet.append(requirement)
        }
        guard var reason = unmet.first else { return nil }
        var states: [ActivationState] = []
        for requirement in unmet {
            guard case .activation(let allowed) = requirement else {
                states = []
                break
            }
            states += allowed.filter { !states.contains($0) }
        }
        if !states.isEmpty { reason = .activation(ActivationStates(states)) }
        return LifecycleRefusal(operation: name, requirement: reason, snapshot: snapshot)
    }
}
