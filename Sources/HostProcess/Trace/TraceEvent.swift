import Protocol

/// One line of the trace (JSON Lines; field names as CLI.md fixes them).
public struct TraceEvent: Sendable, Hashable {
    /// The `type` field.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case callback, state, process, host, error
    }

    /// The `event` field of `process` events.
    public enum ProcessEvent: String, Sendable, Hashable, CaseIterable {
        case spawned, suspended, resumed, exited
    }

    /// Strictly increasing from 1 over the whole trace.
    public var seq: Int
    /// Seconds since the host started (monotonic clock).
    public var time: Double
    public var kind: Kind
    /// The session's identifier; nil for host-wide events.
    public var scene: String?
    /// Callback name for `callback`; event name for `host` (`started`, `quit`, …).
    public var name: String?
    /// `vc`: the view controller, for view-controller callbacks.
    public var viewController: String?
    /// For `state`.
    public var from: ActivationState?
    public var to: ActivationState?
    /// `event` for `process`.
    public var processEvent: ProcessEvent?
    public var pid: Int32?
    /// For `exited`.
    public var reason: TerminationReason?
    /// Exit status, for `exited` by exit.
    public var status: Int32?
    /// Signal name without `SIG` (`KILL`, `TERM`, …), for `exited` by signal.
    public var signal: String?
    /// `willConnectTo`: the restoration state delivered.
    public var restoration: JSONValue?
    /// `didReceiveNotification`: name and value.
    public var notification: String?
    public var value: JSONValue?
    /// `"app"` on the callbacks of a change the app made itself (LIFECYCLE.md §3b); nil for
    /// the callbacks of host requests and for every other kind of event.
    public var origin: String?
    /// For `error`: the refused operation, the error code and message.
    public var op: String?
    public var code: Int?
    public var message: String?
    /// For `spawned`: the argv the worker was started with.
    public var argv: [String]?
    /// For `exited`: true when the host killed the worker silently (a `terminate` or the
    /// host's quit finding it suspended or still launching, LIFECYCLE.md §4), which tells
    /// that kill from a test's or a user's (both `killed`); absent otherwise.
    public var silent: Bool?
    /// On the callbacks of a tab switch (`op: "selectTab"`): the index of the tab selected,
    /// which tells the trace checker whose stack the switch shows (LIFECYCLE.md §3a).
    public var tab: Int?
    /// On `willConnectTo` of a tab bar root: how many tabs it has (`tabs`).
    public var tabCount: Int?

    public init(
        seq: Int = 0,
        time: Double = 0,
        kind: Kind,
        scene: String? = nil,
        name: String? = nil,
        viewController: String? = nil,
        from: ActivationState? = nil,
        to: ActivationState? = nil,
        processEvent: ProcessEvent? = nil,
        pid: Int32? = nil,
        reason: TerminationReason? = nil,
        status: Int32? = nil,
        signal: String? = nil,
        restoration: JSONValue? = nil,
        notification: String? = nil,
        value: JSONValue? = nil,
        origin: String? = nil,
        op: String? = nil,
        code: Int? = nil,
        message: String? = nil,
        argv: [String]? = nil,
        silent: Bool? = nil,
        tab: Int? = nil,
        tabCount: Int? = nil
    ) {
        self.seq = seq
        self.time = time
        self.kind = kind
        self.scene = scene
        self.name = name
        self.viewController = viewController
        self.from = from
        self.to = to
        self.processEvent = processEvent
        self.pid = pid
        self.reason = reason
        self.status = status
        self.signal = signal
        self.restoration = restoration
        self.notification = notification
        self.value = value
        self.origin = origin
        self.op = op
        self.code = code
        self.message = message
        self.argv = argv
        self.silent = silent
        self.tab = tab
        self.tabCount = tabCount
    }
}
