import Protocol

/// Changes the app makes from its own code (LIFECYCLE.md §3b): checked with the rules of
/// the host's own requests and, when legal, followed; a change the rules refuse means the
/// worker lied (its API refuses such a change before it is reported), a protocol violation.
extension SceneMachine {
    package mutating func receivedChange(_ change: AppChange) {
        guard worker!.sawReady else {
            violation("app change \(change.name) before the handshake")
            return
        }
        worker!.appChangeOpen = false
        if let refusal = refusal(of: change) {
            violation("illegal app change \(change.name): \(refusal)")
            return
        }
        inFlight?.sawAppChange = true
        switch change {
        case .push(let name):
            lifecycle.completed(.push(viewController: name))
        case .pop:
            lifecycle.completed(.pop)
        case .popToRoot:
            lifecycle.completed(.popToRoot)
        case .popTo(let index):
            lifecycle.popped(to: index)
        case .beginBackgroundTask:
            lifecycle.completed(.beginBackgroundTask)
            startBackgroundTaskTimers()
        case .endBackgroundTask:
            lifecycle.completed(.endBackgroundTask)
            cancelBackgroundTaskTimers()
            scheduleSuspension()
        case .setStack(let stack):
            lifecycle.rebuiltStack(stack)
        case .replaceStack(let kept, let below, let name):
            lifecycle.replacedStack(keeping: kept, below: below, top: name)
        case .setTabs(let tabs, let selected):
            lifecycle.madeTabs(tabs, selected: selected)
            // The trace's willConnectTo came before the app's code: this tells the verifier.
            record(TraceEvent(kind: .host, scene: id, name: TraceEvent.tabBarName, tab: selected, tabCount: tabs.count))
            // No callback of the app's follows: the selected tab's root loads as the launch's.
            return
        case .present(let name, let style):
            lifecycle.completed(.present(viewController: name, style: style))
        case .dismiss:
            lifecycle.completed(.dismiss)
        case .selectTab(let index):
            lifecycle.completed(.selectTab(index: index))
        case .addChild(let name):
            lifecycle.completed(.addChild(viewController: name))
        case .removeChild(let name):
            lifecycle.completed(.removeChild(viewController: name))
        case .requestSceneSessionActivation, .requestSceneSessionDestruction:
            // Another scene's business (or this one's discard, queued behind what runs):
            // no callback of this scene follows the change.
            output.append(.appSceneRequest(change))
            return
        }
        worker!.appChangeOpen = true
        // A background task begun or ended inside the app's own navigation (UIKit runs it
        // synchronously, in a callback) leaves that navigation's marks to its other callbacks.
        if change == .beginBackgroundTask || change == .endBackgroundTask { return }
        worker!.appChangePresentStyle = presentedStyle(change)
        if case .selectTab(let index) = change { worker!.appChangeTab = index } else { worker!.appChangeTab = nil }
        worker!.appChangePopTarget = popTarget(change)
        if case .replaceStack(let kept, let below, let name) = change {
            worker!.appChangeKept = kept
            worker!.appChangeReplacementValue = StackReplacementValue(kept: kept, below: below, top: name).json
        } else {
            worker!.appChangeKept = nil
            worker!.appChangeReplacementValue = nil
        }
    }

    private func popTarget(_ change: AppChange) -> Int? {
        switch change {
        case .popToRoot: 0
        case .popTo(let index): index
        default: nil
        }
    }

    private func presentedStyle(_ change: AppChange) -> PresentationStyle? {
        if case .present(_, let style) = change { return style }
        return nil
    }

