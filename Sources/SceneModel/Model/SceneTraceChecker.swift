import Protocol

/// Checks the events of one scene against the lifecycle model of docs/LIFECYCLE.md.
///
/// A plain state machine: the scene's activation and process state, the navigation stack,
/// and the steps still owed by the atom in progress. `check` takes one event at a time and
/// either accepts it (updating the state) or returns the violation, leaving the state as
/// it was, so that a host can refuse the event and go on.
public struct SceneTraceChecker: Sendable, Equatable {
    /// How far a disconnect has gone in this process.
    enum Shutdown: Sendable, Equatable {
        case none
        /// `sceneDidDisconnect` ran; deinits or `applicationWillTerminate` follow.
        case disconnecting
        /// Every controller deinited: only the exit (`disconnected`) may follow.
        case disconnected
        /// `applicationWillTerminate` ran: only the exit (`terminated`) may follow.
        case terminating
    }

    /// The scene's activation state as the accepted events left it.
    public internal(set) var activation: ActivationState = .unattached
    /// The worker process's state: `none` before the first `spawned`, `launching` until the
    /// launch atom ends, `terminated` after `exited`.
    public internal(set) var processState: ProcessState = .none
    /// The pid the live worker's `spawned` named, if it named one: its other process events
    /// name the same.
    var livePid: Int32?
    /// The navigation stack by controller name, root first.
    public internal(set) var stack: [String] = []
    /// Whether `didDiscardSceneSessions` ended the scene: every later scene event is refused.
    public internal(set) var isDiscarded = false
    /// The style of the controller presented on top of `stack` (the last one), nil when none is.
    /// The styles of the controllers presented over the stack, the first presented first (they
    /// are the top entries of `stack`).
    var presentations: [PresentationStyle] = []
    /// The style of the last controller presented, if any.
    public var presentation: PresentationStyle? { presentations.last }
    /// The style the presentation in progress named (its `loadView`'s `value`), until its
    /// branch is known.
    var presentingStyle: PresentationStyle?
    /// The lifecycle of the current (or last) worker's app: the launch's branch tells it.
    public internal(set) var lifecycle = LifecycleKind.scene
    /// A tab bar root's tab count (from `willConnectTo`'s `tabs`), 0 for one stack.
    public internal(set) var tabCount = 0
    /// The selected tab: `stack` is its stack.
    public internal(set) var selectedTab = 0
    /// Per controller of `stack`: its children, in the order they were added (LIFECYCLE.md §3a).
    public internal(set) var children: [[String]] = []

    /// Whether an atom has started and still owes steps (optional trailing steps, such as a
    /// repeated layout pass, do not count).
    public var isInsideAtom: Bool { progress.isInsideAtom }

    /// Whether the worker has a background task that has not ended.
    public var hasBackgroundTask: Bool { backgroundTask != .none }

    /// The scene as the model's legality tables see it.
    public var snapshot: SceneSnapshot {
        SceneSnapshot(
            activation: activation,
            process: processState,
            stackDepth: stack.count,
            backgroundTask: backgroundTask,
            hasAppeared: hasAppeared,
            isDiscarded: isDiscarded,
            sessionExists: sessionExists,
            presentation: presentation,
            presentationDepth: presentations.count,
            lifecycle: lifecycle,
            tabCount: tabCount,
            selectedTab: selectedTab,
            frontmostChildren: children.last ?? []
        )
    }

