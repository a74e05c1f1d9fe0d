import Protocol

/// One line of the trace (JSON Lines; field names as CLI.md fixes them).
public struct TraceEvent: Sendable, Hashable {
    /// The fields, held in one reference-counted box: an event is copied (into actions, the
    /// history, subscribers) far more often than it is changed, and a copy is then one
    /// retain instead of some 300 bytes and a retain per string.
    ///
    /// The fields of callbacks and state changes, the events of every transition, are here;
    /// those only process, error and a few host events carry are in `rare`, a box of its own
    /// that most events do not have. Every event is made and, once the history drops it,
    /// destroyed: with all 25 fields in one box, each cost a check of every field, about 400
    /// instructions a destroy, two events per transition.
    package struct Fields: Sendable, Hashable {
        package var seq: Int
        package var time: Double
        package var kind: Kind
        package var scene: String?
        package var name: String?
        package var viewController: String?
        package var from: ActivationState?
        package var to: ActivationState?
        package var value: JSONValue?
        package var origin: String?
        package var op: String?
        package var tab: Int?
        package var rare: RareFieldsBox?
    }

    /// The fields of process, error and host events (`Fields.rare`).
    package struct RareFields: Sendable, Hashable {
        package var processEvent: ProcessEvent?
        package var pid: Int32?
        package var reason: TerminationReason?
        package var status: Int32?
        package var signal: String?
        package var restoration: JSONValue?
        package var notification: String?
        package var code: Int?
        package var message: String?
        package var argv: [String]?
        package var silent: Bool?
        package var tabCount: Int?
        package var app: String?

        /// Whether no field is set (an event then holds no box).
        var isEmpty: Bool { self == RareFields() }
    }

