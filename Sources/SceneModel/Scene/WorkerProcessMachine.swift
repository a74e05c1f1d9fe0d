import Protocol

/// The host's view of one worker process, from spawn to reap: a plain value with no I/O.
///
/// Kept apart from the scene's part (`SceneMachine`) so that one worker could later carry
/// several scenes: everything here is about the process and its pipe (pid, requests
/// awaiting a reply, why it is being ended), nothing about activation or stacks.
package struct WorkerProcessMachine: Sendable {
    package enum State: Sendable, Hashable {
        /// Asked for; the blocking thread is starting it.
        case spawning
        /// Started, not seen dead yet.
        case alive(pid: Int32)
    }

    package private(set) var state: State = .spawning
    /// The argv it was started with (a restart uses it again).
    package let argv: [String]
    private var nextRequestID = 1
    /// Requests written and not answered yet: each one's id and operation name. One at a time
    /// in practice (the scene carries out one request at a time): a search of an array costs
    /// less than the two hashes a dictionary took per request.
    package private(set) var pending: [(id: Int, name: String)] = []
    package private(set) var sawReady = false
    /// Set once the worker broke the protocol: later input from it is ignored.
    package private(set) var violated = false
    /// Set before the host kills the worker, so the death gets the host's reason (first wins).
    package private(set) var killReason: TerminationReason?
    /// Set before a disconnect or terminate request: a clean exit then has this reason.
    package private(set) var cleanExitReason: TerminationReason?
    /// The host ends this worker on purpose (disconnect, discard, terminate, jetsam): its
    /// death is no reason to restart.
    package var endsOnPurpose = false
    /// The activation state as the worker's callbacks have moved it (for the trace's state events).
    package var tracedActivation: ActivationState = .unattached
    /// Signals asked for while the process was still being spawned, delivered once it is.
    package private(set) var signalsAwaitingSpawn: [Int32] = []
    /// The worker reported a change the app made and the host accepted it: the callbacks with
    /// origin `app` that follow belong to it, until the next reply, failure or change.
    package var appChangeOpen = false
    /// The host is killing it silently (a `terminate` of a worker that is not running):
    /// its `exited` event says so.
    package var killedSilently = false
    /// The open app change is a `present` in this style: its callbacks carry `op: "present"`
    /// in the trace, and the presented controller's `loadView` the style.
    package var appChangePresentStyle: PresentationStyle?
    /// The open app change is a tab switch to this tab: its callbacks carry `op: "selectTab"`
    /// and `tab` in the trace.
    package var appChangeTab: Int?
    /// The open app change is a pop to the controller at this index of the stack: its
    /// callbacks carry `op: "popToRoot"` (0), or `op: "popTo"` and the index as `value`.
    package var appChangePopTarget: Int?
    /// The open app change replaces the stack, keeping the controllers at these indices: its
    /// callbacks carry `op: "replaceStack"`.
    package var appChangeKept: [Int]?
    /// What the first `loadView` of the open stack replacement carries as `value` (the kept
    /// indices, and the new controllers when some load below the new top), until it comes.
    package var appChangeReplacementValue: JSONValue?
    /// Its stdout or stdin closed while it lived: the grace timer runs.
    package var closedPipe: SceneMachine.Pipe?
    /// The process carries the scenes of one app (`connect`'s `app`), this one among them: a
    /// disconnect may leave it running, and its stops, continues and death are the app's.
    package var isShared = false

    package init(argv: [String]) {
        self.argv = argv
    }

    package var pid: Int32? {
        if case .alive(let pid) = state { return pid }
        return nil
    }

    /// The spawn succeeded; returns the signals to deliver now.
    package mutating func spawned(pid: Int32) -> [Int32] {
        state = .alive(pid: pid)
        defer { signalsAwaitingSpawn = [] }
        return signalsAwaitingSpawn
    }

    /// Assigns the next request id and remembers the request until its answer.
    package mutating func register(_ name: String) -> Int {
        let id = nextRequestID
        nextRequestID += 1
        pending.append((id, name))
        return id
    }

    /// Takes the request `id` out of the pending set; nil if it is unknown.
    package mutating func answered(_ id: Int) -> String? {
        defer { if pending.isEmpty { requestStarted = false } }
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index).name
    }

    /// A callback of a pending request arrived: the worker has started carrying it out.
    /// Until then, a change the app made right after the previous reply may still arrive
    /// (the host can send the next request before it has read that change).
    package private(set) var requestStarted = false

    package mutating func requestCallbackArrived() {
        requestStarted = true
    }

    /// The scene joined its app's process, which said `ready` long ago: no handshake.
    package mutating func attachedToRunningProcess() {
        sawReady = true
        isShared = true
    }

    /// Another scene of the app's process killed it with `reason`: its death has that reason
    /// here too (unless this scene had one of its own).
    package mutating func adoptKillReason(_ reason: TerminationReason, onPurpose: Bool) {
        if killReason == nil { killReason = reason }
        if onPurpose { endsOnPurpose = true }
    }

    /// The first `ready`: true; a second one is a violation (false).
    package mutating func ready() -> Bool {
        defer { sawReady = true }
        return !sawReady
    }

    /// True the first time only; `message` is kept for the error its death gives.
    package mutating func violate(_ message: String) -> Bool {
        defer { violated = true }
        if !violated { violation = message }
        return !violated
    }

    /// What it broke first, if it broke the protocol.
    package private(set) var violation: String?

    /// Whether the signal must be sent now (false: deferred until spawned, or a SIGKILL
    /// already sent: one is enough).
    package mutating func kill(signal: Int32, reason: TerminationReason?) -> Bool {
        if let reason, killReason == nil { killReason = reason }
        if signal == SIGKILLNumber {
            guard !sentSIGKILL else { return false }
            sentSIGKILL = true
        }
        guard pid != nil else {
            signalsAwaitingSpawn.append(signal)
            return false
        }
        return true
    }

    private var sentSIGKILL = false

    /// Forgets the reason of a signal the worker survived.
    package mutating func withdrawKillReason() {
        killReason = nil
    }

    package mutating func expectCleanExit(_ reason: TerminationReason) {
        cleanExitReason = reason
    }

    /// Why the worker ended, given how it ended.
    package func reason(status: Int32?, signal: Int32?) -> TerminationReason {
        if let killReason { return killReason }
        if let cleanExitReason, status == 0 { return cleanExitReason }
        return .unrequested(signal: signal)
    }
}
