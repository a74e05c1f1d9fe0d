/// The callback grammar: the transitions of docs/LIFECYCLE.md §2–§4 as the trace shows them.
/// Each is an atom: once its first callback is seen, the rest must follow exactly, in order.
/// Given the scene's state, the first callback identifies the atom unambiguously.
///
/// The trace checker builds its expectations from `firstStep` and `remainingSteps`; the
/// worker and the checker take the legality of each atom from `requirements`.
///
/// The raw value is the atom's place in `allCases`: it indexes the model's tables.
public enum LifecycleAtom: Int, Sendable, Hashable, CaseIterable {
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
    /// The presented controller goes: a programmatic dismissal, or a swipe down of a sheet
    /// that completes or is cancelled (LIFECYCLE.md §3a).
    case dismiss
    /// A swipe down of a sheet that is modal in presentation: the delegate hears of the attempt.
    case attemptToDismiss
    /// A controller is presented over the top, full screen or as a page sheet (§3a). Its
    /// first callbacks are a push's: the trace tells them apart by the `op` its callbacks
    /// carry (`startingOp`).
    case present
    /// A tap on the frontmost controller (docs/LIFECYCLE.md §3c).
    case tap
    /// A URL or a user activity delivered to a connected scene (docs/LIFECYCLE.md §3c).
    case openURL
    case continueUserActivity
    /// The app delegate hears of sessions discarded elsewhere (`didDiscardSceneSessions` from
    /// a worker, not the host's event of the discarded scene itself).
    case discardedSessions
    // The app-based lifecycle (docs/LIFECYCLE.md §3d): an app without scene support gets the
    // app delegate's transitions in place of the scene's.
    case appFirstAppearance
    case appEnterForeground
    case appBecomeActive
    case appResignActive
    case appEnterBackground
    /// `shouldSaveSecureApplicationState` asked again of a background app (the
    /// `stateRestoration` wire operation).
    case appStateRestoration
    /// `applicationWillTerminate` of a background app (no scene to disconnect).
    case appTerminate
    /// The tab bar root shows another tab (LIFECYCLE.md §3a): its callbacks carry
    /// `op: "selectTab"` and the tab's index, which names the stack that appears.
    case selectTab
    /// The frontmost controller adds a child (LIFECYCLE.md §3a): the child's `willMoveToParent`
    /// starts it. Which of the two containment atoms a `willMoveToParent` starts is told by its
    /// `vc`: a child of the frontmost controller is being removed, any other name added.
    case addChild
    /// The frontmost controller removes one of its children.
    case removeChild
    /// A user's action on the frontmost screen (`UserAction`): one `userAction` callback; what
    /// the app does in response follows as app-initiated changes.
    case userAction
    /// The stack pops to its root (real-ios-orders-3 c22): its callbacks carry
    /// `op: "popToRoot"`, which tells it from a pop (both start with Top `viewWillDisappear`).
    case popToRoot
    /// The app pops its stack to a controller above the root and below the top
    /// (`popToViewController(_:animated:)`): `popToRoot`'s steps, to that controller. Its
    /// callbacks carry `op: "popTo"` and, as `value`, the index of that controller in the stack.
    case popTo
    /// A home-screen quick action for a running scene (c11): `performActionFor`.
    case quickAction
    /// The user tapped a notification of a running app (c12): `userNotificationCenterDidReceive`.
    case openNotification
    /// A silent push for a running app (c20): `didReceiveRemoteNotification`, in any attached
    /// state (the background included).
    case remoteNotification
    /// A new scene connects in its app's running process (real-ios-orders-3 c13): no launch,
    /// `configurationForConnecting` first, then the scene's connect.
    case connectInProcess
    /// A scene whose session connected before reconnects in its app's running process (c15):
    /// `willConnectTo` first, with no launch and no `configurationForConnecting`.
    case reconnectInProcess
    /// An app process's memory warning reaches another of its windows (c14): that scene's
    /// loaded controllers, root first; the app delegate heard of it once already.
    case windowMemoryWarning
    /// The app replaces its shown stack (`setViewControllers(_:animated:)` with a new top
    /// controller, LIFECYCLE.md §3b): the new controllers below the new top load, bottom
    /// first, then the new top is pushed over the old one, then the controllers the new stack
    /// leaves out are released, top-most first. Its callbacks carry `op: "replaceStack"`; its
    /// first `loadView` carries, as `value`, the indices of the controllers kept (and the new
    /// controllers, when some load below the new top).
    case replaceStack

