import Protocol

/// An operation on one scene, as scenario files, the CLI and the Swift API name them.
public enum SceneOperation: Sendable, Hashable {
    /// Connect the scene (start its worker). `background`: system-requested launch.
    /// `worker`: this scene's worker argv, overriding the host's.
    case connect(background: Bool = false, root: String = "Root", worker: [String]? = nil)
    case activate
    case deactivate
    case background
    case foreground
    case disconnect
    case discard
    /// Push a controller; `payload` goes to the worker's controller factory with the name.
    case push(viewController: String, payload: JSONValue? = nil)
    case pop
    case resize(width: Int, height: Int)
    case memoryWarning
    case notify(name: String, value: JSONValue)
    case beginBackgroundTask
    case endBackgroundTask
    /// Send `signal` to the worker from the host (no callback; reason `killed`).
    case kill(signal: Int32)
    /// Terminate the scene's worker (LIFECYCLE.md §4).
    case terminate
    /// Present a controller over the stack (LIFECYCLE.md §3a).
    case present(viewController: String, style: PresentationStyle = .pageSheet)
    /// Dismiss the presented controller (programmatic).
    case dismiss
    /// The user swipes the presented sheet down; `completes: false` lets it spring back.
    case swipeDismiss(completes: Bool = true)
    /// The user swipes back (interactive pop); `completes: false` cancels it.
    case swipeBack(completes: Bool = true)

    /// The model's operation: its name, fields and legality.
    public var kind: LifecycleOperation {
        switch self {
        case .connect: .connect
        case .activate: .activate
        case .deactivate: .deactivate
        case .background: .background
        case .foreground: .foreground
        case .disconnect: .disconnect
        case .discard: .discard
        case .push: .push
        case .pop: .pop
        case .resize: .resize
        case .memoryWarning: .memoryWarning
        case .notify: .notify
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .kill: .kill
        case .terminate: .terminate
        case .present: .present
        case .dismiss: .dismiss
        case .swipeDismiss: .swipeDismiss
        case .swipeBack: .swipeBack
        }
    }

    /// The op's name as scenario files and the trace write it.
    public var name: String { kind.rawValue }
}