    /// The atom in progress and the steps it still owes.
    var progress = AtomProgress()
    /// The lifecycle notifications the last callback may still post.
    var owedNotifications = OwedNotifications()
    /// The rules of the app's own changes (AppOriginRules.swift).
    var appOrigin = AppOriginRules()
    /// `didFinishLaunching` ran in the current process (or the scene attached to its app's
    /// running process, which had).
    var hasLaunched = false
    /// The current process carries the scenes of one app (`spawned` or `attached` named it):
    /// scenes connect in it and leave it, and its memory warnings reach every window.
    var inAppProcess = false
    /// The controllers have begun appearing in the current process (first appearance ran).
    var hasAppeared = false
    var backgroundTask = BackgroundTaskState.none
    /// The current process began a background task (ended or not): the only kind of process
    /// the host ends with reason `background-task-timeout`.
    var hasBegunBackgroundTask = false
    var shutdown = Shutdown.none
    /// The session connected before in this trace, so a launch is a reconnect and has no
    /// `configurationForConnecting`.
    var sessionExists = false
    /// Per controller of `stack`: its layout is dirty (LifecycleAtom.Context.needsLayout).
    var needsLayout: [Bool] = []
    /// Every tab's stack and layout flags (the selected tab's entries are stale: `stack` and
    /// `needsLayout` are current); an empty stack is a tab not loaded yet.
    var tabStacks: [[String]] = []
    var tabNeedsLayout: [[Bool]] = []
    /// Every tab's controllers' children (the selected tab's entry is stale: `children` is current).
    var tabChildren: [[[String]]] = []
    /// An `addChild` atom runs: its `loadView` is a child's, not a new top's.
    var isAddingChild = false
    /// How many children's `deinit`s come next: those of a released parent, or of a removed child.
    var pendingChildDeinits = 0

    /// The other tabs' loaded stacks' children, in tab order.
    var otherTabChildren: [[[String]]] {
        // One stack (no tab bar), the common case: nothing to filter.
        guard !tabStacks.isEmpty else { return [] }
        return tabStacks.indices.filter { $0 != selectedTab && !tabStacks[$0].isEmpty }.map {
            tabChildren.indices.contains($0) ? tabChildren[$0] : []
        }
    }

    /// The other tabs' loaded stacks, in tab order.
    var otherTabs: [[String]] {
        guard !tabStacks.isEmpty else { return [] }
        return tabStacks.indices.filter { $0 != selectedTab }.map { tabStacks[$0] }.filter { !$0.isEmpty }
    }

    /// A checker for a scene that has no worker and has not been seen yet.
    public init() {}

    /// Checks `event` (an event of this checker's scene). Returns nil when the model allows
    /// it, else the violation; on a violation the checker's state does not change.
    /// `host` and `error` events are always accepted and change nothing.
    public mutating func check(_ event: TraceEvent) -> LifecycleViolation? {
        check(event, callback: nil)
    }

    /// `check(_:)` with the callback `event.name` names, when its maker has it already (nil:
    /// looked up here).
    package mutating func check(_ event: TraceEvent, callback: CallbackName?) -> LifecycleViolation? {
        if event.kind == .error || (event.kind == .host && event.name != TraceEvent.tabBarName) { return nil }
        assert(
            callback == nil || callback == CallbackName(named: event.name ?? ""),
            "a callback hint that is not the event's name"
        )
        do {
            try apply(event, callback: callback)
        } catch {
            return error
        }
        return nil
    }

    // MARK: - Applying events

    // Every `apply…` method decides first and changes state only after its last `throw`:
    // that is what leaves the checker unchanged on a violation (without copying it per event).

    private mutating func apply(_ event: TraceEvent, callback: CallbackName?) throws(LifecycleViolation) {
        if isDiscarded {
            // Only a new worker may follow: it opens a new session under the same name.
            guard event.kind == .process, event.processEvent == .spawned || event.processEvent == .attached else {
                throw violation(event, expected: "no further event but process spawned (the session was discarded)")
            }
            isDiscarded = false
            sessionExists = false
        }
        switch event.kind {
        case .process:
            try applyProcessEvent(event)
        case .callback, .state:
            try applySceneEvent(event, callback: callback)
        case .host:
            if event.name == TraceEvent.tabBarName { try applyTabBar(event) }
        case .error:
            return
        }
    }