    /// The scene's state an atom is built from.
    public struct Context: Sendable, Hashable {
        public var activation: ActivationState
        /// Bottom first.
        public var stack: [String]
        /// Whether the session was connected before in this trace (then the launch has no
        /// `configurationForConnecting`).
        public var sessionExists: Bool
        /// The style of the controller presented on top of `stack`, nil when none is.
        public var presentation: PresentationStyle?
        /// Per controller of `stack`: whether its layout is dirty (it has not laid out since
        /// it loaded or since the last size change), so that it lays out when it next appears.
        public var needsLayout: [Bool]
        /// For a tab switch: the stack of the tab selected (empty when it has not loaded yet:
        /// its root loads, named by the first event) and its layout flags.
        public var selectedStack: [String]
        public var selectedNeedsLayout: [Bool]
        /// A tab bar root's other loaded tabs (not the one `stack` shows), in tab order, each
        /// root first: size changes, memory warnings and the disconnect reach them too.
        public var otherTabs: [[String]]
        /// Per controller of `stack`: its children, in the order they were added (§3a).
        public var children: [[String]]
        /// Per controller of `selectedStack`, and per controller of each of `otherTabs`: their children.
        public var selectedChildren: [[String]]
        public var otherTabChildren: [[[String]]]
        /// For a pop to a controller (`popTo`): its index in `stack`.
        public var popTarget: Int = 0
        /// For a replaced stack (`replaceStack`): the indices in `stack` of the controllers
        /// kept below the new top, in increasing order.
        public var keptControllers: [Int] = []
        /// For a replaced stack: the new controllers, bottom first, the new top last. Empty
        /// means one: the controller the event that starts the atom names.
        public var newControllers: [String] = []

        public init(
            activation: ActivationState,
            stack: [String],
            sessionExists: Bool,
            presentation: PresentationStyle? = nil,
            needsLayout: [Bool] = [],
            selectedStack: [String] = [],
            selectedNeedsLayout: [Bool] = [],
            otherTabs: [[String]] = [],
            children: [[String]] = [],
            selectedChildren: [[String]] = [],
            otherTabChildren: [[[String]]] = []
        ) {
            self.activation = activation
            self.stack = stack
            self.sessionExists = sessionExists
            self.presentation = presentation
            self.needsLayout = needsLayout
            self.selectedStack = selectedStack
            self.selectedNeedsLayout = selectedNeedsLayout
            self.otherTabs = otherTabs
            self.children = children
            self.selectedChildren = selectedChildren
            self.otherTabChildren = otherTabChildren
        }

        /// Every loaded controller: the shown stack's (root first), then the other tabs', each
        /// controller followed by its children (a child hears after its parent, §3a).
        var allControllers: [String] {
            Self.withChildren(stack, children)
                + otherTabs.indices.flatMap { index in
                    Self.withChildren(
                        otherTabs[index],
                        otherTabChildren.indices.contains(index) ? otherTabChildren[index] : []
                    )
                }
        }

