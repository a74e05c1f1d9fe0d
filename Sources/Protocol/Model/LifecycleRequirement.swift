/// One condition an operation or a transition needs. Legality is a list of these, checked
/// in order: the first one unmet is the refusal's reason.
public enum LifecycleRequirement: Sendable, Hashable {
    /// The session was not discarded (every scene operation needs it).
    case notDiscarded
    /// The scene is in one of these activation states.
    case activation(ActivationStates)
    /// The worker is in one of these process states.
    case process(ProcessStates)
    /// The stack holds a controller above the root.
    case controllerAboveRoot
    /// The worker has no background task.
    case noBackgroundTask
    /// The worker has a background task (expired or not).
    case backgroundTask
    /// The worker has a background task whose expiration handler has not run.
    case unexpiredBackgroundTask
    /// A stored session or a live worker exists.
    case sessionOrWorker
    /// The scene's controllers have (or have not) appeared in this process.
    case appeared(Bool)
    /// No controller is presented over the stack (LIFECYCLE.md §3a).
    case nothingPresented
    /// A controller is presented over the stack, in one of these styles.
    case presented([PresentationStyle])
    /// The worker's app follows this lifecycle (docs/LIFECYCLE.md §3d).
    case lifecycle(LifecycleKind)
    /// No app-based worker is alive: an app without scene support has no scene to release.
    case noLiveAppBasedWorker
    /// A live worker, or a scene-based app: an app without scene support has no process apart
    /// from its window, so nothing is launched for it without its window (a silent push, c20).
    case liveWorkerUnlessAppBased
    /// The scene's root is a tab bar (LIFECYCLE.md §3a).
    case tabBar
    /// The tab bar has a tab of this index.
    case tabIndex(Int)
    /// The frontmost controller has no child of this name (LIFECYCLE.md §3a).
    case noChildNamed(String)
    /// The frontmost controller has a child of this name.
    case childNamed(String)
    /// The frontmost controller has fewer children than `SceneSnapshot.maximumChildren`.
    case roomForChild
    /// Fewer than `SceneSnapshot.maximumPresentationDepth` controllers presented.
    case roomForPresentation

    /// Every attached activation state.
    public static let attached = activation([.foregroundActive, .foregroundInactive, .background])
    /// Both foreground states.
    public static let foreground = activation([.foregroundActive, .foregroundInactive])
    /// A worker that exists (possibly stopped).
    public static let liveWorker = process([.launching, .running, .suspended])
    /// No worker alive: never started, or dead.
    public static let noLiveWorker = process([.none, .terminated])

    /// Whether the requirement reads the view hierarchy: the stack, what is presented, the
    /// tabs or the frontmost controller's children. A worker judges the others on its own
    /// state, without walking its window.
    public var readsViewHierarchy: Bool {
        switch self {
        case .controllerAboveRoot, .nothingPresented, .presented, .tabBar, .tabIndex, .noChildNamed, .childNamed,
            .roomForChild, .roomForPresentation:
            true
        case .notDiscarded, .activation, .process, .noBackgroundTask, .backgroundTask, .unexpiredBackgroundTask,
            .sessionOrWorker, .appeared, .lifecycle, .noLiveAppBasedWorker, .liveWorkerUnlessAppBased:
            false
        }
    }

    /// Whether `snapshot` meets the requirement.
    public func isMet(by snapshot: SceneSnapshot) -> Bool {
        switch self {
        case .notDiscarded: !snapshot.isDiscarded
        case .activation(let allowed): allowed.contains(snapshot.activation)
        case .process(let allowed): allowed.contains(snapshot.process)
        case .controllerAboveRoot: snapshot.stackDepth >= 2
        case .noBackgroundTask: snapshot.backgroundTask == .none
        case .backgroundTask: snapshot.backgroundTask != .none
        case .unexpiredBackgroundTask: snapshot.backgroundTask == .running
        case .sessionOrWorker: snapshot.sessionExists || snapshot.process.isAlive
        case .appeared(let appeared): snapshot.hasAppeared == appeared
        case .nothingPresented: snapshot.presentation == nil
        case .presented(let styles): snapshot.presentation.map(styles.contains) ?? false
        case .lifecycle(let kind): snapshot.lifecycle == kind
        case .noLiveAppBasedWorker: snapshot.lifecycle == .scene || !snapshot.process.isAlive
        case .liveWorkerUnlessAppBased: snapshot.lifecycle == .scene || snapshot.process.isAlive
        case .tabBar: snapshot.tabCount > 0
        case .tabIndex(let index): index >= 0 && index < snapshot.tabCount
        case .noChildNamed(let name): !snapshot.frontmostChildren.contains(name)
        case .childNamed(let name): snapshot.frontmostChildren.contains(name)
        case .roomForChild: snapshot.frontmostChildren.count < SceneSnapshot.maximumChildren
        case .roomForPresentation: snapshot.presentationDepth < SceneSnapshot.maximumPresentationDepth
        }
    }

