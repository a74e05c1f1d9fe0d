/// What the legality of an operation or a transition depends on: a small snapshot of one
/// scene, as the host, the worker or the trace checker sees it.
///
/// Each side fills in what it knows; a field a side cannot know keeps the value that makes
/// its requirements moot (the worker is `running` and its session not discarded, in the
/// worker's own view).
public struct SceneSnapshot: Sendable, Hashable {
    public var activation: ActivationState
    public var process: ProcessState
    /// The navigation stack's depth (the root counts).
    public var stackDepth: Int
    public var backgroundTask: BackgroundTaskState
    /// Whether the scene's controllers have appeared in this process (the first appearance
    /// ran): decides between the first-appearance and the enter-foreground transition.
    public var hasAppeared: Bool
    /// Whether `didDiscardSceneSessions` ended the session.
    public var isDiscarded: Bool
    /// Whether a stored session exists (then `connect` is a reconnect and `discard` has
    /// something to delete even with no worker).
    public var sessionExists: Bool
    /// The style of the last controller presented over the stack, nil when none is.
    public var presentation: PresentationStyle?
    /// How many controllers are presented, one over another (real-ios-orders-3 c23).
    public var presentationDepth: Int
    /// The lifecycle the worker's app declared (scene-based until a worker says otherwise).
    public var lifecycle: LifecycleKind
    /// How many tabs the tab bar root has; 0 when the root is one navigation stack.
    public var tabCount: Int
    /// The selected tab's index (0 without tabs).
    public var selectedTab: Int
    /// The children of the frontmost controller (the presented one, else the top of the
    /// selected stack), in the order they were added (LIFECYCLE.md §3a).
    public var frontmostChildren: [String]

    /// The most children one controller may have: `addChild` past it is refused.
    public static let maximumChildren = 16
    /// The most controllers presented one over another: a `present` past it is refused.
    public static let maximumPresentationDepth = 8

    public init(
        activation: ActivationState = .unattached,
        process: ProcessState = .none,
        stackDepth: Int = 0,
        backgroundTask: BackgroundTaskState = .none,
        hasAppeared: Bool = false,
        isDiscarded: Bool = false,
        sessionExists: Bool = false,
        presentation: PresentationStyle? = nil,
        presentationDepth: Int? = nil,
        lifecycle: LifecycleKind = .scene,
        tabCount: Int = 0,
        selectedTab: Int = 0,
        frontmostChildren: [String] = []
    ) {
        self.activation = activation
        self.process = process
        self.stackDepth = stackDepth
        self.backgroundTask = backgroundTask
        self.hasAppeared = hasAppeared
        self.isDiscarded = isDiscarded
        self.sessionExists = sessionExists
        self.presentation = presentation
        self.presentationDepth = presentationDepth ?? (presentation == nil ? 0 : 1)
        self.lifecycle = lifecycle
        self.tabCount = tabCount
        self.selectedTab = selectedTab
        self.frontmostChildren = frontmostChildren
    }

    /// Whether the worker has a background task that has not ended (expired or not).
    public var hasBackgroundTask: Bool { backgroundTask != .none }
}

/// A worker's background task (LIFECYCLE.md §4): at most one at a time.
public enum BackgroundTaskState: String, Sendable, Hashable, CaseIterable {
    case none
    case running
    /// Its expiration handler ran; only its end (or the worker's death) may follow.
    case expired
}