        /// Whether the controller `fromTop` places below the top must lay out when it appears.
        func needsLayout(fromTop: Int) -> Bool {
            let index = needsLayout.count - 1 - fromTop
            return needsLayout.indices.contains(index) ? needsLayout[index] : true
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
        case .dismiss: return .callback(.viewWillDisappear, vc: top)
        case .attemptToDismiss: return .callback(.presentationControllerDidAttemptToDismiss, vc: top)
        case .present: return .callback(.loadView, .newController)
        case .tap: return .callback(.touchesBegan, vc: top)
        case .openURL: return .callback(.openURLContexts)
        case .continueUserActivity: return .callback(.continueUserActivity)
        case .discardedSessions: return .callback(.didDiscardSceneSessions)
        case .appFirstAppearance: return .callback(.viewWillAppear, vc: top)
        case .appEnterForeground: return .callback(.applicationWillEnterForeground)
        case .appBecomeActive: return .callback(.applicationDidBecomeActive)
        case .appResignActive: return .callback(.applicationWillResignActive)
        case .appEnterBackground: return .callback(.applicationDidEnterBackground)
        case .appStateRestoration: return .callback(.shouldSaveSecureApplicationState)
        case .appTerminate: return .callback(.applicationWillTerminate)
        // A tab loaded before shows its top again; a new one loads its root first. Which
        // one is known from the `tab` the event carries: this step matches either.
        case .selectTab: return .callback(.viewWillAppear, .newController)
        // A name not yet a child is added; a child's name is removed (the checker tells).
        case .addChild, .removeChild: return .callback(.willMoveToParent, .newController)
        case .userAction: return .callback(.userAction)
        case .popToRoot, .popTo: return .callback(.viewWillDisappear, vc: top)
        case .quickAction: return .callback(.performActionFor)
        case .openNotification: return .callback(.userNotificationCenterDidReceive)
        case .remoteNotification: return .callback(.didReceiveRemoteNotification)
        case .connectInProcess: return .callback(.configurationForConnecting)
        case .reconnectInProcess: return .callback(.willConnectTo)
        case .windowMemoryWarning: return .callback(.didReceiveMemoryWarning, vc: stack.first ?? "")
        case .replaceStack: return .callback(.loadView, .newController)
        }
    }