    /// The app made a tab bar root while connecting (host event `tabBar`, after `willConnectTo`
    /// and before the root loads): its tab count and selected tab.
    private mutating func applyTabBar(_ event: TraceEvent) throws(LifecycleViolation) {
        guard processState == .launching || processState == .running, sessionExists, !hasAppeared, stack.isEmpty,
            tabCount == 0, let count = event.tabCount, count > 0, let selected = event.tab, selected >= 0,
            selected < count
        else {
            throw violation(
                event,
                expected:
                    "host tabBar only after willConnectTo and before the root loads, with tabs and a selected tab among them"
            )
        }
        tabCount = count
        tabStacks = Array(repeating: [], count: count)
        tabNeedsLayout = Array(repeating: [], count: count)
        tabChildren = Array(repeating: [], count: count)
        selectedTab = selected
    }

    /// A callback or a state event.
    private mutating func applySceneEvent(
        _ event: TraceEvent,
        callback hint: CallbackName?
    ) throws(LifecycleViolation) {
        guard processState.isAlive else { return try applyEventWithoutWorker(event) }
        guard processState != .suspended else {
            throw violation(event, expected: "process resumed (the worker is suspended)")
        }
        // The state event the host's atom owes next, its callback's: what the general path
        // below decides for it (matched against the atom, no marks passed, its activation
        // applied), without building its decision's inputs. It is half the events a host
        // checks on every transition.
        if event.kind == .state, event.origin == nil, appOrigin.matchesOwnStateEvents, let from = event.from,
            let to = event.to, progress.consumeNextState(from: from, to: to)
        {
            appOrigin.acceptedStateEvent()
            activation = to
            for mark in progress.takeMarks() { apply(mark) }
            if processState == .launching && hasLaunched && !isInsideAtom {
                processState = .running
            }
            return
        }
        // A lifecycle notification: only right after the callback that posts it (state events,
        // and the callbacks of what the app did inside its delegate method, may come between),
        // in order, each at most once.
        let named = event.kind == .callback ? hint ?? CallbackName(named: event.name ?? "") : nil
        if let named, named.isLifecycleNotification {
            if let expected = owedNotifications.accept(named) { throw violation(event, expected: expected) }
            return
        }
        // The app's own changes first: stand-alone ones, and which atom an event may belong to.
        let appScene = AppOriginRules.Scene(
            activation: activation,
            processState: processState,
            hasLaunched: hasLaunched,
            isShuttingDown: shutdown != .none,
            hasBackgroundTask: backgroundTask != .none,
            progress: progress
        )
        let decision: AppOriginRules.Decision
        do {
            decision = try appOrigin.decide(event, in: appScene)
        } catch {
            throw violation(event, expected: error.expected)
        }
        let callback = named
        var startedAtom = false
        if decision == .standalone {
            appOrigin.accepted(event, as: decision, startedAtom: false, in: appScene)
            if let callback, event.origin == nil { owedNotifications.owe(after: callback) }
            return applyEffects(of: event, callback: callback)
        }
        // (An unknown callback name matches no step, so it is refused below.)
        switch decision == .startAtom ? .atomFinished : progress.consume(event, stack: stack) {
        case .matched:
            break
        case .mismatch:
            throw violation(
                event,
                expected: ExpectedStep.describeNext(progress.remaining, stack: stack, afterwards: nil)
            )
        case .atomFinished:
            // One snapshot for every atom tried (a few per event, on the host's hot path).
            let snapshot = snapshot
            let atom = Self.atomsStarted(by: callback).first { atom in
                event.op == atom.startingOp && mayStart(atom, in: snapshot) && startsAtom(atom, event)
            }
            guard let atom else {
                let legal = LifecycleAtom.allCases.filter { mayStart($0, in: snapshot) }
                let starts =
                    legal.isEmpty
                    ? idleExpectation
                    : legal.map { $0.firstStep(stack: stack).summary(stack: stack) }.joined(separator: " or ")
                throw violation(
                    event,
                    expected: ExpectedStep.describeNext(progress.remaining, stack: stack, afterwards: starts)
                )
            }
            do {
                try appOrigin.checkStart(of: atom, by: event)
            } catch {
                throw violation(event, expected: error.expected)
            }
            let tab = atom == .selectTab ? event.tab ?? 0 : selectedTab
            if let steps = atom.contextFreeRemainingSteps {
                progress = AtomProgress(steps)
            } else {
                var context = LifecycleAtom.Context(
                    activation: activation,
                    stack: stack,
                    sessionExists: sessionExists,
                    presentation: presentation,
                    needsLayout: needsLayout,
                    selectedStack: tabStacks.indices.contains(tab) ? tabStacks[tab] : [],
                    selectedNeedsLayout: tabNeedsLayout.indices.contains(tab) ? tabNeedsLayout[tab] : [],
                    otherTabs: otherTabs,
                    children: children,
                    selectedChildren: tabChildren.indices.contains(tab) ? tabChildren[tab] : [],
                    otherTabChildren: otherTabChildren
                )
                if atom == .popTo, case .int(let target)? = event.value { context.popTarget = target }
                if atom == .replaceStack, let replacement = StackReplacementValue(event.value) {
                    context.keptControllers = replacement.kept
                    context.newControllers = replacement.newControllers(firstLoaded: event.viewController ?? "")
                }
                progress = AtomProgress(atom.remainingSteps(startedBy: event.viewController, in: context))
            }
            startedAtom = true
            if atom == .selectTab { show(tab: tab) }
            // The style a presentation names (`value` of its loadView): sheet-like styles share
            // their callbacks, and only a page sheet may be swiped down.
            if atom == .present, case .string(let name)? = event.value {
                presentingStyle = PresentationStyle(rawValue: name)
            }
            if atom == .addChild { isAddingChild = true }
        }
        appOrigin.accepted(event, as: decision, startedAtom: startedAtom, in: appScene)
        if let callback, event.origin == nil { owedNotifications.owe(after: callback) }
        applyEffects(of: event, callback: callback)
        for mark in progress.takeMarks() { apply(mark) }
        if processState == .launching && hasLaunched && !isInsideAtom {
            processState = .running
        }
    }