    /// The box of `RareFields`: never changed once made (a change makes a new one).
    package final class RareFieldsBox: Sendable, Hashable {
        package let fields: RareFields
        init(_ fields: RareFields) { self.fields = fields }
        package static func == (lhs: RareFieldsBox, rhs: RareFieldsBox) -> Bool {
            lhs === rhs || lhs.fields == rhs.fields
        }
        package func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    /// Whether the event holds a box of rare fields (`estimatedSize`).
    package var hasRareFields: Bool { storage.fields.rare != nil }

    /// Changes one rare field: a new box, or none when every rare field is nil.
    private mutating func changeRare(_ change: (inout RareFields) -> Void) {
        var fields = storage.fields.rare?.fields ?? RareFields()
        change(&fields)
        uniqueStorage().fields.rare = fields.isEmpty ? nil : RareFieldsBox(fields)
    }

    package final class Storage: @unchecked Sendable {
        // Only mutated through `uniqueStorage()`, that is while uniquely referenced, and every
        // access is one field read or written, never held across another: no two can overlap.
        // Unchecked, then: the runtime's check of each read (`swift_beginAccess`, the checker
        // reads several fields of every event) cost about 0.1 µs per transition on the host.
        @exclusivity(unchecked) package var fields: Fields
        package init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// The box, copied first when it is shared (copy on write).
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    public static func == (lhs: TraceEvent, rhs: TraceEvent) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The `type` field.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case callback, state, process, host, error
    }

    /// The `event` field of `process` events.
    public enum ProcessEvent: String, Sendable, Hashable, CaseIterable {
        case spawned, suspended, resumed, exited
        /// The scene joined its app's running process (an app process, `connect`'s `app`):
        /// it connects there without a launch.
        case attached
        /// The scene's disconnect ended; its app's process runs on without it.
        case detached
    }

    /// Strictly increasing from 1 over the whole trace.
    public var seq: Int {
        get { storage.fields.seq }
        set { uniqueStorage().fields.seq = newValue }
    }
    /// Seconds since the host started (monotonic clock).
    public var time: Double {
        get { storage.fields.time }
        set { uniqueStorage().fields.time = newValue }
    }
    public var kind: Kind {
        get { storage.fields.kind }
        set { uniqueStorage().fields.kind = newValue }
    }
    /// The session's identifier; nil for host-wide events.
    public var scene: String? {
        get { storage.fields.scene }
        set { uniqueStorage().fields.scene = newValue }
    }
    /// Callback name for `callback`; event name for `host` (`started`, `quit`, …).
    public var name: String? {
        get { storage.fields.name }
        set { uniqueStorage().fields.name = newValue }
    }
    /// `vc`: the view controller, for view-controller callbacks.
    public var viewController: String? {
        get { storage.fields.viewController }
        set { uniqueStorage().fields.viewController = newValue }
    }
    /// For `state`.
    public var from: ActivationState? {
        get { storage.fields.from }
        set { uniqueStorage().fields.from = newValue }
    }
    public var to: ActivationState? {
        get { storage.fields.to }
        set { uniqueStorage().fields.to = newValue }
    }
    /// `event` for `process`.
    public var processEvent: ProcessEvent? {
        get { storage.fields.rare?.fields.processEvent }
        set { changeRare { $0.processEvent = newValue } }
    }
    public var pid: Int32? {
        get { storage.fields.rare?.fields.pid }
        set { changeRare { $0.pid = newValue } }
    }
    /// For `exited`.
    public var reason: TerminationReason? {
        get { storage.fields.rare?.fields.reason }
        set { changeRare { $0.reason = newValue } }
    }
    /// Exit status, for `exited` by exit.
    public var status: Int32? {
        get { storage.fields.rare?.fields.status }
        set { changeRare { $0.status = newValue } }
    }
    /// Signal name without `SIG` (`KILL`, `TERM`, …), for `exited` by signal.
    public var signal: String? {
        get { storage.fields.rare?.fields.signal }
        set { changeRare { $0.signal = newValue } }
    }
    /// `willConnectTo`: the restoration state delivered.
    public var restoration: JSONValue? {
        get { storage.fields.rare?.fields.restoration }
        set { changeRare { $0.restoration = newValue } }
    }
    /// `didReceiveNotification`: name and value.
    public var notification: String? {
        get { storage.fields.rare?.fields.notification }
        set { changeRare { $0.notification = newValue } }
    }
    public var value: JSONValue? {
        get { storage.fields.value }
        set { uniqueStorage().fields.value = newValue }
    }
    /// `"app"` on the callbacks of a change the app made itself (LIFECYCLE.md §3b); nil for
    /// the callbacks of host requests and for every other kind of event.
    public var origin: String? {
        get { storage.fields.origin }
        set { uniqueStorage().fields.origin = newValue }
    }
    /// For `error`: the refused operation, the error code and message.
    public var op: String? {
        get { storage.fields.op }
        set { uniqueStorage().fields.op = newValue }
    }
    public var code: Int? {
        get { storage.fields.rare?.fields.code }
        set { changeRare { $0.code = newValue } }
    }
    public var message: String? {
        get { storage.fields.rare?.fields.message }
        set { changeRare { $0.message = newValue } }
    }
    /// For `spawned`: the argv the worker was started with.
    public var argv: [String]? {
        get { storage.fields.rare?.fields.argv }
        set { changeRare { $0.argv = newValue } }
    }
    /// For `exited`: true when the host killed the worker silently (a `terminate` or the
    /// host's quit finding it suspended or still launching, LIFECYCLE.md §4), which tells
    /// that kill from a test's or a user's (both `killed`); absent otherwise.
    public var silent: Bool? {
        get { storage.fields.rare?.fields.silent }
        set { changeRare { $0.silent = newValue } }
    }
    /// On the callbacks of a tab switch (`op: "selectTab"`): the index of the tab selected,
    /// which tells the trace checker whose stack the switch shows (LIFECYCLE.md §3a).
    public var tab: Int? {
        get { storage.fields.tab }
        set { uniqueStorage().fields.tab = newValue }
    }
    /// On `willConnectTo` of a tab bar root: how many tabs it has (`tabs`).
    public var tabCount: Int? {
        get { storage.fields.rare?.fields.tabCount }
        set { changeRare { $0.tabCount = newValue } }
    }

    /// For `spawned` and `attached`: the app whose process it is (`connect`'s `app`), when
    /// the process carries the scenes of one app.
    public var app: String? {
        get { storage.fields.rare?.fields.app }
        set { changeRare { $0.app = newValue } }
    }

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
        tabCount: Int? = nil,
        app: String? = nil
    ) {
        // Callbacks and state changes, the events of every transition, have none: no box,
        // and nothing compared.
        let hasRare =
            processEvent != nil || pid != nil || reason != nil || status != nil || signal != nil
            || restoration != nil || notification != nil || code != nil || message != nil || argv != nil
            || silent != nil || tabCount != nil || app != nil
        let rare =
            hasRare
            ? RareFieldsBox(
                RareFields(
                    processEvent: processEvent,
                    pid: pid,
                    reason: reason,
                    status: status,
                    signal: signal,
                    restoration: restoration,
                    notification: notification,
                    code: code,
                    message: message,
                    argv: argv,
                    silent: silent,
                    tabCount: tabCount,
                    app: app
                )
            ) : nil
        storage = Storage(
            Fields(
                seq: seq,
                time: time,
                kind: kind,
                scene: scene,
                name: name,
                viewController: viewController,
                from: from,
                to: to,
                value: value,
                origin: origin,
                op: op,
                tab: tab,
                rare: rare
            )
        )
    }
}

extension TraceEvent {
    /// The host event that records a tab bar root the app made while connecting (`tabs`: its
    /// tab count, `tab`: the selected one): the trace's `willConnectTo` came before the app's
    /// code ran, so this tells the verifier.
    public static let tabBarName = "tabBar"

    /// The host event that records an app process the host killed because more processes
    /// were left without a scene than `HostConfiguration.maximumIdleAppProcesses` allows
    /// (`app`, `pid`): no scene's trace carries it.
    public static let appReclaimedName = "appReclaimed"
}
