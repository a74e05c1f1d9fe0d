extension LifecycleOperation {
    /// When the operation is legal (LIFECYCLE.md §2's operations table): every requirement
    /// must hold, checked in order. Empty for host-wide and script operations, which are
    /// never refused. Every scene operation also needs `notDiscarded`, checked first.
    public var requirements: [LifecycleRequirement] {
        Self.requirementTable[position]
    }

    // Built once: the requirements are asked for on every request, and the table's arrays
    // would otherwise be allocated each time. Arrays by case position: a dictionary keyed by
    // the operation hashed its raw value (a string) with SipHash, about 330 instructions per
    // request, and a name table still hashed it, about 170.
    private static let requirementTable = positioned(allCases.map(\.definedRequirements))
    private static let checkedRequirementTable = positioned(
        allCases.map { operation in
            (operation.opensNewSession ? [] : [LifecycleRequirement.notDiscarded]) + operation.definedRequirements
        }
    )

    /// `table`, once every operation's tag is checked to be its position (`CasePositioned`).
    private static func positioned<Row>(_ table: [Row]) -> [Row] {
        precondition(positionsAreTags, "an operation's tag is not its position in allCases")
        return table
    }

    private var definedRequirements: [LifecycleRequirement] {
        switch self {
        case .connect: [.noLiveWorker]
        case .activate: [.activation([.foregroundInactive]), .process([.running])]
        case .deactivate: [.activation([.foregroundActive]), .process([.running])]
        case .background: [.foreground, .process([.running])]
        case .foreground: [.activation([.background]), .process([.running, .suspended])]
        case .disconnect: [.attached, .process([.running, .suspended]), .lifecycle(.scene)]
        // A launching worker has no scene to disconnect yet.
        case .discard: [.process([.none, .running, .suspended, .terminated]), .sessionOrWorker, .noLiveAppBasedWorker]
        case .resize: [.foreground, .process([.running])]
        // The stack under a presented controller is covered: push and pop wait for its dismissal.
        case .push: [.foreground, .process([.running]), .nothingPresented]
        // The frontmost controller presents: over a presented one too (c23).
        case .present: [.foreground, .process([.running]), .roomForPresentation]
        case .pop, .swipeBack, .popToRoot: [.foreground, .process([.running]), .nothingPresented, .controllerAboveRoot]
        case .dismiss: [.foreground, .process([.running]), .presented(PresentationStyle.allCases)]
        case .swipeDismiss: [.foreground, .process([.running]), .presented([.pageSheet])]
        case .memoryWarning: [.attached, .process([.running])]
        case .notify: [.attached, .process([.running, .suspended])]
        case .beginBackgroundTask: [.attached, .process([.running]), .noBackgroundTask]
        case .endBackgroundTask: [.attached, .process([.running]), .backgroundTask]
        case .kill, .terminate: [.liveWorker]
        case .memoryPressure, .waitFor, .sleep, .quit: []
        case .tap: [.activation([.foregroundActive]), .process([.running])]
        // No live worker: it launches with the URL (the activity, the shortcut item, the
        // notification response) in its connection options; a launching one is refused.
        // A silent push wakes a running app in any state (a suspended one is resumed for it);
        // an app that does not run is launched for it, with no scene connected (c20).
        case .remoteNotification: [.process([.none, .running, .suspended, .terminated]), .liveWorkerUnlessAppBased]
        case .openURL, .continueUserActivity, .quickAction, .openNotification:
            [.process([.none, .running, .suspended, .terminated]), .noLiveAppBasedWorker]
        // The index is a parameter: out of range is refused with the tab count (SceneSnapshot).
        case .selectTab: [.foreground, .process([.running]), .nothingPresented, .tabBar, .lifecycle(.scene)]
        // The child's name is a parameter: checked against the frontmost controller's children
        // (`containmentRefusal`).
        case .addChild, .removeChild: [.foreground, .process([.running])]
        // Inactive means "running, receives no events" (as for `tap`).
        case .selectRow, .typeText, .tapControl, .alertAction, .swipeRow, .moveRow:
            [.activation([.foregroundActive]), .process([.running])]
        // A suspended worker cannot answer: the screen it shows is frozen, not gone.
        case .inspect: [.attached, .process([.running])]
        }
    }

    /// What the host does for a legal request, as LIFECYCLE.md §2's table writes it
    /// (parenthesized steps happen only when needed).
    public var transitions: String {
        switch self {
        case .connect: "spawn, launch, first appearance or enter background"
        case .activate: "become active"
        case .deactivate: "resign active"
        case .background: "(resign active), enter background"
        case .foreground: "(resume, queued notifications), first appearance or enter foreground"
        case .disconnect: "(resume), (resign active), (enter background), disconnect"
        case .discard: "(disconnect), session deleted, `didDiscardSceneSessions` (host callback)"
        case .push: "push"
        case .pop: "pop"
        case .resize: "size change"
        case .memoryWarning: "memory warning"
        case .notify: "notification (queued while suspended, §5)"
        case .beginBackgroundTask: "begin background task"
        case .endBackgroundTask: "end background task"
        case .kill: "signal the worker (default SIGKILL), no callback, reason `killed`"
        case .terminate:
            "suspended or launching: SIGKILL, no callback; running: (resign active), (enter background), "
                + "disconnect with `applicationWillTerminate`"
        case .memoryPressure: "§4's memory-pressure order, host-wide"
        case .waitFor: "waits until the scene reaches the state or process state"
        case .sleep: "waits"
        case .quit: "terminates every scene, stops the host"
        case .present: "present (`pageSheet` by default, `fullScreen`, `overFullScreen` or `alert`)"
        case .dismiss: "dismiss the presented controller"
        case .swipeDismiss: "interactive dismissal of the sheet, completed (default) or cancelled"
        case .swipeBack: "interactive pop, completed (default) or cancelled"
        case .tap: "tap (`touchesBegan`, `touchesEnded` to the frontmost controller)"
        case .openURL: Self.delivery("the URL", "`openURLContexts`")
        case .continueUserActivity: Self.delivery("the activity", "`continueUserActivity`")
        case .quickAction: Self.delivery("the shortcut item", "`performActionFor`")
        case .openNotification: Self.delivery("the notification response", "`userNotificationCenterDidReceive`")
        case .remoteNotification:
            "no live worker: spawn, launch into the background, `didReceiveRemoteNotification`, no scene "
                + "connected (refused after the user's `terminate`); else (resume), `didReceiveRemoteNotification` "
                + "in the app's state (suspended again after the delay)"
        case .popToRoot: "pop to root (the middle controllers get no appearance callbacks)"
        case .selectTab: "tab switch (the selected tab again: pop to its root)"
        case .addChild: "the frontmost controller adds a child controller, which loads and appears"
        case .removeChild: "the frontmost controller removes a child controller, which disappears and is released"
        case .selectRow: "the user taps a row of the frontmost table (`userAction`; the app's response follows)"
        case .typeText: "the user types into a field of the frontmost screen (`userAction`)"
        case .tapControl: "the user taps a button or bar button item of the frontmost screen (`userAction`)"
        case .alertAction: "the user chooses an action of the presented alert (`userAction`)"
        case .moveRow: "the user drags a row of the frontmost table, which is editing, to another place (`userAction`)"
        case .swipeRow: "the user swipes a row of the frontmost table and taps a swipe action (`userAction`)"
        case .inspect: "none: the reply is the visible tree"
        }
    }

    /// The system hands a scene something (§3f): a scene with no live worker launches with it
    /// in its connection options; a running one gets its callback, from the background between
    /// `sceneWillEnterForeground` and `sceneDidBecomeActive`.
    private static func delivery(_ what: String, _ callback: String) -> String {
        "no live worker: spawn, launch with \(what), first appearance; else (resume, queued notifications), "
            + "(enter foreground or first appearance: \(callback) before becoming active), else \(callback)"
    }

    /// Whether the operation, on a discarded session, opens a new session under the same name
    /// (docs/LIFECYCLE.md §3c) instead of being refused: the ones that start a worker.
    public var opensNewSession: Bool {
        switch self {
        case .connect, .openURL, .continueUserActivity, .quickAction, .openNotification: true
        default: false
        }
    }

    /// Why the operation is illegal in `snapshot`, or nil when it is legal.
    public func refusal(in snapshot: SceneSnapshot) -> LifecycleRefusal? {
        guard kind == .scene else { return nil }
        guard let unmet = Self.checkedRequirementTable[position].firstUnmet(by: snapshot) else { return nil }
        return LifecycleRefusal(operation: rawValue, requirement: unmet, snapshot: snapshot)
    }

    /// Why `selectTab` of tab `index` is illegal in `snapshot` (its legality, then the
    /// index against the tab count), or nil when it is legal.
    public static func selectTabRefusal(index: Int, in snapshot: SceneSnapshot) -> LifecycleRefusal? {
        if let refusal = LifecycleOperation.selectTab.refusal(in: snapshot) { return refusal }
        let inRange = LifecycleRequirement.tabIndex(index)
        guard inRange.isMet(by: snapshot) else {
            return LifecycleRefusal(
                operation: LifecycleOperation.selectTab.rawValue,
                requirement: inRange,
                snapshot: snapshot
            )
        }
        return nil
    }
}

extension LifecycleOperation {
    /// Why `addChild` or `removeChild` of the child `name` is illegal in `snapshot` (the
    /// operation's legality, then the name against the frontmost controller's children), or
    /// nil when it is legal. Any other operation: its plain refusal.
    public static func containmentRefusal(
        _ operation: LifecycleOperation,
        child name: String,
        in snapshot: SceneSnapshot
    ) -> LifecycleRefusal? {
        if let refusal = operation.refusal(in: snapshot) { return refusal }
        let needed: [LifecycleRequirement] =
            switch operation {
            case .addChild: [.noChildNamed(name), .roomForChild]
            case .removeChild: [.childNamed(name)]
            default: []
            }
        guard let unmet = needed.firstUnmet(by: snapshot) else { return nil }
        return LifecycleRefusal(operation: operation.rawValue, requirement: unmet, snapshot: snapshot)
    }
}
