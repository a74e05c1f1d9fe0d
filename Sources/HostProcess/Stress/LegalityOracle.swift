import Protocol

/// The "legal from" column of docs/LIFECYCLE.md's compound operations, written down a second
/// time, independently of the host's `SceneLifecycle`, over the model's view of a scene.
///
/// The stress run asks it, at each refusal the trace records, whether the trace checker's
/// view of the scene agrees that the operation was illegal. Operation parameters are
/// assumed valid (a non-empty controller name, a positive size).
public enum LegalityOracle {
    /// What the legality of an operation depends on.
    public struct SceneView: Sendable, Hashable {
        public var activation: ActivationState
        /// `none` when no worker is alive (never started or exited).
        public var process: ProcessState
        public var stackDepth: Int
        public var hasBackgroundTask: Bool
        public var isDiscarded: Bool

        public init(
            activation: ActivationState,
            process: ProcessState,
            stackDepth: Int,
            hasBackgroundTask: Bool,
            isDiscarded: Bool
        ) {
            self.activation = activation
            self.process = process == .terminated ? .none : process
            self.stackDepth = stackDepth
            self.hasBackgroundTask = hasBackgroundTask
            self.isDiscarded = isDiscarded
        }

        /// The trace checker's view of a scene.
        public init(_ checker: SceneTraceChecker) {
            self.init(
                activation: checker.activation,
                process: checker.processState,
                stackDepth: checker.stack.count,
                hasBackgroundTask: checker.hasBackgroundTask,
                isDiscarded: checker.isDiscarded
            )
        }
    }

    /// Whether the operation named `op` is legal in `scene`; nil for an operation this
    /// oracle does not judge (`discard`, `kill`, anything unknown).
    public static func isLegal(_ op: String, in scene: SceneView) -> Bool? {
        if scene.isDiscarded { return op == "discard" || op == "kill" ? nil : false }
        let alive = scene.process == .launching || scene.process == .running || scene.process == .suspended
        let running = scene.process == .running
        let attached = scene.activation != .unattached
        let foreground = scene.activation.isForeground
        switch op {
        case "connect": return !alive
        case "activate": return scene.activation == .foregroundInactive && running
        case "deactivate": return scene.activation == .foregroundActive && running
        case "background": return foreground && running
        case "foreground": return scene.activation == .background && alive
        case "disconnect": return alive && attached
        case "push", "resize": return foreground && running
        case "pop": return foreground && running && scene.stackDepth > 1
        case "memoryWarning": return running && attached
        case "notify": return alive && attached
        case "beginBackgroundTask": return running && attached && !scene.hasBackgroundTask
        case "endBackgroundTask": return running && scene.hasBackgroundTask
        case "terminate": return alive
        default: return nil
        }
    }
}