    /// Why `change` is illegal now, or nil. Its names obey the limits a client's request
    /// obeys (`SceneLimits`): the worker's API refuses longer ones, so only a worker that
    /// speaks the protocol itself can send one, and the host refuses to store it.
    private func refusal(of change: AppChange) -> String? {
        // Navigation the app asks for while the worker carries out a host request waits for
        // the reply; background tasks are synchronous in UIKit and may come in the middle.
        // A request written but not started yet (none of its callbacks arrived) does not
        // count: the worker ran the change before reading it, and judges it afterwards.
        let requestInWorker = worker!.requestStarted
        func judged(_ op: SceneOperation) -> String? {
            if case .refuse(let reason) = lifecycle.request(op) { return reason }
            return nil
        }
        switch change {
        case .push(let name):
            if requestInWorker { return "navigation during a host request" }
            return SceneLimits.viewControllerNameRefusal(name) ?? judged(.push(viewController: name))
        case .pop:
            if requestInWorker { return "navigation during a host request" }
            return judged(.pop)
        case .popToRoot:
            if requestInWorker { return "navigation during a host request" }
            return judged(.popToRoot)
        case .popTo(let index):
            if requestInWorker { return "navigation during a host request" }
            // Above the root (a pop to the root is `popToRoot`) and below the top.
            guard index >= 1, index < lifecycle.stack.count - 1 else {
                return "no controller at index \(index) above the root and below the top of a stack of "
                    + "\(lifecycle.stack.count)"
            }
            return judged(.popToRoot)
        case .present(let name, let style):
            if requestInWorker { return "navigation during a host request" }
            return SceneLimits.viewControllerNameRefusal(name) ?? judged(.present(viewController: name, style: style))
        case .dismiss:
            if requestInWorker { return "navigation during a host request" }
            return judged(.dismiss)
        case .selectTab(let index):
            if requestInWorker { return "navigation during a host request" }
            // Selecting the selected tab runs nothing: the worker does not report it.
            if index == lifecycle.selectedTab { return "the tab is already selected" }
            return judged(.selectTab(index: index))
        case .addChild(let name):
            if requestInWorker { return "navigation during a host request" }
            return SceneLimits.viewControllerNameRefusal(name) ?? judged(.addChild(viewController: name))
        case .removeChild(let name):
            if requestInWorker { return "navigation during a host request" }
            return SceneLimits.viewControllerNameRefusal(name) ?? judged(.removeChild(viewController: name))
        case .beginBackgroundTask:
            return judged(.beginBackgroundTask)
        case .endBackgroundTask:
            return judged(.endBackgroundTask)
        case .replaceStack(let kept, let below, let name):
            if requestInWorker { return "navigation during a host request" }
            // Keeps controllers of the stack, in order (the wire checked that), leaves one out
            // or loads new ones below the new top (else it is a push), and ends with a new top,
            // within a stack's depth.
            guard (kept.last ?? -1) < lifecycle.stack.count else {
                return "the kept indices \(kept) are not all indices of a stack of \(lifecycle.stack.count)"
            }
            guard kept.count < lifecycle.stack.count || !below.isEmpty else {
                return "the kept indices \(kept) leave out no controller of a stack of \(lifecycle.stack.count), and "
                    + "no new controller comes below the new top (that is a push)"
            }
            guard kept.count + below.count < SceneLifecycle.maximumStackDepth else {
                return "a new stack of \(kept.count + below.count + 1) view controllers"
            }
            if let refusal = (below + [name]).lazy.compactMap(SceneLimits.viewControllerNameRefusal).first {
                return refusal
            }
            return LifecycleOperation.push.refusal(in: lifecycle.snapshot)?.reason
        case .setStack(let stack):
            // Only in willConnectTo, that is while the launch's connect is in the worker.
            guard let flight = inFlight, case .reply(_, .connect) = flight.wait else {
                return "setStack outside willConnectTo"
            }
            // Its root is the host's, or one the app chose for a window it made in code.
            guard !stack.isEmpty, stack.count <= SceneLifecycle.maximumStackDepth else {
                return "a rebuilt stack of \(stack.count) view controllers"
            }
            if lifecycle.tabs.count > 0, stack.first != lifecycle.stack.first {
                return "a tab bar root's stack must start with the tab's root \(lifecycle.stack.first ?? "")"
            }
            return stack.lazy.compactMap(SceneLimits.viewControllerNameRefusal).first
        case .setTabs(let tabs, let selected):
            guard let flight = inFlight, case .reply(_, .connect(let options)) = flight.wait else {
                return "setTabs outside willConnectTo"
            }
            if options.tabs != nil || !lifecycle.tabs.isEmpty { return "the scene has tabs already" }
            guard (1...SceneLimits.maximumTabs).contains(tabs.count), tabs.indices.contains(selected) else {
                return "a tab bar of \(tabs.count) tabs, tab \(selected) selected"
            }
            return tabs.lazy.compactMap(SceneLimits.viewControllerNameRefusal).first
        case .requestSceneSessionActivation(let session, let activityType, let userInfo):
            if let session, !SceneSession.isValidIdentifier(session) { return "an invalid session identifier" }
            if activityType?.isEmpty == true { return "an empty activity type" }
            // The activity reaches the window as a client's would (its launch's options, or
            // `continueUserActivity`): the same limits, so that it never takes a frame the
            // new window's worker could not answer.
            guard activityType != nil || userInfo != nil else { return nil }
            let activityType = activityType ?? ""
            if activityType.utf8.count > RequestLimits.maximumURLBytes {
                return "an activity type of more than \(RequestLimits.maximumURLBytes) bytes"
            }
            return SceneLimits.userActivityRefusal(
                activityType: activityType,
                userInfo: userInfo,
                frameLimit: configuration.frameLimit
            )
        case .requestSceneSessionDestruction(let session):
            return SceneSession.isValidIdentifier(session) ? nil : "an invalid session identifier"
        }
    }
}