    /// With no live worker, the only scene events are the host's: the state event to
    /// `unattached` it owes after an exit, and `didDiscardSceneSessions`.
    private mutating func applyEventWithoutWorker(_ event: TraceEvent) throws(LifecycleViolation) {
        if activation != .unattached {
            let owed = ExpectedStep.state(from: activation, to: .unattached)
            guard owed.matches(event, stack: stack) else {
                throw violation(event, expected: owed.summary(stack: stack))
            }
            activation = .unattached
            return
        }
        guard event.kind == .callback, event.name == CallbackName.didDiscardSceneSessions.rawValue,
            event.viewController == nil
        else {
            throw violation(event, expected: "process spawned or callback didDiscardSceneSessions")
        }
        isDiscarded = true
    }

    /// What each accepted callback or state event changes, whatever atom it belongs to.
    /// `callback`: the event's callback, nil for a state event or an unknown name.
    private mutating func applyEffects(of event: TraceEvent, callback: CallbackName?) {
        if event.kind == .state, let to = event.to {
            activation = to
            return
        }
        guard let name = callback else { return }
        switch name {
        case .didFinishLaunching:
            hasLaunched = true
        case .willConnectTo:
            sessionExists = true
            tabCount = event.tabCount ?? 0
            tabStacks = Array(repeating: [], count: tabCount)
            tabNeedsLayout = Array(repeating: [], count: tabCount)
            tabChildren = Array(repeating: [], count: tabCount)
            selectedTab = 0
        case .loadView:
            // A child's view loads outside the stack (its addChild mark records it).
            guard !isAddingChild else { break }
            stack.append(event.viewController ?? "")
            needsLayout.append(true)
            children.append([])
        case .viewWillAppear:
            hasAppeared = true
        case .deinit:
            if pendingChildDeinits > 0 {
                // A removed child's, or a released parent's children's (the steps name them).
                pendingChildDeinits -= 1
            } else {
                // Pop, dismiss and disconnect deinit the top controller (the steps guarantee it);
                // a presented one is always the top. Its children deinit right after it.
                stack.removeLast()
                needsLayout.removeLast()
                pendingChildDeinits = children.popLast()?.count ?? 0
                if !presentations.isEmpty { presentations.removeLast() }
            }
            if shutdown == .disconnecting && stack.isEmpty && pendingChildDeinits == 0 { shutdown = .disconnected }
        case .sceneDidDisconnect:
            shutdown = .disconnecting
            // The other tabs' controllers deinit after the shown stack's, in tab order: the
            // deinit effect takes them off the end.
            let others = tabStacks.indices.filter { $0 != selectedTab }
            stack = others.reversed().flatMap { tabStacks[$0] } + stack
            needsLayout = others.reversed().flatMap { tabNeedsLayout[$0] } + needsLayout
            children =
                others.reversed().flatMap { tab in
                    let kids = tabChildren.indices.contains(tab) ? tabChildren[tab] : []
                    return tabStacks[tab].indices.map { kids.indices.contains($0) ? kids[$0] : [] }
                } + children
            tabStacks = []
            tabNeedsLayout = []
            tabChildren = []
        case .applicationWillTerminate:
            shutdown = .terminating
        case .didReceiveRemoteNotification where activation == .unattached:
            // The push was all the scene had in the app's process: it leaves it (c20).
            shutdown = .disconnected
        case .beginBackgroundTask:
            backgroundTask = .running
            hasBegunBackgroundTask = true
        case .backgroundTaskExpiration:
            backgroundTask = .expired
        case .endBackgroundTask:
            backgroundTask = .none
        default:
            break
        }
    }