    /// The steps after the first one. `startedBy` is the controller named by the event that
    /// matched `firstStep` (a push learns the new controller's name from it).
    public func remainingSteps(startedBy controller: String?, in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        let top = stack.last ?? ""
        switch self {
        case .launch:
            return Self.launchSteps(in: context)
        case .firstAppearance:
            return Array(Self.firstAppearanceSteps(from: context.activation, controller: .named(top)).dropFirst())
        case .enterForeground:
            return Self.remainingForegroundSteps(becomingActive: .sceneDidBecomeActive, delivering: true)
        case .becomeActive, .appBecomeActive:
            return [.state(from: .foregroundInactive, to: .foregroundActive)]
        case .resignActive, .appResignActive:
            return [.state(from: .foregroundActive, to: .foregroundInactive)]
        case .enterBackground:
            return Array(Self.enterBackgroundSteps(from: .foregroundInactive).dropFirst())
                + [.oneOf([Self.snapshotTraitFlips(context.allControllers), []])]
        case .disconnect:
            // Deinits top first, or applicationWillTerminate with no deinits (choice). A tab bar:
            // the shown tab's, then each other loaded tab's in tab order, top first (choice).
            // A parent's children deinit right after it (its release releases them).
            let deinits = context.deinitOrder.map { ExpectedStep.callback(.deinit, vc: $0) }
            return [
                .state(from: .background, to: .unattached),
                .oneOf([deinits, [.callback(.applicationWillTerminate)]]),
            ]
        case .push:
            let pushed = controller ?? ""
            let topChildren = context.children(fromTop: 0)
            return [.callback(.viewDidLoad, vc: pushed)]
                + Self.forwarded(.viewWillDisappear, top, to: topChildren) + [
                    .callback(.viewWillAppear, vc: pushed),
                    .callback(.viewIsAppearing, vc: pushed),
                    .callback(.viewWillLayoutSubviews, vc: pushed),
                    .callback(.viewDidLayoutSubviews, vc: pushed),
                    .mark(.laidOut(fromTop: 0)),
                ] + Self.forwarded(.viewDidDisappear, top, to: topChildren) + [.callback(.viewDidAppear, vc: pushed)]
        case .present:
            return Self.presentSteps(controller ?? "", over: top, children: context.children(fromTop: 0))
        case .addChild:
            return Self.addChildSteps(controller ?? "")
        case .removeChild:
            return Self.removeChildSteps(controller ?? "")
        case .pop:
            // A pop, or an interactive pop that completes (the same order) or is cancelled.
            let below = stack.dropLast().last ?? ""
            let topChildren = context.children(fromTop: 0)
            let belowChildren = context.children(fromTop: 1)
            let completed: [ExpectedStep] =
                Self.forwarded(.viewDidDisappear, top, to: topChildren)
                + Self.forwarded(.viewDidAppear, below, to: belowChildren)
                + Self.forwarded(.deinit, top, to: topChildren)
            let cancelled: [ExpectedStep] =
                Self.forwarded(.viewWillDisappear, below, to: belowChildren)
                + Self.forwarded(.viewDidDisappear, below, to: belowChildren)
                + [.callback(.viewWillAppear, vc: top)] + Self.forwarded(.viewIsAppearing, top, to: topChildren)
                + Self.forwarded(.viewDidAppear, top, to: topChildren)
            // The top's children follow its viewWillDisappear (the atom's first step).
            return Self.forwardedOnly(.viewWillDisappear, to: topChildren)
                + Self.appearingSteps(below, fromTop: 1, in: context) + [.oneOf([completed, cancelled])]
        case .dismiss:
            return Self.dismissSteps(in: context)
        case .sizeChange:
            // A change of size class adds every controller's willTransition(to:with:), then
            // every controller's traitCollectionDidChange, root first (real-ios-orders-3 c24);
            // the trace does not carry sizes, so all of them or none (the worker knows). A tab
            // bar's other loaded tabs follow the shown stack (the model's choice). A scene's
            // delegate then hears of the new geometry (c25); an app-based app has none.
            let all = context.allControllers
            let traits =
                all.map { ExpectedStep.callback(.willTransition, vc: $0) }
                + all.map { ExpectedStep.callback(.traitCollectionDidChange, vc: $0) }
            return [.mark(.sizeChanged)]
                + all.dropFirst().map { ExpectedStep.callback(.viewWillTransition, vc: $0) } + [
                    .oneOf([traits, []]),
                    .oneOf([[.callback(.windowSceneDidUpdate)], []]),
                    .callback(.viewWillLayoutSubviews, vc: top),
                    .callback(.viewDidLayoutSubviews, vc: top),
                    .mark(.laidOut(fromTop: 0)),
                    .moreLayoutPasses(top),
                ]
        case .memoryWarning:
            // Each controller, then its children (§3a).
            return context.allControllers.map { ExpectedStep.callback(.didReceiveMemoryWarning, vc: $0) }
        case .tap:
            return [.callback(.touchesEnded, vc: top)]
        case .selectTab:
            return Self.selectTabSteps(from: top, loading: controller ?? "", in: context)
        case .popToRoot:
            return Self.popSteps(to: 0, in: context)
        case .popTo:
            return Self.popSteps(to: context.popTarget, in: context)
        case .stateRestoration, .notification, .userAction, .beginBackgroundTask, .backgroundTaskExpiration,
            .endBackgroundTask,
            .attemptToDismiss, .openURL, .continueUserActivity, .discardedSessions, .appStateRestoration,
            .quickAction, .openNotification, .remoteNotification:
            return []
        case .appFirstAppearance:
            return Array(Self.appFirstAppearanceSteps(from: .background, controller: .named(top)).dropFirst())
        case .appEnterForeground:
            return Self.remainingForegroundSteps(becomingActive: .applicationDidBecomeActive)
        case .appEnterBackground:
            return Array(Self.appEnterBackgroundSteps(from: .foregroundInactive).dropFirst())
                + [.oneOf([Self.snapshotTraitFlips(context.allControllers), []])]
        case .appTerminate:
            return [.state(from: .background, to: .unattached)]
        case .connectInProcess:
            return [.oneOf([Self.storyboardRootSteps, []])] + Self.connectSteps
        case .reconnectInProcess:
            return Array(Self.connectSteps.dropFirst())
        case .windowMemoryWarning:
            return context.allControllers.dropFirst().map { ExpectedStep.callback(.didReceiveMemoryWarning, vc: $0) }
        case .replaceStack:
            return Self.replaceSteps(startedBy: controller ?? "", in: context)
        }
    }

