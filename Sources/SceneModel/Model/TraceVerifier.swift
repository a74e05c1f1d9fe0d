import Protocol

/// Checks a whole trace, one event at a time: `seq` 1, 2, 3, … with no gap (the host numbers
/// every event it records, and each trace it writes or streams holds all of them from its
/// start, so a gap is a lost event), and each scene's events against its own `SceneTraceChecker` (scenes interleave
/// freely). `error` events take part in the `seq` order and nothing else; so do `host`
/// events, except that the host's `stopped` comes after the exit of every worker it spawned
/// (and the state event each exit owes), and nothing comes after it.
public struct TraceVerifier: Sendable {
    /// The `seq` of the last accepted event; 0 before the first.
    private var lastSeq = 0
    /// The `t` of the last accepted event.
    private var lastTime = 0.0
    /// Each scene's checker, in the order the scenes first appeared.
    private var checkers: [SceneTraceChecker] = []
    private var checkerIndex: [String: Int] = [:]
    /// The scene of the last scene event and its checker's index: a scene's events come in
    /// runs (a transition's callbacks), and comparing a name costs less than hashing it.
    private var lastScene: (name: String, index: Int)?
    /// Events accepted so far.
    public private(set) var eventCount = 0
    /// Whether the host's `stopped` was accepted: nothing may follow it.
    private var hostStopped = false
    /// A host event `memoryPressure` or `memoryLimitExceeded` was accepted: from then on a
    /// worker may exit with reason `jetsam`.
    private var sawMemoryPressure = false
    /// The processes an app's scenes share, as far as the trace said.
    private var processes = TracedProcesses()

    public init() {}

    /// Checks `event`. Returns nil when accepted, else the violation; on a violation
    /// nothing changes, so a caller may report it and go on (after `skip(through:)` the
    /// refused event's seq, which the next event follows).
    public mutating func check(_ event: TraceEvent) -> LifecycleViolation? {
        check(event, callback: nil)
    }

    /// `check(_:)` for a callback event whose name its maker already holds as a
    /// `CallbackName` (`callback`, which must be the one `event.name` names): the checker
    /// then does not look the name up again.
    package mutating func check(_ event: TraceEvent, callback: CallbackName?) -> LifecycleViolation? {
        // No gap: a trace file holds every event the host numbered, and a stream that fell
        // behind is ended, not continued past what it missed (CONTROL.md), so a missing seq
        // is an event lost, whose effect on its scene the checker cannot know.
        if event.seq != lastSeq + 1 {
            let expected = lastSeq == 0 ? "seq 1 (the first event)" : "seq \(lastSeq + 1) (the one after \(lastSeq))"
            return LifecycleViolation(
                seq: event.seq,
                scene: event.scene,
                expected: expected,
                got: "seq \(event.seq) (\(event.violationSummary))"
            )
        }
        if hostStopped {
            return LifecycleViolation(
                seq: event.seq,
                scene: event.scene,
                expected: "no event after host stopped",
                got: event.violationSummary
            )
        }
        if event.time < lastTime || !event.time.isFinite {
            return LifecycleViolation(
                seq: event.seq,
                scene: event.scene,
                expected: "t of at least \(lastTime) (a monotonic clock)",
                got: "t \(event.time)"
            )
        }
        switch event.kind {
        case .host:
            if event.name == "memoryPressure" || event.name == "memoryLimitExceeded" {
                sawMemoryPressure = true
            }
            if event.name == "stopped" {
                if let violation = workerOutliving(event) { return violation }
                hostStopped = true
            }
            // A tab bar the app made while connecting belongs to its scene's model.
            if event.name == TraceEvent.tabBarName {
                guard let scene = event.scene, let index = index(ofScene: scene) else {
                    return LifecycleViolation(
                        seq: event.seq,
                        scene: event.scene,
                        expected: "a host event tabBar names a connecting scene",
                        got: event.violationSummary
                    )
                }
                if let violation = checkers[index].check(event, callback: nil) { return violation }
            }
        case .error:
            break
        case .callback, .state, .process:
            guard let scene = event.scene else {
                return LifecycleViolation(
                    seq: event.seq,
                    scene: nil,
                    expected: "a `scene` field on a \(event.kind) event",
                    got: event.violationSummary
                )
            }
            if event.kind == .process, let pid = event.pid, pid <= 0 {
                return LifecycleViolation(
                    seq: event.seq,
                    scene: scene,
                    expected: "a positive `pid` on a process event",
                    got: event.violationSummary
                )
            }
            // The host kills for memory only while relieving pressure it recorded first.
            if event.kind == .process, event.reason == .jetsam, !sawMemoryPressure {
                return LifecycleViolation(
                    seq: event.seq,
                    scene: scene,
                    expected:
                        "a host event memoryPressure or memoryLimitExceeded before process exited (reason jetsam)",
                    got: event.violationSummary
                )
            }
            if event.kind == .process,
                let expected = processes.refusal(
                    of: event,
                    scene: scene,
                    activation: { other in
                        checkerIndex[other].map { checkers[$0].activation }
                    }
                )
            {
                return LifecycleViolation(seq: event.seq, scene: scene, expected: expected, got: event.violationSummary)
            }
            if let index = index(ofScene: scene) {
                // Mutate in place: no copy of the checker per event.
                if let violation = checkers[index].check(event, callback: callback) { return violation }
            } else {
                // Checked once per scene: a host names scenes only as sessions may be named.
                guard SceneSession.isValidIdentifier(scene) else {
                    return LifecycleViolation(
                        seq: event.seq,
                        scene: scene,
                        expected: "a scene identifier of 1-64 characters from A-Z a-z 0-9 . _ - not starting with '.'",
                        got: "scene \(quoted(scene))"
                    )
                }
                var checker = SceneTraceChecker()
                if let violation = checker.check(event, callback: callback) { return violation }
                checkerIndex[scene] = checkers.count
                lastScene = (scene, checkers.count)
                checkers.append(checker)
            }
            if event.kind == .process { processes.apply(event, scene: scene) }
        }
        lastSeq = event.seq
        lastTime = event.time
        eventCount += 1
        return nil
    }

