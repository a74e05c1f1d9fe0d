import HostTools
import Protocol
import SceneModel

@testable import HostProcess

/// The lifecycle model written a second time, by hand, from the spec's prose (LIFECYCLE.md
/// §1–§5), deliberately another way than the model the host runs: legality is a table of
/// the places where each operation is allowed rather than a list of requirements, and the
/// effects (the state after an operation, the notifications delivered, merged by name while
/// suspended) are computed here, not taken from the host's `SceneLifecycle`.
///
/// The property tests run it next to real workers and compare; a pure test compares its
/// table with `LifecycleOperation.refusal(in:)` in every reachable state.
struct SpecOracle: Sendable, Hashable {
    /// Where a scene is, as the spec's prose speaks of it.
    enum Place: Sendable, Hashable, CaseIterable {
        /// Never connected in this host (there may still be a stored session).
        case fresh
        /// A worker is starting (only the host's own bookkeeping sees this).
        case launching
        case active
        case inactive
        /// In background, the worker running.
        case backgroundRunning
        /// In background, the worker stopped.
        case suspended
        /// The last worker died or exited.
        case dead
    }

    var place = Place.fresh
    var stack: [String] = []
    /// The stack the app saved with its restoration state the last time the scene entered
    /// the background (§2: every entry to background stores it); the default worker rebuilds
    /// it when the session reconnects (§3b).
    var savedStack: [String]?
    /// Whether the app rebuilds its saved stack on reconnect (the default worker does; the
    /// host's state machine alone, with no app, does not).
    var appRestoresStack = true
    var hasBackgroundTask = false
    var isDiscarded = false
    var hasSession = false
    /// The user ended the app (`terminate` of a worker past its launch): no silent push
    /// launches it until a launch of the user's (c20).
    var userEndedApp = false
    /// The root of the last connect (a relaunch for a URL uses it).
    var lastRoot = "Root"
    /// Notifications held while suspended: names in first-arrival order, each with its latest value.
    var heldNames: [String] = []
    var heldValues: [String: JSONValue] = [:]
    /// §3a: the controller shown over the stack, and whether it is a sheet (the presenter
    /// stays visible, the user may swipe it down) rather than full screen.
    var presenting: (vc: String, sheet: Bool)?
    /// §3f (c23): the controllers `presenting` was presented over, the first presented first.
    var presentedBelow: [(vc: String, sheet: Bool)] = []
    /// What was presented when the state was last saved: the default worker presents it again
    /// once a reconnected scene is active (an app change right after the connect).
    var savedPresenting: (vc: String, sheet: Bool)?
    /// Restored with a background connect: presented on the first trip to the foreground.
    var pendingPresenting: (vc: String, sheet: Bool)?
    /// §3d: the scene's app has no scene support (the last connect asked for an app-based
    /// app, or asked for nothing after one). It has no scene to release or continue in, and
    /// its app-level restoration does not rebuild the stack.
    var appBased = false
    /// §3a: a tab bar root's tab roots (nil: one navigation stack), which tab `stack` is,
    /// and the stacks of the tabs shown before (a tab never shown is its root alone).
    var tabRoots: [String]?
    var shownTab = 0
    var hiddenStacks: [Int: [String]] = [:]
    /// The tab shown when the state was last saved: the default worker selects it again once
    /// a reconnected tab bar is active (an app change, before its presentation).
    var savedTab = 0
    /// Restored with a background connect: selected on the first trip to the foreground.
    var pendingTab: Int?
    /// §3a containment: who holds which child, each owner written as a place on screen
    /// (`tab0/2`: the third controller of tab 0's stack; `presented`).
    struct Child: Sendable, Hashable {
        var owner: String
        var name: String
    }
    var childList: [Child] = []
    /// The frontmost controller's children when the state was last saved: the default worker
    /// adds them again once a reconnected scene is active (after its presentation; not when
    /// it selects a saved tab first).
    var savedChildren: [String] = []
    /// Restored with a background connect: added on the first trip to the foreground.
    var pendingChildren: [String] = []