    /// The requirement as docs/LIFECYCLE.md's tables write it.
    public var documentation: String {
        switch self {
        case .notDiscarded: return "session not discarded"
        case .activation(let allowed):
            if self == .attached { return "attached" }
            return allowed.map { "`\($0)`" }.joined(separator: " or ")
        case .process(let allowed):
            if self == .liveWorker { return "live worker" }
            if self == .noLiveWorker { return "no live worker" }
            let excluded = ProcessState.allCases.filter { !allowed.contains($0) }
            if excluded.count == 1 { return "worker not `\(excluded[0])`" }
            return "worker " + allowed.map { "`\($0)`" }.joined(separator: " or ")
        case .controllerAboveRoot: return "stack of two or more"
        case .noBackgroundTask: return "no background task"
        case .backgroundTask: return "a background task"
        case .unexpiredBackgroundTask: return "an unexpired background task"
        case .sessionOrWorker: return "a stored session or a live worker"
        case .appeared(let appeared): return appeared ? "controllers appeared" : "controllers not yet appeared"
        case .nothingPresented: return "nothing presented"
        case .presented(let styles):
            if styles.count == PresentationStyle.allCases.count { return "a presented controller" }
            return "a " + styles.map { "`\($0)`" }.joined(separator: " or ") + " presented"
        case .lifecycle(let kind): return kind == .app ? "app-based" : "scene-based"
        case .noLiveAppBasedWorker: return "no live app-based worker"
        case .liveWorkerUnlessAppBased: return "a live worker or a scene-based app"
        case .tabBar: return "a tab bar root"
        case .tabIndex: return "an index below the tab count"
        case .noChildNamed: return "no child of that name"
        case .childNamed: return "a child of that name"
        case .roomForChild: return "fewer than \(SceneSnapshot.maximumChildren) children"
        case .roomForPresentation:
            return "fewer than \(SceneSnapshot.maximumPresentationDepth) controllers presented"
        }
    }

    /// Why `snapshot` does not meet the requirement, in words.
    func unmetReason(in snapshot: SceneSnapshot) -> String {
        switch self {
        case .notDiscarded:
            return "the session was discarded"
        case .activation(let allowed):
            if self == .attached { return "the scene is not connected" }
            return "the scene is \(snapshot.activation), not \(allowed.map(\.rawValue).joined(separator: " or "))"
        case .process:
            if self == .noLiveWorker { return "the scene is already connected (\(snapshot.activation))" }
            if self == .liveWorker { return "the scene has no worker" }
            return "the worker is \(snapshot.process)"
        case .controllerAboveRoot: return "cannot pop the root view controller"
        case .noBackgroundTask: return "a background task is already running"
        case .backgroundTask: return "no background task is running"
        case .unexpiredBackgroundTask:
            return snapshot.backgroundTask == .none
                ? "no background task is running" : "the background task already expired"
        case .sessionOrWorker: return "no session to discard"
        case .appeared(let appeared):
            return appeared ? "the controllers have not appeared yet" : "the controllers already appeared"
        case .nothingPresented:
            return "a view controller is presented (\(snapshot.presentation?.rawValue ?? "")): dismiss it first"
        case .presented(let styles):
            guard let presentation = snapshot.presentation else { return "nothing is presented" }
            return "the presented view controller is \(presentation), not "
                + styles.map(\.rawValue).joined(separator: " or ")
        case .lifecycle(let kind):
            return kind == .app ? "the app supports scenes" : "the app does not support scenes"
        case .noLiveAppBasedWorker:
            return
                "the app does not support scenes: it has no scene to discard or to open a URL in (terminate it first)"
        case .liveWorkerUnlessAppBased:
            return "the app does not support scenes: it is launched with its window only (connect it first)"
        case .tabBar: return "the scene's root is not a tab bar (connect it with tabs)"
        case .tabIndex(let index):
            return
                "tab index \(index) is out of range: the tab bar has \(snapshot.tabCount) tabs (0 to \(snapshot.tabCount - 1))"
        case .noChildNamed(let name):
            return "the frontmost view controller already has a child \(name): remove it first"
        case .childNamed(let name):
            let children = snapshot.frontmostChildren
            return "the frontmost view controller has no child \(name) (its children: "
                + (children.isEmpty ? "none" : children.joined(separator: ", ")) + ")"
        case .roomForChild:
            return "the frontmost view controller already has \(SceneSnapshot.maximumChildren) children, "
                + "the limit: remove one first"
        case .roomForPresentation:
            return "\(SceneSnapshot.maximumPresentationDepth) view controllers are presented one over another, "
                + "the limit: dismiss one first"
        }
    }
}

extension [LifecycleRequirement] {
    /// The first requirement `snapshot` does not meet, or nil.
    public func firstUnmet(by snapshot: SceneSnapshot) -> LifecycleRequirement? {
        // Each requirement asked where it lies: `first(where:)` copied each one out (a retain
        // and a release of its payload), twice the cost of the check itself.
        withUnsafeBufferPointer { requirements in
            for index in requirements.indices where !requirements[index].isMet(by: snapshot) {
                return requirements[index]
            }
            return nil
        }
    }

    /// The requirements as docs/LIFECYCLE.md's tables write them ("any time" for none).
    public var documentation: String {
        isEmpty ? "any time" : map(\.documentation).joined(separator: "; ")
    }
}