    /// A storyboard root is made (and wakes) before `willConnectTo`, and loads after it.
    static let storyboardRootSteps: [ExpectedStep] = [
        .callback(.initWithCoder, .newController), .callback(.awakeFromNib, .newController),
    ]

    /// A scene's connect, from `willConnectTo` to its first appearance or its entry to the
    /// background: the end of every scene-based launch, and all of a connect in a running process.
    static let connectSteps: [ExpectedStep] = [
        .callback(.willConnectTo),
        .callback(.loadView, .newController),
        .callback(.viewDidLoad, .top),
        .oneOf([
            firstAppearanceSteps(from: .unattached, controller: .top),
            enterBackgroundSteps(from: .unattached),
        ]),
    ]

    /// A dark scene that went to the background: UIKit snapshots it for the app switcher in
    /// both appearances, so every loaded controller's traits flip to light and back
    /// (real-ios-orders-3 c17). A light scene has none: the trace does not carry the style, so
    /// all of them or none (the worker knows).
    static func snapshotTraitFlips(_ controllers: [String]) -> [ExpectedStep] {
        let once = controllers.map { ExpectedStep.callback(.traitCollectionDidChange, vc: $0) }
        return once + once
    }

    /// After a trip to the foreground's first callback (the scene's or the app delegate's
    /// `…WillEnterForeground`): inactive, `becomingActive`, active.
    /// `delivering`: what the system hands the scene on the way (§3f) comes in between, before
    /// it becomes active.
    static func remainingForegroundSteps(becomingActive: CallbackName, delivering: Bool = false) -> [ExpectedStep] {
        [.state(from: .background, to: .foregroundInactive)] + (delivering ? [deliveryOnTheWay] : []) + [
            .callback(becomingActive),
            .state(from: .foregroundInactive, to: .foregroundActive),
        ]
    }

    /// What the system hands a scene it brings to the foreground, between
    /// `sceneWillEnterForeground` and `sceneDidBecomeActive` (real-ios-orders-3 c07, c10, c12):
    /// a URL, an activity, a quick action or a tapped notification, or nothing.
    static let deliveryOnTheWay: ExpectedStep = .oneOf([
        [.callback(.openURLContexts)], [.callback(.continueUserActivity)], [.callback(.performActionFor)],
        [.callback(.userNotificationCenterDidReceive)], [],
    ])

