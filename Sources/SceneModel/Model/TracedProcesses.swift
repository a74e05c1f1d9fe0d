import Protocol

/// What a trace says of the processes an app's scenes share (`connect`'s `app`, LIFECYCLE.md
/// §4a), for what no scene's own checker can see: a scene attaches only to a live process a
/// scene of the trace spawned, and a process is recorded suspended only while every other
/// scene in it is in the background.
struct TracedProcesses: Sendable {
    /// The live processes the trace spawned, each with the scenes in it now (a process whose
    /// scenes all left runs on, with none).
    private var scenes: [Int32: Set<String>] = [:]
    /// False once events went unchecked (`TraceVerifier.skip(through:)`, the stress audit
    /// after a loss): a process spawned among them is unknown, and an attach is not judged.
    var isComplete = true

    /// What `event` (a process event of `scene`) breaks, as the expectation it fails; nil
    /// when it breaks nothing here. `activation` gives another scene's state.
    func refusal(of event: TraceEvent, scene: String, activation: (String) -> ActivationState?) -> String? {
        guard let pid = event.pid else { return nil }
        switch event.processEvent {
        case .attached:
            guard isComplete, scenes[pid] == nil else { return nil }
            return "process attached to a live process a scene of the trace spawned (pid \(pid) is none)"
        case .suspended:
            for other in (scenes[pid] ?? []).sorted() where other != scene {
                let state = activation(other)
                guard state == .background || state == .unattached || state == nil else {
                    return "every other scene of process \(pid) in the background before process suspended"
                        + " (\(other) is \(state.map { "\($0)" } ?? "unknown"))"
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// Takes in an accepted process event of `scene`.
    mutating func apply(_ event: TraceEvent, scene: String) {
        guard let pid = event.pid else { return }
        switch event.processEvent {
        case .spawned: scenes[pid] = [scene]
        case .attached: scenes[pid, default: []].insert(scene)
        case .detached: scenes[pid]?.remove(scene)
        case .exited: scenes[pid] = nil
        default: break
        }
    }
}