    static func == (a: SpecOracle, b: SpecOracle) -> Bool {
        a.place == b.place && a.stack == b.stack && a.savedStack == b.savedStack
            && a.appRestoresStack == b.appRestoresStack && a.hasBackgroundTask == b.hasBackgroundTask
            && a.isDiscarded == b.isDiscarded && a.hasSession == b.hasSession && a.heldNames == b.heldNames
            && a.heldValues == b.heldValues && a.presenting?.vc == b.presenting?.vc
            && a.presenting?.sheet == b.presenting?.sheet && a.savedPresenting?.vc == b.savedPresenting?.vc
            && a.savedPresenting?.sheet == b.savedPresenting?.sheet
            && a.pendingPresenting?.vc == b.pendingPresenting?.vc && a.appBased == b.appBased
            && a.tabRoots == b.tabRoots
            && a.shownTab == b.shownTab && a.hiddenStacks == b.hiddenStacks && a.savedTab == b.savedTab
            && a.pendingTab == b.pendingTab && a.childList == b.childList && a.savedChildren == b.savedChildren
            && a.pendingChildren == b.pendingChildren && a.presentedBelow.map(\.vc) == b.presentedBelow.map(\.vc)
            && a.presentedBelow.map(\.sheet) == b.presentedBelow.map(\.sheet)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(place)
        hasher.combine(stack)
        hasher.combine(presenting?.vc)
    }

    // MARK: Legality

    /// The places each operation is allowed in, written from the spec's prose.
    static let allowedPlaces: [LifecycleOperation: Set<Place>] = [
        // §2 Connect: a scene with no worker.
        .connect: [.fresh, .dead],
        // §2 Deactivate / reactivate.
        .activate: [.inactive],
        .deactivate: [.active],
        // §2 To background: from either foreground state.
        .background: [.active, .inactive],
        // §2 To foreground: from background, the worker running or suspended (resumed first).
        .foreground: [.backgroundRunning, .suspended],
        // §2 Disconnect: any connected scene (moved to background first).
        .disconnect: [.active, .inactive, .backgroundRunning, .suspended],
        // §2 Discard: disconnect if needed; with no worker, the stored session is deleted.
        .discard: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        // §3: navigation and size changes in the foreground only.
        .push: [.active, .inactive],
        .pop: [.active, .inactive],
        .resize: [.active, .inactive],
        // §3: a memory warning goes to a running worker of a connected scene.
        .memoryWarning: [.active, .inactive, .backgroundRunning],
        // §5: a suspended scene's notifications are queued.
        .notify: [.active, .inactive, .backgroundRunning, .suspended],
        // §4: background tasks belong to the running app.
        .beginBackgroundTask: [.active, .inactive, .backgroundRunning],
        .endBackgroundTask: [.active, .inactive, .backgroundRunning],
        // §4: kill and terminate need a worker; a suspended or launching one dies silently.
        .kill: [.launching, .active, .inactive, .backgroundRunning, .suspended],
        .terminate: [.launching, .active, .inactive, .backgroundRunning, .suspended],
        // §3a: presentations and the user's swipes are navigation: foreground only.
        .present: [.active, .inactive],
        .dismiss: [.active, .inactive],
        .swipeDismiss: [.active, .inactive],
        .swipeBack: [.active, .inactive],
        // §3c: "inactive means running, receives no events": a tap only reaches an active scene.
        .tap: [.active],
        // §3c, §3f: a URL, a user activity, a quick action or a tapped notification opens any
        // scene not starting up (one with no worker launches for it).
        .openURL: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        .continueUserActivity: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        .quickAction: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        .openNotification: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        // §3f: a silent push reaches a connected app in any state, and launches one that does
        // not run into the background with no scene connected (c20).
        .remoteNotification: [.fresh, .dead, .active, .inactive, .backgroundRunning, .suspended],
        // §3a: navigation.
        .popToRoot: [.active, .inactive],
        // §3a: a tab switch is navigation: foreground only.
        .selectTab: [.active, .inactive],
        // §3a/§3b: adding or removing a child is navigation too.
        .addChild: [.active, .inactive],
        .removeChild: [.active, .inactive],
        // §3c: the user's hands reach an active scene only; a look needs a running worker.
        .selectRow: [.active],
        .typeText: [.active],
        .tapControl: [.active],
        .alertAction: [.active],
        .swipeRow: [.active],
        .moveRow: [.active],
        .inspect: [.active, .inactive, .backgroundRunning],
    ]

