import SceneModel

/// The app-level rules of LIFECYCLE.md §4a, written down independently of the host, over each
/// scene's own `SpecOracle`: scenes that connect in one app share its process, so a kill of
/// it ends every one of them, a terminate lets the others end first, the process is suspended
/// only when every scene in it may be, and whatever resumes it for one scene runs the others
/// again (their held notifications delivered).
struct SpecAppProcess {
    /// What a step did beyond its own scene's oracle.
    struct Outcome {
        /// Notifications delivered, per scene, in order (`name=value`).
        var delivered: [String: [String]] = [:]
        /// Scenes whose suspended process was resumed for another scene.
        var continued: [String] = []
        /// Scenes whose worker died with the step's (a kill or a terminate of their process).
        var died: [String] = []
    }

    private(set) var scenes: [String: SpecOracle] = [:]
    /// Scenes that connected in the app at least once: a relaunch (a URL, a push) runs in it.
    private(set) var joined: Set<String> = []
    /// Scenes whose live worker is the app's process.
    private(set) var inApp: Set<String> = []

    func oracle(_ scene: String) -> SpecOracle { scenes[scene] ?? SpecOracle() }

    private func isAlive(_ scene: String) -> Bool { oracle(scene).states.process.isAlive }

    /// The scenes whose worker is `scene`'s process, `scene` included.
    func processMates(of scene: String) -> [String] {
        guard inApp.contains(scene) else { return isAlive(scene) ? [scene] : [] }
        return inApp.filter(isAlive).sorted()
    }

    /// Whether the host accepts `step`: a scene's own rules, and an app process carries
    /// scene-based scenes only.
    func allows(_ step: PropertyTests.Step) -> Bool {
        switch step {
        case .crash(let scene):
            return isAlive(scene)
        case .op(let scene, let op):
            let oracle = oracle(scene)
            if case .connect(_, _, _, let launch) = op, launch.app != nil,
                (launch.lifecycle ?? (oracle.appBased ? .app : .scene)) == .app
            {
                return false
            }
            return oracle.allows(op)
        }
    }

    /// Carries out a legal step.
    mutating func apply(_ step: PropertyTests.Step) -> Outcome {
        var outcome = Outcome()
        switch step {
        case .crash(let scene):
            for mate in processMates(of: scene) {
                scenes[mate, default: SpecOracle()].crashed()
                outcome.died.append(mate)
            }
        case .op(let scene, let op):
            let before = oracle(scene)
            let wasAlive = before.states.process.isAlive
            let wasSuspended = before.place == .suspended
            let mates = processMates(of: scene).filter { $0 != scene }
            switch op {
            case .kill:
                // One process: the signal reaches every scene in it.
                for mate in mates { scenes[mate, default: SpecOracle()].crashed() }
                outcome.died = mates
                _ = scenes[scene, default: SpecOracle()].perform(op)
            case .terminate:
                // The others leave first; the last one ends the app (c13).
                for mate in mates { _ = scenes[mate, default: SpecOracle()].perform(.terminate) }
                outcome.died = mates
                _ = scenes[scene, default: SpecOracle()].perform(op)
            default:
                outcome.delivered[scene] = scenes[scene, default: SpecOracle()].perform(op)
            }
            var launchedInApp = false
            if !wasAlive {
                // A connect names the app; a relaunch for a URL or a push runs where the last
                // connect did.
                var isConnect = false
                if case .connect = op { isConnect = true }
                launchedInApp = isConnect || joined.contains(scene)
                if isConnect { joined.insert(scene) }
                if launchedInApp && isAlive(scene) { inApp.insert(scene) }
            }
            let after = oracle(scene)
            var endsItsWorker = false
            if case .disconnect = op { endsItsWorker = true }
            if case .discard = op { endsItsWorker = true }
            // Whatever runs this scene's process again runs the others too.
            let resumes =
                launchedInApp || (wasSuspended && endsItsWorker)
                || (wasSuspended && after.states.process == .running)
            if resumes {
                for mate in processMates(of: scene) where mate != scene && oracle(mate).place == .suspended {
                    outcome.delivered[mate] = scenes[mate, default: SpecOracle()].continuedBySibling()
                    outcome.continued.append(mate)
                }
            }
        }
        inApp = inApp.filter(isAlive)
        return outcome
    }

    /// The scenes the host suspends now: an idle background scene of a process of its own; the
    /// app's idle background scenes once every scene in its process is idle or suspended.
    var dueForSuspension: [String] {
        var due = scenes.keys.filter { !inApp.contains($0) && oracle($0).shouldSuspend }
        let members = inApp.filter(isAlive)
        if members.allSatisfy({ oracle($0).shouldSuspend || oracle($0).place == .suspended }) {
            due += members.filter { oracle($0).shouldSuspend }
        }
        return due.sorted()
    }

    mutating func suspended(_ scene: String) { scenes[scene, default: SpecOracle()].suspended() }
}