    /// What the branch an atom took tells (AtomMark).
    private mutating func apply(_ mark: AtomMark) {
        switch mark {
        case .presented(let style):
            let named = presentingStyle == .fullScreen ? nil : presentingStyle
            presentations.append(style == .fullScreen ? style : named ?? style)
            presentingStyle = nil
        case .laidOut(let fromTop):
            let index = needsLayout.count - 1 - fromTop
            if needsLayout.indices.contains(index) { needsLayout[index] = false }
        case .sizeChanged:
            needsLayout = Array(repeating: true, count: needsLayout.count)
            tabNeedsLayout = tabNeedsLayout.map { Array(repeating: true, count: $0.count) }
        case .appBased:
            lifecycle = .app
        case .childAdded(let name):
            isAddingChild = false
            if !children.isEmpty { children[children.count - 1].append(name) }
        case .childRemoved(let name):
            if let index = children.last?.firstIndex(of: name) { children[children.count - 1].remove(at: index) }
            pendingChildDeinits += 1
        case .replacingStack(let kept, let added):
            // [old…, added…, New] → [kept…, added…, New, left out…]: each deinit takes the
            // controller it names off the end, the top-most left out first.
            let old = stack.count - 1 - added
            guard old > 0, needsLayout.count == stack.count, children.count == stack.count,
                kept.allSatisfy({ $0 < old })
            else { break }
            let leftOut = (0..<old).filter { !kept.contains($0) }
            func reordered<Element>(_ array: [Element]) -> [Element] {
                kept.map { array[$0] } + array[old...] + leftOut.map { array[$0] }
            }
            stack = reordered(stack)
            needsLayout = reordered(needsLayout)
            children = reordered(children)
        case .poppingTo(let target):
            // [… Target, m1 … mk, Top] → [… Target, Top, m1 … mk]: the middle ones are released
            // top-most first, then Top, and each deinit takes the controller it names off the end.
            guard stack.count > target + 2, needsLayout.count == stack.count, children.count == stack.count else {
                break
            }
            stack.insert(stack.removeLast(), at: target + 1)
            needsLayout.insert(needsLayout.removeLast(), at: target + 1)
            children.insert(children.removeLast(), at: target + 1)
        }
    }

    // MARK: - What may start

