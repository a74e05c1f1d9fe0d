import Protocol

/// A snapshot of one scene, as `ps` shows it.
public struct SceneStatus: Sendable, Hashable {
    public var scene: String
    public var activation: ActivationState
    public var process: ProcessState
    /// The live worker's pid.
    public var pid: Int32?
    /// The navigation stack, root first.
    public var stack: [String]
    public var hasBackgroundTask: Bool
    public var isDiscarded: Bool
    /// How the last worker ended, if one did.
    public var lastExit: WorkerExit?
    /// The argv of the live worker, else of the last one whose connect succeeded (what a
    /// `connect` without a worker of its own starts again); nil when none has connected,
    /// and a `connect` starts the host's.
    public var workerArgv: [String]? = nil
    /// The controller presented over the stack, if any (LIFECYCLE.md §3a).
    public var presented: String? = nil
    /// Its presentation style.
    public var presentation: PresentationStyle? = nil
    /// The lifecycle the worker's app declared (docs/LIFECYCLE.md §3d): `scene` until a
    /// worker says otherwise.
    public var lifecycle: LifecycleKind = .scene
    /// A tab bar root's selected tab (LIFECYCLE.md §3a); nil when the root is one stack.
    public var selectedTab: Int? = nil
    /// A tab bar root's tabs: each tab's stack, root first (the selected one is `stack`).
    public var tabs: [[String]]? = nil
    /// The children of the frontmost controller (the presented one, else the top of the
    /// stack), in the order they were added (LIFECYCLE.md §3a).
    public var children: [String] = []
    /// The app whose process the scene's worker is, when it shares one with the app's other
    /// scenes (`connect`'s `app`); nil: a process of its own.
    public var app: String? = nil
    package init(
        scene: String,
        activation: ActivationState,
        process: ProcessState,
        pid: Int32?,
        stack: [String],
        hasBackgroundTask: Bool,
        isDiscarded: Bool,
        lastExit: WorkerExit?,
        workerArgv: [String]? = nil,
        presented: String? = nil,
        presentation: PresentationStyle? = nil,
        lifecycle: LifecycleKind = .scene,
        selectedTab: Int? = nil,
        tabs: [[String]]? = nil,
        children: [String] = [],
        app: String? = nil
    ) {
        self.scene = scene
        self.activation = activation
        self.process = process
        self.pid = pid
        self.stack = stack
        self.hasBackgroundTask = hasBackgroundTask
        self.isDiscarded = isDiscarded
        self.lastExit = lastExit
        self.workerArgv = workerArgv
        self.presented = presented
        self.presentation = presentation
        self.lifecycle = lifecycle
        self.selectedTab = selectedTab
        self.tabs = tabs
        self.children = children
        self.app = app
    }
}
