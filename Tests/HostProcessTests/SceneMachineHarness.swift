import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Drives a `SceneMachine` with no processes: a virtual clock fires its timers, spawns and
/// stores complete at once (unless told otherwise), and every action is kept for the test
/// to look at. The model check is off (`checksModel`) unless a test turns it on.
struct SceneMachineHarness {
    var machine: SceneMachine
    /// Every action, in order.
    var actions: [SceneMachine.Action] = []
    /// Virtual time since the start.
    var now: Duration = .zero
    var timers: [SceneMachine.Timer: (token: SceneMachine.TimerToken, at: Duration)] = [:]
    var outcomes: [SceneMachine.CallerID: Result<Void, HostError>] = [:]
    var nextCaller = 1
    var nextPid: Int32 = 100
    /// Complete spawns and stores at once.
    var autoSpawn = true
    var autoStore = true
    /// Report process-group stops as done at once.
    var autoStop = true
    /// What `probeExiting` answers: the worker has begun to exit.
    var workerIsExiting = false
    /// Fail the next store with this error.
    var failNextStore: HostError?
    /// Fail the next deletion of the session with this error.
    var failNextDelete: HostError?
    let start = ContinuousClock.now

    init(
        configure: (inout SceneMachine.Configuration) -> Void = { _ in },
        session: SceneSession? = nil
    ) {
        var configuration = SceneMachine.Configuration(HostConfiguration(worker: ["worker"]))
        configuration.suspendDelay = .milliseconds(50)
        configure(&configuration)
        machine = SceneMachine(id: "A", configuration: configuration, session: session, discardedAtLaunch: false)
        // Its scripted worker reports only the callbacks a test is about, not whole atoms of
        // the model (the model's own tests and the real workers' cover those).
        machine.checksModel = false
    }

    // MARK: Feeding events

    mutating func apply(_ produced: [SceneMachine.Action]) {
        var followUps: [(inout SceneMachine) -> [SceneMachine.Action]] = []
        for action in produced {
            actions.append(action)
            switch action {
            case .armTimer(let token, let delay):
                timers[token.timer] = (token, now + delay)
            case .cancelTimer(let token):
                if timers[token.timer]?.token == token { timers[token.timer] = nil }
            case .resume(let caller, let result):
                // A recorded failure, not a trap: one broken test must not end the whole run.
                if outcomes[caller] != nil { Issue.record("caller \(caller) resumed twice") }
                outcomes[caller] = result
            case .spawn:
                if autoSpawn {
                    let pid = nextPid
                    nextPid += 1
                    followUps.append { $0.spawnCompleted(pid: pid) }
                }
            case .stopProcessGroup:
                if autoStop { followUps.append { $0.stopCompleted(pid: $0.worker?.pid ?? -1) } }
            case .probeExiting:
                let exiting = workerIsExiting
                followUps.append { $0.exitProbed(exiting: exiting) }
            case .deleteSession:
                if let failure = failNextDelete {
                    failNextDelete = nil
                    followUps.append { $0.storeFailed(failure) }
                } else {
                    followUps.append { $0.storeCompleted() }
                }
            case .storeSession:
                if let failure = failNextStore {
                    failNextStore = nil
                    followUps.append { $0.storeFailed(failure) }
                } else if autoStore {
                    followUps.append { $0.storeCompleted() }
                }
            default:
                break
            }
        }
        for followUp in followUps { apply(followUp(&machine)) }
    }

    mutating func feed(_ event: (inout SceneMachine) -> [SceneMachine.Action]) {
        apply(event(&machine))
    }

    /// Sends `op`; returns the caller id whose outcome lands in `outcomes`.
    @discardableResult
    mutating func request(_ op: SceneOperation, askedAfterTerminations: Int? = nil) -> SceneMachine.CallerID {
        let caller = nextCaller
        nextCaller += 1
        feed { $0.request(op, caller: caller, askedAfterTerminations: askedAfterTerminations) }
        return caller
    }