    /// Takes the events up to `seq` as seen, unchecked: for a caller that reports a violation
    /// and goes on (the stress audit). The event refused, or events lost and reported, still
    /// had their seq; without this each later event would be reported as a gap too.
    package mutating func skip(through seq: Int) {
        if seq > lastSeq {
            lastSeq = seq
            processes.isComplete = false
        }
    }

    private mutating func index(ofScene scene: String) -> Int? {
        if let lastScene, lastScene.name == scene { return lastScene.index }
        guard let index = checkerIndex[scene] else { return nil }
        lastScene = (scene, index)
        return index
    }

    /// A worker spawned and not exited when the host says it `stopped` (the host waits for
    /// every worker's death before it stops, so a trace without the exit lost it), or an exit
    /// whose state event to `unattached` is missing.
    private func workerOutliving(_ stopped: TraceEvent) -> LifecycleViolation? {
        for (scene, index) in checkerIndex.sorted(by: { $0.key < $1.key }) {
            let checker = checkers[index]
            switch checker.processState {
            case .launching, .running, .suspended:
                return LifecycleViolation(
                    seq: stopped.seq,
                    scene: scene,
                    expected: "process exited (the worker is \(checker.processState)) before host stopped",
                    got: stopped.violationSummary
                )
            case .none, .terminated:
                // The host writes the state event an exit owes before anything else of the scene.
                guard checker.activation == .unattached else {
                    return LifecycleViolation(
                        seq: stopped.seq,
                        scene: scene,
                        expected: ExpectedStep.state(from: checker.activation, to: .unattached)
                            .summary(stack: checker.stack) + " (owed since the exit) before host stopped",
                        got: stopped.violationSummary
                    )
                }
            }
        }
        return nil
    }

    /// The model's view of `scene` as the accepted events left it; nil if no callback,
    /// state or process event of it was accepted.
    public func checker(forScene scene: String) -> SceneTraceChecker? {
        checkerIndex[scene].map { checkers[$0] }
    }
}
