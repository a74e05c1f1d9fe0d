import Protocol
import SceneModel

extension SceneHost {
    /// Relieves memory pressure in LIFECYCLE.md §4's order:
    /// 1. kill suspended workers, largest resident memory first, reason `jetsam`, no callback;
    /// 2. every running worker gets a memory warning;
    /// 3. while still over `memoryLimitBytes`, kill background-running workers, then
    ///    foreground-inactive ones, largest first, and foreground-active ones last of all.
    ///
    /// Without a memory limit (an explicit pressure request) steps 1 and 2 always run and
    /// step 3 never does: running scenes are only killed to get under a real limit.
    public func memoryPressure() async {
        // A quitting host records nothing more of its own: its trace ends with `stopped`.
        guard !isQuitting else { return }
        trace.record(TraceEvent(kind: .host, name: "memoryPressure"))
        let limit = configuration.memoryLimitBytes
        func overLimit() async -> Bool {
            guard let limit else { return true }
            return await totalResidentMemory() > limit
        }
        for victim in await candidates(where: { $0.process == .suspended }) {
            guard await overLimit() else { return }
            try? await victim.controller.kill(reason: .jetsam)
        }
        guard await overLimit() else { return }
        // One warning per process: an app's windows share one, whose app delegate hears it
        // once and whose every window's controllers hear it through the first (§4a).
        var warned: Set<Int32> = []
        for running in await candidates(where: { $0.process == .running && $0.activation != .unattached }) {
            if let pid = await running.controller.status.pid, !warned.insert(pid).inserted { continue }
            try? await running.controller.perform(.memoryWarning)
        }
        guard limit != nil else { return }
        let order: [ActivationState] = [.background, .foregroundInactive, .foregroundActive]
        for activation in order {
            for victim in await candidates(where: { $0.process == .running && $0.activation == activation }) {
                guard await overLimit() else { return }
                try? await victim.controller.kill(reason: .jetsam)
            }
        }
    }

    /// The workers' total resident memory in bytes, each worker's whole process tree
    /// (children, helpers, a launcher that did not exec) counted.
    public func totalResidentMemory() async -> Int {
        // Each process once: an app's windows share one.
        var pids: Set<Int32> = []
        for controller in allControllers {
            if let pid = await controller.status.pid { pids.insert(pid) }
        }
        // One scan of /proc for every scene.
        let table = await ProcessTable.snapshotOffThePool()
        return pids.reduce(0) { $0 + (table.residentBytes(ofTreeAt: $1) ?? 0) }
    }

    /// Live scenes matching `filter`, largest resident memory first.
    private func candidates(
        where filter: (SceneStatus) -> Bool
    ) async -> [(controller: SceneController, memory: Int)] {
        var matching: [(controller: SceneController, pid: Int32?)] = []
        for controller in allControllers {
            let status = await controller.status
            if filter(status) { matching.append((controller, status.pid)) }
        }
        let table = await ProcessTable.snapshotOffThePool()
        let result = matching.map { match in
            (controller: match.controller, memory: match.pid.flatMap(table.residentBytes(ofTreeAt:)) ?? 0)
        }
        return result.sorted { $0.memory > $1.memory }
    }
}