    /// Whether `op` is legal here (the spec's illegal requests: a discarded session refuses
    /// everything; pop needs a controller above the root; one background task at a time).
    func allows(_ op: LifecycleOperation) -> Bool {
        // After a discard only a launch is possible: it opens a new session under the same name.
        let launches: Set<LifecycleOperation> = [
            .connect, .openURL, .continueUserActivity, .quickAction, .openNotification,
        ]
        guard !isDiscarded || launches.contains(op), let places = Self.allowedPlaces[op],
            places.contains(place)
        else { return false }
        switch op {
        // §3a: the stack is covered while something is presented; one presentation at a time.
        case .pop, .swipeBack, .popToRoot: return stack.count >= 2 && presenting == nil
        case .push: return presenting == nil
        // A presented controller may present another, up to the limit.
        case .present: return presentationDepth < SceneSnapshot.maximumPresentationDepth
        case .dismiss: return presenting != nil
        // Only a sheet can be swiped down.
        case .swipeDismiss: return presenting?.sheet == true
        case .beginBackgroundTask: return !hasBackgroundTask
        case .endBackgroundTask: return hasBackgroundTask
        case .discard: return (hasSession || hasWorker) && !(appBased && hasWorker)
        // c20: not after the user ended the app, until it is opened again.
        case .remoteNotification: return hasWorker || (!userEndedApp && !appBased)
        // §3d: no scene to release, to open a URL in, or to continue an activity in.
        case .disconnect: return !appBased
        case .openURL, .continueUserActivity, .quickAction, .openNotification: return !(appBased && hasWorker)
        // Only a tab bar root has tabs to select, and not under a presentation.
        case .selectTab: return tabRoots != nil && presenting == nil && !appBased
        default: return true
        }
    }

    /// A worker exists (starting, running or stopped).
    private var hasWorker: Bool { place != .fresh && place != .dead }

    /// What a launch shows: the saved stack and presentation when the app rebuilds them (a
    /// scene-based default worker does, §3b; an app-based one restores app-level state only).
    private var restoresScene: Bool { hasSession && appRestoresStack && !appBased }

    /// `allows(op.kind)`, and a tab switch's index must name one of the tabs.
    func allows(_ op: SceneOperation) -> Bool {
        if case .selectTab(let index) = op, !(tabRoots?.indices.contains(index) ?? false) { return false }
        // A child name once per frontmost controller, sixteen at most; only a child leaves.
        if case .addChild(let name) = op, frontChildren.contains(name) || frontChildren.count >= 16 { return false }
        if case .removeChild(let name) = op, !frontChildren.contains(name) { return false }
        // §3a/§3d: a tab bar root is a scene's; an app-based app (asked for, or kept) has none.
        if case .connect(_, _, _, let launch) = op, launch.tabs != nil,
            launch.lifecycle == .app || (launch.lifecycle == nil && appBased)
        {
            return false
        }
        return allows(op.kind)
    }

    // MARK: Effects