    /// Whether `atom` may start now (no atom in progress): a new process runs the launch
    /// first and only then, nothing but the exit follows a disconnect, and otherwise the
    /// model's table (`LifecycleAtom.requirements`) decides. `snapshot`: this checker's
    /// `snapshot`, taken once for all the atoms an event is tried against.
    private func mayStart(_ atom: LifecycleAtom, in snapshot: SceneSnapshot) -> Bool {
        guard processState == .launching || processState == .running else { return false }
        guard hasLaunched else { return atom == .launch }
        switch atom {
        case .connectInProcess, .reconnectInProcess:
            // Only in an app's process, into a scene that is not connected yet. A session that
            // connected before in this trace reconnects without `configurationForConnecting`
            // (c15); one the trace has not seen may be new, or stored by an earlier host.
            return inAppProcess && shutdown == .none && !(atom == .connectInProcess && sessionExists)
                && atom.mayStart(in: snapshot)
        case .windowMemoryWarning:
            guard inAppProcess else { return false }
        case .remoteNotification where activation == .unattached:
            // A silent push for the app, in its process, for a scene that is not connected (c20).
            return inAppProcess && shutdown == .none
        default:
            break
        }
        guard shutdown == .none, atom != .launch else { return false }
        return atom.mayStart(in: snapshot)
    }

    /// Whether `event` is the first step of `atom`. A tab switch names its tab (`tab`): a
    /// tab other than the selected one, whose stack decides the first step.
    private func startsAtom(_ atom: LifecycleAtom, _ event: TraceEvent) -> Bool {
        if atom == .addChild || atom == .removeChild {
            let frontmost = children.last ?? []
            guard atom.firstStep(stack: stack).matches(event, stack: stack), let child = event.viewController,
                LifecycleAtom.containmentAtom(child: child, frontmostChildren: frontmost) == atom
            else { return false }
            return atom == .removeChild || LifecycleRequirement.roomForChild.isMet(by: snapshot)
        }
        if atom == .popTo {
            // To a controller above the root and below the top: `value`, its index.
            guard case .int(let target)? = event.value, target >= 1, target < stack.count - 1 else { return false }
        }
        if atom == .replaceStack {
            // Keeps controllers of the stack (`value`, their indices in order), leaves one out
            // or adds new ones below the new top, and loads the first of the new controllers it
            // names, within a stack's depth.
            guard let replacement = StackReplacementValue(event.value),
                replacement.kept.count < stack.count || !replacement.below.isEmpty,
                (replacement.kept.last ?? -1) < stack.count,
                replacement.kept.count + replacement.below.count < SceneLimits.maximumStackDepth,
                replacement.below.isEmpty || event.viewController == replacement.below[0]
            else { return false }
        }
        guard atom == .selectTab else { return atom.firstStep(stack: stack).matches(event, stack: stack) }
        guard let tab = event.tab, tabStacks.indices.contains(tab), tab != selectedTab else { return false }
        return LifecycleAtom.selectTabFirstStep(selectedStack: tabStacks[tab]).matches(event, stack: stack)
    }

    /// The tab bar shows `tab`: its stack becomes `stack` (the old one is kept for later).
    private mutating func show(tab: Int) {
        tabStacks[selectedTab] = stack
        tabNeedsLayout[selectedTab] = needsLayout
        tabChildren[selectedTab] = children
        stack = tabStacks[tab]
        needsLayout = tabNeedsLayout[tab]
        children = tabChildren[tab]
        selectedTab = tab
    }

    /// What may come when no atom may start.
    var idleExpectation: String {
        switch shutdown {
        case .disconnected: "process exited (reason disconnected)"
        case .terminating: "process exited (reason terminated)"
        case .none, .disconnecting: "process exited"
        }
    }

    func violation(_ event: TraceEvent, expected: String) -> LifecycleViolation {
        LifecycleViolation(seq: event.seq, scene: event.scene, expected: expected, got: event.violationSummary)
    }
}
