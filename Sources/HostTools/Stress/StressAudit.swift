import HostProcess
import Protocol
import SceneModel

/// The checks a stress run makes over the whole trace once the host has quit.
///
/// - the trace verifies against the lifecycle model (`TraceVerifier`), and the live checker
///   rejected no worker event (`error` events with op `protocol`);
/// - every refusal (`error` event, code `illegal-transition`) came between transitions of its
///   scene, the model agrees that the operation was illegal there, and replaying the refusal
///   leaves the scene's model state as it was;
/// - no refused request left a mark: pushed controllers and notification values name their
///   request, so a refused push or notify that ran anyway is caught exactly; for connect,
///   disconnect, resize, memory warnings and background tasks the trace holds at least one
///   atom per accepted request and at most one per accepted or failed request; the trace
///   holds exactly one refusal per refused request;
/// - a refusal left the host's timers alone: the events they owe (a suspension, a
///   background task's expiration and kill) come in time after it (`TimerAudit`);
/// - a refused request changed nothing its client saw: the scene's status right before and
///   right after it is the same, unless something else of the scene happened in between;
/// - no worker crashed, broke the protocol or hit a watchdog.
package struct StressAudit: Sendable {
    package struct Request: Sendable {
        package var scene: String
        package var op: SceneOperation
        package var outcome: RequestOutcome
        /// Trace times: when the client sent it and when it was answered (nil: unknown).
        package var sent: Double? = nil
        package var completed: Double? = nil

        package init(
            scene: String,
            op: SceneOperation,
            outcome: RequestOutcome,
            sent: Double? = nil,
            completed: Double? = nil
        ) {
            self.scene = scene
            self.op = op
            self.outcome = outcome
            self.sent = sent
            self.completed = completed
        }
    }

    /// A refused request around which the client saw the scene's status differ.
    package struct StatusChange: Sendable {
        package var id: Int
        /// Trace times: before the first status was read, after the second was.
        package var start: Double
        package var end: Double
        package var before: SceneStatus
        package var after: SceneStatus

        package init(
            id: Int,
            start: Double,
            end: Double,
            before: SceneStatus,
            after: SceneStatus
        ) {
            self.id = id
            self.start = start
            self.end = end
            self.before = before
            self.after = after
        }
    }

    /// Per scene: what the trace shows.
    private struct TraceTally: Sendable {
        package var atoms: [LifecycleOperation: Int] = [:]
        package var refusals: [String: Int] = [:]
        /// URLs, activities, quick actions and tapped notifications delivered (one to a scene
        /// without a worker spawns it instead).
        package var deliveries = 0
        /// Between a launch's first callback and its first activation or background entry.
        package var launching = false
        package var lastCallback: String?
    }

    /// A request as the checks at the end see it.
    private struct RequestRecord: Sendable {
        package enum Outcome: UInt8, Sendable {
            case accepted, refused, failed
        }

        package var kind: LifecycleOperation
        package var outcome: Outcome
        package var scene: Int32
    }

    /// Per scene and operation: how the requests ended.
    private struct RequestTally: Sendable {
        package var accepted = 0
        package var refused = 0
        package var failed = 0
    }

    /// A request's mark in the trace (a controller it pushed, a value it notified).
    private struct Mark: Sendable {
        package var scene: String
        package var seq: Int
        package var count = 1
    }

    /// What the checks at the end need of each request, indexed by id (nil for kills): a few
    /// bytes each, not the request. Added round by round (`add(requests:)`).
    private var records: [RequestRecord?] = []
    /// The scenes requests went to, by the index records use.
    private var sceneNames: [String] = []
    private var sceneIndex: [String: Int32] = [:]
    /// Per scene and operation name: how the requests ended.
    private var requestTallies: [String: [String: RequestTally]] = [:]
    /// The requests added so far (the next one's id).
    package var requestCount: Int { records.count }
    package let log: ViolationLog
    /// The host's delays; nil: timers are not checked.
    package let timing: TimerAudit.Timing?
    /// For `run()`: a whole recorded run at once.
    private let history: [TraceEvent]
    private let statusChanges: [StatusChange]

    /// Every pid the trace shows spawned, in order, and those whose exit it shows.
    package private(set) var spawned: [Int32] = []
    package private(set) var exited: Set<Int32> = []
    /// The scene each pid was spawned for.
    private var spawnedScenes: [Int32: String] = [:]
    /// The scenes in a process they share with their app's others (LIFECYCLE.md §4a): their
    /// suspension waits for every scene of the app, which the timer audit cannot see.
    private var scenesInAppProcesses: Set<String> = []
    /// Quiet stretches after a refusal that lasted until a timer was due and ended with its event.
    package private(set) var timersKept = 0
    /// The windows the apps opened and closed themselves.
    package private(set) var windows = AppWindowAudit()
    /// Workers spawned for scenes no request went to: windows the apps opened.
    package private(set) var appScenePids: Set<Int32> = []
    package var appSceneSpawns: Int { appScenePids.count }
    /// Events fed so far, and the `seq` the next one must have.
    package private(set) var eventCount = 0
    package private(set) var nextSeq = 1

    // What the events fed so far showed.
    private var verifier = TraceVerifier()
    private var traceTallies: [String: TraceTally] = [:]
    private var pushes: [Int: Mark] = [:]
    private var presents: [Int: Mark] = [:]
    private var children: [Int: Mark] = [:]
    private var notifications: [Int: Mark] = [:]
    private var quitting = false
    private var activity = SceneActivity()
    private var timers: TimerAudit?

    /// An audit fed as the run goes: `add(requests:)` once a round's requests were all
    /// answered, then `feed` with the events recorded meanwhile, in trace order, and at the end
    /// `finish`. Only tallies and times are kept: never the events.
    package init(log: ViolationLog, timing: TimerAudit.Timing? = nil) {
        self.init(history: [], requests: [], log: log, timing: timing)
    }

    /// An audit of a whole recorded run, carried out by `run()`.
    package init(
        history: [TraceEvent],
        requests: [Request?],
        log: ViolationLog,
        timing: TimerAudit.Timing? = nil,
        statusChanges: [StatusChange] = []
    ) {
        self.history = history
        self.pendingRequests = requests
        self.log = log
        self.timing = timing
        self.statusChanges = statusChanges
        self.timers = timing.map { TimerAudit(timing: $0, log: log) }
    }

    private var pendingRequests: [Request?]

    /// The operations whose atoms are counted against their requests, by the callback that
    /// starts the atom, and whether an accepted request must have left its atom (a
    /// disconnect's clean exit can be pre-empted by a kill from outside).
    private static let countedAtoms: [(op: LifecycleOperation, mustAppear: Bool)] = [
        (.connect, true), (.disconnect, false), (.resize, true), (.memoryWarning, true),
        (.beginBackgroundTask, true), (.endBackgroundTask, true),
    ]

    /// Audits the whole run given to `init(history:requests:…)`.
    package mutating func run() {
        add(requests: pendingRequests)
        pendingRequests = []
        for event in history { feed(event) }
        finish(statusChanges: statusChanges)
    }

    /// The next requests, by id (the first has id `requests.count`), all answered (or never
    /// to be): before the events recorded while they were under way.
    package mutating func add(requests new: [Request?]) {
        var spans: [String: [SceneActivity.Span]] = [:]
        var refused: [SceneActivity.RefusedSpan] = []
        records.reserveCapacity(records.count + new.count)
        for request in new {
            guard let request else {
                records.append(nil)
                continue
            }
            let outcome: RequestRecord.Outcome
            var tally = requestTallies[request.scene, default: [:]][request.op.name, default: RequestTally()]
            switch request.outcome {
            case .accepted:
                outcome = .accepted
                tally.accepted += 1
            case .refused:
                outcome = .refused
                tally.refused += 1
            case .failed, .pending, .unexpected:
                outcome = .failed
                tally.failed += 1
            }
            requestTallies[request.scene, default: [:]][request.op.name] = tally
            let scene: Int32
            if let index = sceneIndex[request.scene] {
                scene = index
            } else {
                scene = Int32(sceneNames.count)
                sceneIndex[request.scene] = scene
                sceneNames.append(request.scene)
            }
            records.append(RequestRecord(kind: request.op.kind, outcome: outcome, scene: scene))
            guard let sent = request.sent else { continue }
            let span = (sent: sent, completed: request.completed ?? .infinity)
            if request.outcome == .refused {
                refused.append((span.sent, span.completed, request.scene))
            } else {
                spans[request.scene, default: []].append(span)
            }
        }
        activity.add(spans: spans, refused: refused)
    }

    /// Events before `seq` were lost (the host's history dropped them before the audit read
    /// them), which the caller reported: the trace check goes on from `seq` without
    /// reporting the gap again at each later event.
    package mutating func skipLostEvents(before seq: Int) {
        nextSeq = max(nextSeq, seq)
    }

    /// The next event of the trace.
    package mutating func feed(_ event: TraceEvent) {
        // Every event before this one was seen (a refused one too, reported already), so the
        // verifier checks only that this one follows it.
        verifier.skip(through: nextSeq - 1)
        eventCount += 1
        nextSeq = event.seq + 1
        activity.feed(event)
        if event.kind == .host && event.name == "quit" {
            quitting = true
            timers?.quit(event, activity: activity)
        }
        if event.kind == .error, let scene = event.scene {
            if !quitting, SceneActivity.isRefusal(event), let op = event.op,
                let checker = verifier.checker(forScene: scene), !checker.isInsideAtom
            {
                if !scenesInAppProcesses.contains(scene) {
                    timers?.refusal(event, scene: scene, op: op, snapshot: checker.snapshot)
                }
            } else {
                timers?.event(event, scene: scene, activity: activity)
            }
            checkError(
                event,
                scene: scene,
                verifier: &verifier,
                counted: !quitting,
                tally: &traceTallies[scene, default: TraceTally()],
                windows: &windows
            )
            return
        }
        if let scene = event.scene { timers?.event(event, scene: scene, activity: activity) }
        if let violation = verifier.check(event) {
            log.record("trace: \(violation)")
            return
        }
        guard let scene = event.scene else { return }
        switch event.kind {
        case .host:
            _ = windows.hostEvent(event, scene: scene)
        case .process:
            var tally = traceTallies[scene] ?? TraceTally()
            processEvent(event, scene: scene, tally: &tally)
            traceTallies[scene] = tally
        case .callback:
            // The app's own changes (origin app: a restored stack's loads, say) answer no request.
            guard let name = event.name, event.origin == nil else { return }
            var tally = traceTallies[scene, default: TraceTally()]
            switch name {
            case CallbackName.loadView.rawValue:
                if let id = Self.requestID(event.viewController, prefix: "V") {
                    pushes[id, default: Mark(scene: scene, seq: event.seq, count: 0)].count += 1
                } else if let id = Self.requestID(event.viewController, prefix: "M") {
                    presents[id, default: Mark(scene: scene, seq: event.seq, count: 0)].count += 1
                } else if let id = Self.requestID(event.viewController, prefix: "C") {
                    children[id, default: Mark(scene: scene, seq: event.seq, count: 0)].count += 1
                }
            case CallbackName.didReceiveNotification.rawValue:
                windows.notification(event, scene: scene)
                if case .int(let id)? = event.value {
                    notifications[id, default: Mark(scene: scene, seq: event.seq, count: 0)].count += 1
                }
            case CallbackName.applicationDidReceiveMemoryWarning.rawValue:
                tally.atoms[.memoryWarning, default: 0] += 1
            case CallbackName.beginBackgroundTask.rawValue:
                tally.atoms[.beginBackgroundTask, default: 0] += 1
            case CallbackName.endBackgroundTask.rawValue:
                tally.atoms[.endBackgroundTask, default: 0] += 1
            case CallbackName.openURLContexts.rawValue, CallbackName.continueUserActivity.rawValue,
                CallbackName.performActionFor.rawValue, CallbackName.userNotificationCenterDidReceive.rawValue:
                // A tapped notification that launched the scene reaches it inside the launch: that
                // request is counted by the launch.
                if !tally.launching { tally.deliveries += 1 }
            case CallbackName.willFinishLaunching.rawValue:
                tally.launching = true
            case CallbackName.sceneDidBecomeActive.rawValue, CallbackName.sceneDidEnterBackground.rawValue,
                CallbackName.applicationDidBecomeActive.rawValue, CallbackName.applicationDidEnterBackground.rawValue:
                tally.launching = false
            case CallbackName.viewWillTransition.rawValue:
                if tally.lastCallback != name { tally.atoms[.resize, default: 0] += 1 }
            default:
                break
            }
            tally.lastCallback = name
            traceTallies[scene] = tally
        case .state, .error:
            break
        }
    }

    /// Checks status changes its clients saw around refused requests, once the events
    /// recorded until the last of them were fed.
    package func check(statusChanges: [StatusChange]) {
        checkStatusChanges(activity, statusChanges)
    }

    /// The checks over the whole run, once every request was added and every event fed
    /// (`statusChanges`: those not checked yet).
    package mutating func finish(statusChanges: [StatusChange]) {
        checkMarks(pushes, kind: .push, callback: "loadView")
        checkMarks(presents, kind: .present, callback: "loadView")
        checkMarks(children, kind: .addChild, callback: "loadView")
        checkMarks(notifications, kind: .notify, callback: "didReceiveNotification")
        checkCounts(traceTallies)
        windows.check(log)
        for (pid, scene) in spawnedScenes where sceneIndex[scene] == nil { appScenePids.insert(pid) }
        checkStatusChanges(activity, statusChanges)
        timers?.reportStalls()
        timersKept = timers?.kept ?? 0
    }

    /// A status that differs around a refused request, with nothing else of the scene in
    /// between (no other event, no request that may have been carried out meanwhile): the
    /// refusal changed it.
    private func checkStatusChanges(_ activity: SceneActivity, _ statusChanges: [StatusChange]) {
        for change in statusChanges {
            let scene = change.before.scene
            // A microsecond either side: the trace's times are rounded to it.
            let since = change.start - 1e-6
            let until = change.end + 1e-6
            guard !activity.eventOverlaps(scene: scene, since: since, until: until),
                !activity.requestOverlaps(scene: scene, since: since, until: until)
            else { continue }
            let op = change.id < records.count ? records[change.id]?.kind.rawValue ?? "?" : "?"
            log.record(
                "scene \(scene): request #\(change.id) (\(op)) was refused, yet the scene's status changed with"
                    + " nothing else going on: \(Self.describe(change.before)) before, \(Self.describe(change.after)) after"
            )
        }
    }

    /// The scene requests an app makes (§3c), by their names in the trace.
    private static let appSceneRequests: Set<String> = [
        AppChange.requestSceneSessionActivation(session: nil, activityType: nil, userInfo: nil).name,
        AppChange.requestSceneSessionDestruction(session: "").name,
    ]

    private static func describe(_ status: SceneStatus) -> String {
        "\(status.activation)/\(status.process) pid \(status.pid.map(String.init) ?? "-") stack \(status.stack)"
            + " task \(status.hasBackgroundTask) discarded \(status.isDiscarded)"
            + " lastExit \(status.lastExit.map { "\($0)" } ?? "-")"
    }

    // MARK: Events

    private mutating func processEvent(_ event: TraceEvent, scene: String, tally: inout TraceTally) {
        guard let pid = event.pid else { return }
        switch event.processEvent {
        case .spawned:
            spawned.append(pid)
            spawnedScenes[pid] = scene
            tally.atoms[.connect, default: 0] += 1
            if event.app != nil { scenesInAppProcesses.insert(scene) } else { scenesInAppProcesses.remove(scene) }
        case .attached:
            // A connect in the app's running process: no spawn, no launch callbacks.
            tally.atoms[.connect, default: 0] += 1
            tally.launching = true
            scenesInAppProcesses.insert(scene)
        case .exited:
            exited.insert(pid)
            scenesInAppProcesses.remove(scene)
            switch event.reason {
            case .disconnected:
                tally.atoms[.disconnect, default: 0] += 1
            case .crashed, .protocolViolation, .watchdog, .terminateTimeout:
                let how = event.signal.map { "signal \($0)" } ?? event.status.map { "status \($0)" } ?? "?"
                log.record(
                    "seq \(event.seq), scene \(scene): worker \(pid) exited with reason \(event.reason?.rawValue ?? "?") (\(how))"
                )
            default:
                break
            }
        case .detached:
            scenesInAppProcesses.remove(scene)
            // The scene left its app's process, which the trace follows no further: a process
            // with no scene in it ends unseen (at the host's quit, once a push it was
            // launched for is handled, c20, or reclaimed past `maximumIdleAppProcesses`).
            exited.insert(pid)
        default:
            break
        }
    }

    /// An `error` event: a rejected worker event, a worker's own error, or a refusal.
    private func checkError(
        _ event: TraceEvent,
        scene: String,
        verifier: inout TraceVerifier,
        counted: Bool,
        tally: inout TraceTally,
        windows: inout AppWindowAudit
    ) {
        let place = "seq \(event.seq), scene \(scene)"
        let message = event.message ?? ""
        switch event.op {
        case "protocol":
            log.record("\(place): the host rejected the worker's event: \(message)")
        case "worker":
            log.record("\(place): the worker reported an error: \(message)")
        case let op? where event.code == ProtocolError.Code.illegalTransition.rawValue:
            let before = verifier.checker(forScene: scene) ?? SceneTraceChecker()
            if before.isInsideAtom {
                log.record("\(place): \(op) was refused in the middle of a transition of the scene")
            }
            let snapshot = before.snapshot
            // A child's name is a parameter: judged with it (the refusal's `vc`).
            let operation = LifecycleOperation(rawValue: op)
            let refusal: LifecycleRefusal? =
                if let operation, let child = event.viewController {
                    LifecycleOperation.containmentRefusal(operation, child: child, in: snapshot)
                } else {
                    operation?.refusal(in: snapshot)
                }
            // A silent push for an app the user ended is refused until the user opens it again
            // (c20): the trace cannot tell a terminate of the user's from the host's quit.
            let userMayHaveEndedApp = operation == .remoteNotification && !snapshot.process.isAlive
            if operation != nil, refusal == nil, !userMayHaveEndedApp {
                log.record(
                    "\(place): \(op) was refused (\(message)) but the model allows it"
                        + " (scene \(snapshot.activation), worker \(snapshot.process), stack \(before.stack))"
                )
            }
            if let violation = verifier.check(event) {
                log.record("trace: \(violation)")
            } else if verifier.checker(forScene: scene) ?? SceneTraceChecker() != before {
                log.record("\(place): the refused \(op) changed the scene's model state")
            }
            // The host refused an app's request for a window past its limit: the app's, not a client's.
            if counted, !windows.refusal(op: op, scene: scene) { tally.refusals[op, default: 0] += 1 }
            return
        case let op? where Self.appSceneRequests.contains(op):
            // The host's other refusals of an app's scene request (its line full, the host
            // quitting) are recorded in the asking scene's turn too (LIFECYCLE.md §3c).
            if verifier.checker(forScene: scene)?.isInsideAtom == true {
                log.record("\(place): \(op) was refused in the middle of a transition of the scene")
            }
        default:
            break
        }
        if let violation = verifier.check(event) { log.record("trace: \(violation)") }
    }

    // MARK: Requests against the trace

    /// Marks (pushed controllers, notified values) against the requests they name.
    private func checkMarks(_ marks: [Int: Mark], kind: LifecycleOperation, callback: String) {
        for (id, mark) in marks.sorted(by: { $0.key < $1.key }) {
            let place = "seq \(mark.seq), scene \(mark.scene)"
            guard id >= 0, id < records.count, let request = records[id], request.kind == kind,
                sceneNames[Int(request.scene)] == mark.scene
            else {
                log.record("\(place): \(callback) names request #\(id), which is no \(kind) of this scene")
                continue
            }
            if request.outcome == .refused {
                log.record("\(place): request #\(id) (\(kind)) was refused, yet its \(callback) ran")
            } else if mark.count > 1 {
                log.record("\(place): request #\(id) (\(kind)) ran \(mark.count) times")
            }
        }
        guard kind == .push || kind == .present || kind == .addChild else { return }
        // A push's (present's, added child's) reply comes after its callbacks: an accepted one must have run.
        for (id, request) in records.enumerated() {
            guard let request, request.kind == kind, request.outcome == .accepted, marks[id] == nil else { continue }
            log.record(
                "scene \(sceneNames[Int(request.scene)]): request #\(id) (\(kind)) was accepted but its \(callback) never ran"
            )
        }
    }

    /// The operations that launch a scene with no worker, or deliver their callback to it.
    private static let deliveryOperations: [LifecycleOperation] = [
        .openURL, .continueUserActivity, .quickAction, .openNotification,
    ]

    /// Atoms and refusals per scene against the requests' outcomes.
    private func checkCounts(_ traceTallies: [String: TraceTally]) {
        let scenes = Set(requestTallies.keys).union(traceTallies.keys).sorted()
        for scene in scenes {
            let trace = traceTallies[scene] ?? TraceTally()
            let requested = requestTallies[scene] ?? [:]
            let target = windows.targets[scene] ?? AppWindowAudit.Target()
            for (op, mustAppear) in Self.countedAtoms {
                var atoms = trace.atoms[op] ?? 0
                let tally = requested[op.rawValue] ?? RequestTally()
                var accepted = tally.accepted
                var allowed = tally.accepted + tally.failed
                var also = ""
                switch op {
                case .connect:
                    // What the system hands a scene (a URL, an activity, a quick action, a tapped
                    // notification) spawns it (no live worker) or is delivered, and an app's
                    // window request spawns or delivers its activity.
                    var handed = RequestTally()
                    for delivery in Self.deliveryOperations {
                        let tally = requested[delivery.rawValue] ?? RequestTally()
                        handed.accepted += tally.accepted
                        handed.failed += tally.failed
                    }
                    atoms += trace.deliveries
                    accepted += handed.accepted
                    // A silent push launches a scene's app that does not run (c20), with no scene.
                    let pushes = requested[LifecycleOperation.remoteNotification.rawValue] ?? RequestTally()
                    allowed += handed.accepted + handed.failed + target.activations + pushes.accepted + pushes.failed
                    also =
                        " (with \(trace.deliveries) deliveries; \(handed.accepted) accepted and \(handed.failed)"
                        + " failed openURL, continueUserActivity, quickAction or openNotification, "
                        + "\(target.activations) app window requests)"
                case .disconnect:
                    // An app's request to close the window ends its worker cleanly.
                    allowed += target.destructions
                    also = " (and \(target.destructions) app requests to close the window)"
                default:
                    break
                }
                if atoms > allowed {
                    log.record(
                        "scene \(scene): \(atoms) \(op) transitions in the trace for \(tally.accepted) accepted and"
                            + " \(tally.failed) failed \(op) requests\(also) (a refused request ran?)"
                    )
                } else if mustAppear && atoms < accepted {
                    log.record(
                        "scene \(scene): \(tally.accepted) accepted \(op) requests but \(atoms) \(op) transitions"
                            + " in the trace\(also)"
                    )
                }
            }
            for op in Set(trace.refusals.keys).union(requested.keys).sorted() {
                let recorded = trace.refusals[op] ?? 0
                let refused = requested[op]?.refused ?? 0
                // The host refuses an app's window request as it would a client's.
                let byApps = windows.refusalAllowance(op, scene: scene)
                if recorded < refused || recorded > refused + byApps {
                    log.record(
                        "scene \(scene): \(refused) \(op) requests refused but \(recorded) refusals in the trace"
                            + (byApps > 0 ? " (and \(byApps) app window requests)" : "")
                    )
                }
            }
        }
    }

    /// `V42` → 42 (with `prefix` "V").
    private static func requestID(_ name: String?, prefix: Character) -> Int? {
        guard let name, name.first == prefix else { return nil }
        return Int(name.dropFirst())
    }
}