    /// Carries out a legal `op`; returns the notifications delivered to the worker, in order,
    /// as `name=value`.
    mutating func perform(_ op: SceneOperation) -> [String] {
        var delivered: [String] = []
        switch op {
        case .connect(let background, let plainRoot, _, let launch):
            // A tab bar shows its first tab at launch; the app restores a saved stack only when
            // it starts with the root it connects with.
            let root = launch.tabs?.first ?? plainRoot
            tabRoots = launch.tabs
            shownTab = 0
            hiddenStacks = [:]
            isDiscarded = false
            userEndedApp = false
            lastRoot = root
            if let kind = launch.lifecycle { appBased = kind == .app }
            place = background ? .backgroundRunning : .active
            let restored = restoresScene ? savedStack : nil
            stack = restored?.first == root ? restored! : [root]
            let restoredTab = restoresScene ? tabToRestore : nil
            if background { pendingTab = restoredTab } else if let restoredTab { show(tab: restoredTab) }
            let restoredPresenting = restoresScene ? savedPresenting : nil
            presenting = background ? nil : restoredPresenting
            pendingPresenting = background ? restoredPresenting : nil
            // The app re-adds the saved frontmost's children unless another tab was selected
            // when it saved (they were that tab's), whatever the new root.
            let restoredChildren = restoresScene && savedTab == 0 ? savedChildren : []
            if background { pendingChildren = restoredChildren } else { adopt(restoredChildren) }
            hasBackgroundTask = false
            hasSession = true
            if background { save() }
        case .activate: place = .active
        case .deactivate: place = .inactive
        case .background:
            place = .backgroundRunning
            save()
        case .foreground:
            delivered = resume()
            place = .active
            showPendingTab()
            if let pending = pendingPresenting {
                presenting = pending
                pendingPresenting = nil
            }
            adopt(pendingChildren)
        case .disconnect:
            delivered = resume()
            save()
            workerEnded()
        case .discard:
            if place != .fresh && place != .dead {
                delivered = resume()
                workerEnded()
            }
            isDiscarded = true
            hasSession = false
            appBased = false
            savedStack = nil
            savedPresenting = nil
            savedTab = 0
            savedChildren = []
        case .push(let name, _): stack.append(name)
        case .pop:
            dropChildren(of: frontOwner)
            stack.removeLast()
        case .resize, .memoryWarning, .windowMemoryWarning, .tap, .user, .inspect: break
        case .addChild(let name): childList.append(Child(owner: frontOwner, name: name))
        case .removeChild(let name):
            let gone = Child(owner: frontOwner, name: name)
            childList.removeAll { $0 == gone }
        case .selectTab(let index):
            // The selected tab again pops its stack to its root (c27).
            if index == shownTab { popToRoot() } else { show(tab: index) }
        case .present(let name, let style, _):
            if let current = presenting { presentedBelow.append(current) }
            presenting = (name, style == .pageSheet)
        case .dismiss:
            dropChildren(of: frontOwner)
            presenting = presentedBelow.popLast()
        case .swipeDismiss(let completes):
            if completes {
                dropChildren(of: frontOwner)
                presenting = presentedBelow.popLast()
            }
        case .swipeBack(let completes):
            if completes {
                dropChildren(of: frontOwner)
                stack.removeLast()
            }
        case .popToRoot:
            popToRoot()
        case .remoteNotification where place == .fresh || place == .dead:
            // Launched for the push with no scene connected: the scene stays unattached, its
            // app's process runs on without it (c20).
            place = .dead
        case .remoteNotification:
            // A suspended app is resumed for the push (and suspended again later).
            delivered = resume()
            if place == .suspended { place = .backgroundRunning }
        case .openURL where place == .fresh || place == .dead,
            .continueUserActivity where place == .fresh || place == .dead,
            .quickAction where place == .fresh || place == .dead,
            .openNotification where place == .fresh || place == .dead:
            // Launched for the URL, to the foreground, like a connect with the last root.
            isDiscarded = false
            userEndedApp = false
            place = .active
            let restored = restoresScene ? savedStack : nil
            stack = restored?.first == lastRoot ? restored! : [lastRoot]
            shownTab = 0
            hiddenStacks = [:]
            let restoredTab = restoresScene ? tabToRestore : nil
            if let restoredTab { show(tab: restoredTab) }
            presenting = restoresScene ? savedPresenting : nil
            pendingPresenting = nil
            adopt(restoresScene && savedTab == 0 ? savedChildren : [])
            hasBackgroundTask = false
            hasSession = true
        case .openURL, .continueUserActivity, .quickAction, .openNotification:
            // Delivered in the foreground: a background scene is resumed and brought forward.
            delivered = resume()
            if place == .backgroundRunning {
                place = .active
                showPendingTab()
                if let pending = pendingPresenting {
                    presenting = pending
                    pendingPresenting = nil
                }
                adopt(pendingChildren)
            }
        case .notify(let name, let value):
            if place == .suspended {
                if heldValues[name] == nil { heldNames.append(name) }
                heldValues[name] = value
            } else {
                delivered = ["\(name)=\(value.jsonText)"]
            }
        case .beginBackgroundTask: hasBackgroundTask = true
        case .endBackgroundTask: hasBackgroundTask = false
        case .kill: workerEnded()
        case .terminate, .windowTerminate:
            if place != .launching { userEndedApp = true }
            // A running worker is moved to background (and saves) before it terminates.
            if place == .active || place == .inactive || place == .backgroundRunning { save() }
            workerEnded()
        }
        return delivered
    }