    /// After `willFinishLaunching`: a scene-based launch, or an app-based one (§3d), told apart
    /// by the callback after `didFinishLaunching` (the root's `loadView`, with no scene to
    /// connect) or by app-level state restoration before it.
    private static func launchSteps(in context: Context) -> [ExpectedStep] {
        // The root's name is unknown until its loadView: later steps use `.top`.
        // A storyboard root is made (and wakes) before willConnectTo, and loads after it.
        let storyboardRoot = storyboardRootSteps
        let storyboard: ExpectedStep = .oneOf([storyboardRoot, []])
        let connectTail = connectSteps
        // After another step the storyboard's is optional; a branch of its own starts with it
        // or without it (a branch is chosen by its first step).
        let sceneTail: [ExpectedStep] = [storyboard] + connectTail
        let configured: [ExpectedStep] = [.callback(.configurationForConnecting)] + sceneTail
        // Sessions discarded while no worker of the app ran come right after launching.
        let discarded: [ExpectedStep] =
            [.callback(.didDiscardSceneSessions)]
            + (context.sessionExists ? [] : [.oneOf([[.callback(.configurationForConnecting)], []])]) + sceneTail
        let appTail: [ExpectedStep] = [
            .callback(.viewDidLoad, .top),
            .oneOf([
                appFirstAppearanceSteps(from: .unattached, controller: .top),
                appEnterBackgroundSteps(from: .unattached),
            ]),
        ]
        let appRoot: [ExpectedStep] = [.callback(.loadView, .newController), .mark(.appBased)] + appTail
        // Launched into the background for a silent push, with no scene to connect (c20).
        let forPush: [ExpectedStep] = [.callback(.didReceiveRemoteNotification)]
        let afterLaunching: [[ExpectedStep]] =
            [discarded] + (context.sessionExists ? [] : [configured])
            + [connectTail, storyboardRoot + connectTail, appRoot, forPush]
        return [
            .oneOf([
                [.callback(.didFinishLaunching), .oneOf(afterLaunching)],
                // App-level state restoration runs between the two launch callbacks (UIKit's order).
                [
                    .callback(.shouldRestoreSecureApplicationState), .mark(.appBased), .callback(.didFinishLaunching),
                    .callback(.loadView, .newController),
                ] + appTail,
            ])
        ]
    }

    /// The app-based first appearance (§3d): the root appears and lays out, the app becomes
    /// active (from `unattached`: with no `applicationWillEnterForeground`, UIKit's launch
    /// order), then `viewDidAppear`.
    private static func appFirstAppearanceSteps(from: ActivationState, controller: ControllerPattern) -> [ExpectedStep]
    {
        let appearing: [ExpectedStep] = [
            .callback(.viewWillAppear, controller),
            .callback(.viewIsAppearing, controller),
            .callback(.viewWillLayoutSubviews, controller),
            .callback(.viewDidLayoutSubviews, controller),
            .mark(.laidOut(fromTop: 0)),
        ]
        let foreground: [ExpectedStep] =
            from == .unattached
            ? [.callback(.applicationDidBecomeActive), .state(from: .unattached, to: .foregroundInactive)]
            : [
                .callback(.applicationWillEnterForeground), .state(from: from, to: .foregroundInactive),
                .callback(.applicationDidBecomeActive),
            ]
        return appearing + foreground + [
            .state(from: .foregroundInactive, to: .foregroundActive),
            .callback(.viewDidAppear, controller),
        ]
    }

    /// App-based: every entry to background saves the app's state (UIKit's app-level API).
    private static func appEnterBackgroundSteps(from: ActivationState) -> [ExpectedStep] {
        [
            .callback(.applicationDidEnterBackground),
            .state(from: from, to: .background),
            .callback(.shouldSaveSecureApplicationState),
        ]
    }