    @discardableResult
    mutating func waitFor(
        _ what: String,
        timeout: Duration?,
        _ predicate: @escaping @Sendable (SceneStatus) -> Bool
    )
        -> SceneMachine.CallerID
    {
        let caller = nextCaller
        nextCaller += 1
        feed { $0.wait(caller: caller, what: what, timeout: timeout, predicate) }
        return caller
    }

    /// The requests written to the worker and not answered yet, oldest first.
    var pendingRequests: [(id: Int, op: WorkerOperation)] {
        guard let worker = machine.worker else { return [] }
        var written: [(Int, WorkerOperation)] = []
        for action in actions {
            guard case .write(let commands) = action else { continue }
            for command in commands {
                if case .request(let id, let op) = command, worker.pending.contains(where: { $0.id == id }) {
                    written.append((id, op))
                }
            }
        }
        return written
    }

    /// Replies to the oldest pending request, after running `callbacks` for it.
    mutating func reply(callbacks: [CallbackName] = [], result: JSONValue? = nil) {
        for callback in callbacks { feed { $0.received(.callback(CallbackEvent(callback))) } }
        guard let request = pendingRequests.first else {
            Issue.record("no request to reply to")
            return
        }
        feed { $0.received(.reply(id: request.id, result: result)) }
    }

    mutating func ready() {
        feed { $0.received(.ready(protocolVersion: ProtocolVersion.current, pid: 0)) }
    }

    mutating func exit(_ exit: ChildExit) {
        let instant = start + now
        feed { $0.processExited(exit, now: instant) }
    }

    /// Moves the virtual clock, firing due timers in deadline order.
    mutating func advance(by duration: Duration) {
        let end = now + duration
        while let (timer, entry) = timers.filter({ $0.value.at <= end }).min(by: { $0.value.at < $1.value.at }) {
            timers[timer] = nil
            now = max(now, entry.at)
            let instant = start + now
            feed { $0.timerFired(entry.token, now: instant) }
        }
        now = end
    }

    /// Connects the scene with a healthy worker (ready, connect's callbacks, reply).
    mutating func connect(background: Bool = false) {
        let caller = request(.connect(background: background))
        ready()
        reply(
            callbacks: background
                ? [.willFinishLaunching, .didFinishLaunching, .willConnectTo]
                : [
                    .willFinishLaunching, .didFinishLaunching, .willConnectTo, .sceneWillEnterForeground,
                    .sceneDidBecomeActive,
                ]
        )
        if outcomes[caller].map({ (try? $0.get()) != nil }) != true { Issue.record("connect did not complete") }
    }

    // MARK: Looking at actions

    func count(where predicate: (SceneMachine.Action) -> Bool) -> Int {
        actions.filter(predicate).count
    }

    var signals: [Int32] {
        actions.compactMap { if case .signal(let number) = $0 { number } else { nil } }
    }

    var processGroupSignals: [Int32] {
        actions.compactMap { if case .signalProcessGroup(let number) = $0 { number } else { nil } }
    }

    var stops: Int { count { if case .stopProcessGroup = $0 { true } else { false } } }

    /// The events recorded (`record` actions) that `predicate` picks, in order.
    func recorded(where predicate: (TraceEvent) -> Bool) -> [TraceEvent] {
        actions.compactMap { action in
            guard case .record(let event) = action, predicate(event) else { return nil }
            return event
        }
    }

    /// The host's own events the machine's model check refused.
    var hostDefects: [LifecycleViolation] {
        actions.compactMap {
            if case .hostDefect(let violation) = $0 { return violation }
            return nil
        }
    }

    var spawns: Int { count { if case .spawn = $0 { true } else { false } } }

    var recorded: [TraceEvent] {
        actions.compactMap {
            switch $0 {
            case .record(let event): event
            default: nil
            }
        }
    }

    func succeeded(_ caller: SceneMachine.CallerID) -> Bool {
        if case .success = outcomes[caller] { return true }
        return false
    }

    func error(of caller: SceneMachine.CallerID) -> HostError? {
        if case .failure(let error) = outcomes[caller] { return error }
        return nil
    }
}