    /// §2: every entry to background stores the app's state (its stack and presentation).
    /// §3d: an app-based app's state is app-level only: nothing of the stack, presentation,
    /// tab or children is kept for a later scene-based launch to rebuild.
    private mutating func save() {
        guard !appBased else {
            savedStack = nil
            savedPresenting = nil
            savedTab = 0
            savedChildren = []
            return
        }
        savedStack = stack
        // The default worker saves the first presentation only.
        savedPresenting = presentedBelow.first ?? presenting
        savedTab = tabRoots == nil ? 0 : shownTab
        savedChildren = frontChildren
    }

    /// Where the frontmost controller is: the presented one, else the shown stack's top.
    var frontOwner: String {
        presenting == nil ? "tab\(shownTab)/\(stack.count - 1)" : "presented\(presentedBelow.count)"
    }

    /// How many controllers are presented, one over another.
    var presentationDepth: Int { presenting == nil ? 0 : presentedBelow.count + 1 }

    /// The frontmost controller's children, oldest first.
    var frontChildren: [String] { childList.filter { $0.owner == frontOwner }.map(\.name) }

    /// A controller went (popped, dismissed): its children with it.
    /// The stack pops to its root; the released controllers' children go with them.
    private mutating func popToRoot() {
        for index in stack.indices.dropFirst() { dropChildren(of: "tab\(shownTab)/\(index)") }
        stack = Array(stack.prefix(1))
    }

    private mutating func dropChildren(of owner: String) {
        childList.removeAll { $0.owner == owner }
    }

    /// The app adds restored children to the frontmost controller.
    private mutating func adopt(_ names: [String]) {
        for name in names { childList.append(Child(owner: frontOwner, name: name)) }
        pendingChildren = []
    }

    /// The saved tab, when the tab bar connecting has it (the first tab needs no selection).
    private var tabToRestore: Int? {
        guard let roots = tabRoots, savedTab > 0, savedTab < roots.count else { return nil }
        return savedTab
    }

    /// §3a: the tab bar shows `tab`; a tab shown before keeps its stack, a new one is its root.
    private mutating func show(tab: Int) {
        guard tab != shownTab, let roots = tabRoots else { return }
        hiddenStacks[shownTab] = stack
        stack = hiddenStacks[tab] ?? [roots[tab]]
        shownTab = tab
    }

    private mutating func showPendingTab() {
        guard let tab = pendingTab else { return }
        pendingTab = nil
        show(tab: tab)
    }

    /// The worker died from outside (a crash, an outside SIGKILL).
    mutating func crashed() { workerEnded() }

    /// §4: an idle background worker (no background task) is suspended after the delay.
    var shouldSuspend: Bool { place == .backgroundRunning && !hasBackgroundTask }

    mutating func suspended() { place = .suspended }

    /// §4a: the app's process was resumed for another of its scenes: this one runs again in
    /// the background, its held notifications delivered first.
    mutating func continuedBySibling() -> [String] { resume() }

