import HostProcess
import Protocol

/// One thing that happens to the app in a fuzz run: an operation of the host's (the system's
/// lifecycle, the user's navigation and hands), or the system killing the suspended app and
/// the user coming back to it, after which restoration must bring back what the user left.
public enum FuzzStep: Sendable, Hashable, CustomStringConvertible {
    case op(SceneOperation)
    /// Background (if in the foreground), wait until suspended, SIGKILL, then the user
    /// returns (`connect`, which launches the app into the foreground with its saved state).
    case systemKill
    /// The app, in the background, is left there until the system suspends it.
    case suspension

    public var description: String {
        switch self {
        case .op(let op):
            let fields = Scenario.Step.scene("A", op).jsonObject.filter { $0.key != "op" && $0.key != "scene" }
            guard !fields.isEmpty else { return op.name }
            return op.name + " "
                + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        case .systemKill:
            return "systemKill"
        case .suspension:
            return "suspension"
        }
    }

    /// The scenario steps that replay this step on `scene` (`hostctl run`): a system kill is
    /// background, a wait for suspension, a kill and a connect.
    func scenarioSteps(scene: String, root: String, suspendTimeout: Duration) -> [Scenario.Step] {
        switch self {
        case .op(let op):
            return [.scene(scene, op)]
        case .systemKill:
            return [
                .scene(scene, .background),
                .waitFor(scene: scene, condition: .process(.suspended), timeout: suspendTimeout),
                .scene(scene, .kill(signal: SIGKILLNumber)),
                .scene(scene, .connect(root: root)),
            ]
        case .suspension:
            return [.waitFor(scene: scene, condition: .process(.suspended), timeout: suspendTimeout)]
        }
    }

    /// The fuzz steps of a scenario `scenarioSteps` wrote (the first `connect` launches the
    /// run and is not a step); nil when it holds something else.
    static func steps(of scenario: Scenario, scene: String) -> (root: String, steps: [FuzzStep])? {
        var entries = scenario.entries.map(\.step)[...]
        guard case .scene(scene, .connect(_, let root, _, _))? = entries.popFirst() else { return nil }
        var steps: [FuzzStep] = []
        while let step = entries.popFirst() {
            switch step {
            case .scene(scene, .background):
                let next = Array(entries.prefix(3))
                if next.count == 3, case .waitFor(scene, .process(.suspended), _) = next[0],
                    case .scene(scene, .kill) = next[1], case .scene(scene, .connect) = next[2]
                {
                    // background, waitFor suspended, kill, connect: a system kill.
                    entries = entries.dropFirst(3)
                    steps.append(.systemKill)
                } else {
                    steps.append(.op(.background))
                }
            case .waitFor(scene, .process(.suspended), _):
                steps.append(.suspension)
            case .scene(scene, let op):
                steps.append(.op(op))
            default:
                return nil
            }
        }
        return (root, steps)
    }
}
