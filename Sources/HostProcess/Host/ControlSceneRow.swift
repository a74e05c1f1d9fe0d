import Protocol
import SceneModel

/// One scene as `ps` shows it.
public struct ControlSceneRow: Sendable, Hashable {
    public var scene: String
    /// Whether the scene has a stored session.
    public var hasSession: Bool
    public var activation: ActivationState
    public var process: ProcessState
    /// The live worker's pid.
    public var pid: Int32?
    /// The live worker's resident memory (VmRSS), in bytes.
    public var residentBytes: Int?
    /// How long the live worker has run, in seconds.
    public var uptimeSeconds: Double?
    /// The navigation stack, root first.
    public var stack: [String]
    /// The argv of the live worker, else of the last one.
    public var worker: [String]?
    /// The controller presented over the stack, and its style (LIFECYCLE.md §3a).
    public var presented: String?
    public var presentation: PresentationStyle?
    /// The lifecycle the worker's app declared (docs/LIFECYCLE.md §3d).
    public var lifecycle: LifecycleKind = .scene
    /// A tab bar root's selected tab (LIFECYCLE.md §3a); nil when the root is one stack.
    public var selectedTab: Int?
    /// The children of the frontmost controller (LIFECYCLE.md §3a), in the order added.
    public var children: [String] = []
    /// The app whose process the worker is, shared with the app's other scenes (`connect`'s `app`).
    public var app: String?

    public init(
        scene: String,
        hasSession: Bool,
        activation: ActivationState,
        process: ProcessState,
        pid: Int32? = nil,
        residentBytes: Int? = nil,
        uptimeSeconds: Double? = nil,
        stack: [String] = []
    ) {
        self.scene = scene
        self.hasSession = hasSession
        self.activation = activation
        self.process = process
        self.pid = pid
        self.residentBytes = residentBytes
        self.uptimeSeconds = uptimeSeconds
        self.stack = stack
    }

    /// `{"scene":"A","session":true,"state":"foregroundActive","process":"running","pid":123,
    /// "rssBytes":7340032,"rssMiB":7.0,"uptimeSeconds":1.25,"stack":["Root"]}`; absent values are null.
    public var json: JSONValue {
        .object([
            "scene": .string(scene),
            "session": .bool(hasSession),
            "state": .string(activation.rawValue),
            "process": .string(process.rawValue),
            "pid": pid.map { .int(Int($0)) } ?? .null,
            "rssBytes": residentBytes.map { .int($0) } ?? .null,
            "rssMiB": residentBytes.map { .double((Double($0) / 1_048_576 * 10).rounded() / 10) } ?? .null,
            "uptimeSeconds": uptimeSeconds.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
            "stack": .array(stack.map { .string($0) }),
            "worker": worker.map { .array($0.map { .string($0) }) } ?? .null,
            "presented": presented.map { .string($0) } ?? .null,
            "presentation": presentation.map { .string($0.rawValue) } ?? .null,
            "lifecycle": .string(lifecycle.rawValue),
            "selectedTab": selectedTab.map { .int($0) } ?? .null,
            "children": .array(children.map { .string($0) }),
            "app": app.map { .string($0) } ?? .null,
        ])
    }

    public init?(json value: JSONValue) {
        guard case .object(let object) = value,
            case .string(let scene)? = object["scene"],
            case .bool(let hasSession)? = object["session"],
            case .string(let state)? = object["state"], let activation = ActivationState(rawValue: state),
            case .string(let processText)? = object["process"], let process = ProcessState(rawValue: processText)
        else { return nil }
        self.init(scene: scene, hasSession: hasSession, activation: activation, process: process)
        if case .int(let pid)? = object["pid"] { self.pid = Int32(exactly: pid) }
        if case .int(let bytes)? = object["rssBytes"] { self.residentBytes = bytes }
        switch object["uptimeSeconds"] {
        case .double(let seconds)?: self.uptimeSeconds = seconds
        case .int(let seconds)?: self.uptimeSeconds = Double(seconds)
        default: break
        }
        if case .array(let items)? = object["worker"] {
            self.worker = items.compactMap { if case .string(let argument) = $0 { argument } else { nil } }
        }
        if case .array(let items)? = object["stack"] {
            self.stack = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        if case .string(let name)? = object["presented"] { self.presented = name }
        if case .string(let style)? = object["presentation"] { self.presentation = PresentationStyle(rawValue: style) }
        if case .string(let kind)? = object["lifecycle"], let lifecycle = LifecycleKind(rawValue: kind) {
            self.lifecycle = lifecycle
        }
        if case .int(let tab)? = object["selectedTab"] { self.selectedTab = tab }
        if case .string(let app)? = object["app"] { self.app = app }
        if case .array(let items)? = object["children"] {
            self.children = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
    }
}