    /// Resuming delivers the held notifications first, merged by name (§5).
    private mutating func resume() -> [String] {
        guard place == .suspended else { return [] }
        defer {
            heldNames = []
            heldValues = [:]
        }
        place = .backgroundRunning
        return heldNames.map { "\($0)=\(heldValues[$0]!.jsonText)" }
    }

    private mutating func workerEnded() {
        pendingTab = nil
        childList = []
        pendingChildren = []
        place = .dead
        stack = []
        shownTab = 0
        hiddenStacks = [:]
        presenting = nil
        presentedBelow = []
        pendingPresenting = nil
        hasBackgroundTask = false
        heldNames = []
        heldValues = [:]
    }

    // MARK: As the host and the trace show it

    /// The activation and process state the spec's §1 names for a place.
    var states: (activation: ActivationState, process: ProcessState) {
        switch place {
        case .fresh: (.unattached, .none)
        case .launching: (.unattached, .launching)
        case .active: (.foregroundActive, .running)
        case .inactive: (.foregroundInactive, .running)
        case .backgroundRunning: (.background, .running)
        case .suspended: (.background, .suspended)
        case .dead: (.unattached, .terminated)
        }
    }

    /// `summary`, and ` app` for an app-based scene: the form status is compared in.
    var summaryWithKind: String { summary + (appBased ? " app" : "") }

    /// `foregroundActive/running stack ["Root"] task false`, the form status and trace are compared in.
    var summary: String {
        "\(states.activation)/\(states.process) stack \(stack) task \(hasBackgroundTask)"
            + (presenting.map { " presenting \($0.vc) \($0.sheet ? "sheet" : "full")" } ?? "")
            + (isDiscarded ? " discarded" : "")
            + (tabRoots != nil && states.process.isAlive ? " tab \(shownTab)" : "")
            + (frontChildren.isEmpty ? "" : " children \(frontChildren)")
    }

    /// The model's snapshot of this place (for comparing legality tables).
    var snapshot: SceneSnapshot {
        SceneSnapshot(
            activation: states.activation,
            process: states.process,
            stackDepth: stack.count,
            backgroundTask: hasBackgroundTask ? .running : .none,
            isDiscarded: isDiscarded,
            sessionExists: hasSession,
            presentation: presenting.map { $0.sheet ? .pageSheet : .fullScreen },
            presentationDepth: presentationDepth,
            lifecycle: appBased ? .app : .scene,
            tabCount: place == .dead || place == .fresh ? 0 : tabRoots?.count ?? 0,
            selectedTab: shownTab,
            frontmostChildren: frontChildren
        )
    }
}

extension SpecOracle {
    /// Every state a scene can be in, up to stack depth 3: each place with the stacks,
    /// background tasks, sessions and discards it can have.
    static var reachableStates: [SpecOracle] {
        var states: [SpecOracle] = []
        for place in Place.allCases {
            let attached = place != .fresh && place != .dead && place != .launching
            let running = attached && place != .suspended
            let presentations: [(vc: String, sheet: Bool)?] = attached ? [nil, ("M", true), ("M", false)] : [nil]
            for depth in attached ? [1, 2, 3] : (place == .launching ? [1] : [0]) {
                for task in running ? [false, true] : [false] {
                    for session in place == .fresh ? [false, true] : [true] {
                        for discarded in place == .fresh || place == .dead ? [false, true] : [false] {
                            for presenting in presentations {
                                for (appBased, tabs) in [(false, nil), (true, nil)]
                                    + (attached ? [(false, ["V0", "T1"])] : [])
                                    as [(Bool, [String]?)]
                                {
                                    var state = SpecOracle()
                                    state.appBased = appBased
                                    state.tabRoots = tabs
                                    state.place = place
                                    state.stack = (0..<depth).map { "V\($0)" }
                                    state.hasBackgroundTask = task
                                    state.hasSession = session && !discarded
                                    state.isDiscarded = discarded
                                    state.presenting = presenting
                                    states.append(state)
                                }
                            }
                        }
                    }
                }
            }
        }
        return states
    }
}