    /// First appearance from `unattached` (right after launch) or `background` (the first
    /// foreground trip after a background launch).
    private static func firstAppearanceSteps(from: ActivationState, controller: ControllerPattern) -> [ExpectedStep] {
        [
            .callback(.viewWillAppear, controller),
            .callback(.viewIsAppearing, controller),
            .callback(.viewWillLayoutSubviews, controller),
            .callback(.viewDidLayoutSubviews, controller),
            .mark(.laidOut(fromTop: 0)),
            .callback(.sceneWillEnterForeground),
            .state(from: from, to: .foregroundInactive),
            deliveryOnTheWay,
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
        Self.requirementTable[rawValue]
    }

    /// Whether one of the atom's requirements reads the view hierarchy
    /// (`LifecycleRequirement.readsViewHierarchy`).
    public var readsViewHierarchy: Bool {
        Self.readsViewHierarchyTable[rawValue]
    }

    private static let readsViewHierarchyTable = requirementTable.map { $0.contains(where: \.readsViewHierarchy) }

    // Built once: the trace checker asks for them on every atom's first event. An array,
    // not a dictionary: every worker builds it on its first request, and a dictionary keyed
    // by the atom costs a new process a scan of the binary's protocol conformances (about
    // 40 µs of the worker's connect).
    private static let requirementTable = allCases.map(\.definedRequirements)

    private var definedRequirements: [LifecycleRequirement] {
        switch self {
        case .launch: [.activation([.unattached])]
        case .firstAppearance: [.activation([.background]), .appeared(false), .lifecycle(.scene)]
        case .enterForeground: [.activation([.background]), .appeared(true), .lifecycle(.scene)]
        case .becomeActive, .enterBackground: [.activation([.foregroundInactive]), .lifecycle(.scene)]
        case .resignActive: [.activation([.foregroundActive]), .lifecycle(.scene)]
        case .stateRestoration, .disconnect: [.activation([.background]), .lifecycle(.scene)]
        case .sizeChange: [.foreground]
        case .push: [.foreground, .nothingPresented]
        case .pop: [.foreground, .nothingPresented, .controllerAboveRoot]
        case .dismiss: [.foreground, .presented(PresentationStyle.allCases)]
        case .attemptToDismiss: [.foreground, .presented([.pageSheet])]
        // A presented controller may present another (c23).
        case .present: [.foreground, .roomForPresentation]
        case .memoryWarning, .notification: [.attached]
        case .beginBackgroundTask: [.attached, .noBackgroundTask]
        case .backgroundTaskExpiration: [.attached, .unexpiredBackgroundTask]
        case .endBackgroundTask: [.attached, .backgroundTask]
        // Inactive means "running, receives no events".
        case .tap, .userAction: [.activation([.foregroundActive])]
        case .popToRoot: [.foreground, .nothingPresented, .controllerAboveRoot]
        // The controller popped to (the event's `value`) is checked where the atom starts.
        case .popTo: [.foreground, .nothingPresented, .controllerAboveRoot]
        case .quickAction: [.foreground, .lifecycle(.scene)]
        case .openNotification: [.foreground]
        case .remoteNotification: [.attached]
        // The trace checker also asks for a process the scene shares with its app's others.
        case .connectInProcess, .reconnectInProcess: [.activation([.unattached])]
        case .windowMemoryWarning: [.attached]
        // The host brings a background scene forward first (choice).
        case .openURL, .continueUserActivity: [.foreground, .lifecycle(.scene)]
        case .discardedSessions: [.attached, .lifecycle(.scene)]
        case .appFirstAppearance: [.activation([.background]), .appeared(false), .lifecycle(.app)]
        case .appEnterForeground: [.activation([.background]), .appeared(true), .lifecycle(.app)]
        case .appBecomeActive, .appEnterBackground: [.activation([.foregroundInactive]), .lifecycle(.app)]
        case .appResignActive: [.activation([.foregroundActive]), .lifecycle(.app)]
        case .appStateRestoration, .appTerminate: [.activation([.background]), .lifecycle(.app)]
        case .selectTab: [.foreground, .nothingPresented, .tabBar, .lifecycle(.scene)]
        // The child's name is judged by the worker and the checker (containmentRefusal).
        case .addChild, .removeChild: [.foreground]
        // The controllers kept (the event's `value`) are checked where the atom starts.
        case .replaceStack: [.foreground, .nothingPresented]
        }
    }

    /// Whether the atom may start in `snapshot` (the launch aside, see `requirements`).
    public func mayStart(in snapshot: SceneSnapshot) -> Bool {
        requirements.firstUnmet(by: snapshot) == nil
    }
}
