import Glibc
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Model-based tests: random operation sequences, run one step at a time against an
/// independent oracle (`SpecOracle`, the spec written down another way, in the tests),
/// against real workers (`SceneHost`) and against the trace checker (`SceneTraceChecker`,
/// replayed over the host's trace). After every step the three must agree: refused vs
/// accepted, the activation and process state, the navigation stack, the background task,
/// and the notifications delivered (merged by name while suspended). The oracle computes all
/// of it itself: nothing is taken from the host's own `SceneLifecycle`.
///
/// Timers are made deterministic: the suspend delay is a few milliseconds and, whenever the
/// model says the scene should suspend, the test waits for the host to do it before the next
/// step; background tasks never expire (a one-hour limit).
///
/// A failing case prints its seed and the shortest failing prefix of its operations.
@Suite struct PropertyTests {
    /// Seeds 1–24, or those listed in `SCENEHOST_PROPERTY_SEEDS` (`24` or `3,24`), to rerun
    /// a failing case alone.
    static let seeds: [UInt64] =
        getenv("SCENEHOST_PROPERTY_SEEDS").map { String(cString: $0).split(separator: ",").compactMap { UInt64($0) } }
        ?? Array(1...24)
    static let stepsPerSeed = 50
    static let scenes = ["A", "B"]

    @Test func realWorkersFollowTheModel() async throws {
        #expect(!Self.seeds.isEmpty, "SCENEHOST_PROPERTY_SEEDS names no seed")
        // Four seeds at a time: enough to overlap the waits, light on two cores.
        let failures = await Self.failures(of: Self.seeds, width: 4) { await Self.checkSeed($0) }
        for failure in failures { Issue.record("\(failure)") }
    }

    /// The model's legality table (`LifecycleOperation.refusal(in:)`, which the host, the
    /// CLI and the stress audit use) agrees with the oracle's in every reachable state.
    @Test func theModelAgreesWithTheIndependentOracle() {
        var checked = 0
        for oracle in SpecOracle.reachableStates {
            for op in LifecycleOperation.allCases where op.kind == .scene {
                let model = op.refusal(in: oracle.snapshot)
                if (model == nil) != oracle.allows(op) {
                    let verdict = oracle.allows(op) ? "legal" : "illegal"
                    let modelVerdict = model.map { "refuses: \($0)" } ?? "allows it"
                    Issue.record(
                        "\(op) in \(oracle.summary) (session \(oracle.hasSession)): the oracle says \(verdict), the model \(modelVerdict)"
                    )
                }
                checked += 1
            }
        }
        #expect(checked > 400)
    }

    /// The host's pure state machine (`SceneLifecycle`, each plan carried out with its
    /// expected completion) follows the oracle along random walks: the same refusals, the same
    /// state, the same notifications delivered. No processes: a wrong state fails here
    /// deterministically. The order of merged notifications does not: these walks seldom
    /// queue two names before a resume (a merge delivering in last-arrival order passed
    /// them), so that order is tested as such, by
    /// `SceneLifecycleTests.notificationsForASuspendedWorkerAreQueuedAndMergedByName` and
    /// `TerminationTests.queuedNotificationsAreMergedAndDeliveredFirstOnResume`.
    @Test func theHostsStateMachineFollowsTheOracle() {
        for seed in UInt64(1)...300 {
            var generator = SeededGenerator(seed: seed)
            var lifecycle = SceneLifecycle()
            var oracle = SpecOracle()
            oracle.appRestoresStack = false  // no worker here: nobody rebuilds a saved stack
            var done: [String] = []
            var lastTabs: [String]?
            for index in 0..<80 {
                let drawn = Self.randomStep(&generator, index: index, scenes: ["A"])
                let child = Self.containmentStep(&generator, index: index, scene: "A")
                for step in [drawn] + (child.map { [$0] } ?? []) {
                    done.append(step.description)
                    let place = "seed \(seed), after \(done.suffix(6).joined(separator: "; "))"
                    switch step {
                    case .crash:
                        guard lifecycle.hasLiveWorker else { continue }
                        lifecycle.processExited()
                        oracle.crashed()
                    case .op(_, let op):
                        let legal = oracle.allows(op)
                        switch lifecycle.request(op) {
                        case .refuse(let reason):
                            if legal { Issue.record("\(place): the host refuses (\(reason)), the oracle allows it") }
                        case .perform(let plan):
                            guard legal else {
                                Issue.record("\(place): the host plans \(plan), the oracle refuses")
                                return
                            }
                            // The worker's ready declares the kind asked for (the default worker's way).
                            if case .connect(_, _, _, let launch) = op, let kind = launch.lifecycle {
                                lifecycle.kind = kind
                            }
                            // A relaunch (openURL) reuses the last connect's tabs, as the host does.
                            if case .connect(_, _, _, let launch) = op { lastTabs = launch.tabs }
                            var forPush = false
                            if case .remoteNotification = op { forPush = true }
                            // The machine notes that the user ended the app (a launching worker is
                            // killed without its turn).
                            if case .terminate = op, lifecycle.process != .launching { lifecycle.userEndedTheApp() }
                            let delivered = Self.apply(
                                plan,
                                to: &lifecycle,
                                scene: "A",
                                tabs: lastTabs,
                                forPush: forPush
                            )
                            let expected = oracle.perform(op)
                            if delivered != expected {
                                Issue.record("\(place): the host delivers \(delivered), the oracle \(expected)")
                            }
                        }
                    }
                    if oracle.shouldSuspend != lifecycle.shouldSuspend {
                        Issue.record(
                            "\(place): should suspend: host \(lifecycle.shouldSuspend), oracle \(oracle.shouldSuspend)"
                        )
                    }
                    if oracle.shouldSuspend && generator.chance(0.7) {
                        lifecycle.suspended()
                        oracle.suspended()
                    }
                    if Self.describe(lifecycle) != oracle.summaryWithKind {
                        Issue.record(
                            "\(place): the host is \(Self.describe(lifecycle)), the oracle \(oracle.summaryWithKind)"
                        )
                        return
                    }
                }
            }
        }
    }

    /// The harness itself can fail: a runner that fails whenever a prefix holds a `pop` of B is
    /// reported with its seed, the failing step, and the shortest prefix that still fails.
    @Test func aFailureIsReportedWithItsSeedAndTheShortestFailingPrefix() async {
        let steps: [Step] = [
            .op(scene: "A", .connect()), .op(scene: "B", .connect()), .op(scene: "A", .push(viewController: "X")),
            .op(scene: "B", .pop), .op(scene: "A", .pop), .op(scene: "B", .pop),
        ]
        let report = await Self.checkSeed(77, steps: steps) { prefix in
            // Like a real failure, it shows up a little after its cause: at the last step run.
            guard prefix.contains(where: { $0.description == "pop B" }) else { return nil }
            return Failure(step: prefix.count - 1, message: "planted")
        }
        let expected =
            "seed 77: step 6 (pop B): planted\n"
            + "  shortest failing prefix (4 steps, fails at step 4: planted):\n    "
            + "connect A; connect B; push X A; pop B"
        #expect(report == expected)
        #expect(await Self.checkSeed(78, steps: steps) { _ in nil } == nil)
    }

    /// The seeds' steps exercise §3c with kills: windows opened, closed and refused a close,
    /// windows killed and taking steps, an opener killed with its window open.
    @Test func theSeedsOpenCloseAndKillWindows() {
        var opened = 0
        var closed = 0
        var refused = 0
        var windowCrashes = 0
        var windowSteps = 0
        for seed in Self.seeds {
            let run = Self.generateWithEffects(seed: seed, count: Self.stepsPerSeed)
            for effect in run.effects {
                switch effect {
                case .open: opened += 1
                case .close: closed += 1
                case .refusedClose: refused += 1
                }
            }
            for step in run.steps where run.windows.isWindow(step.scene) {
                if case .crash = step { windowCrashes += 1 } else { windowSteps += 1 }
            }
        }
        #expect(opened >= 10 && closed >= 5 && refused >= 3, "opened \(opened), closed \(closed), refused \(refused)")
        #expect(windowCrashes >= 2 && windowSteps >= 20, "crashes \(windowCrashes), steps \(windowSteps)")
    }
}

extension PropertyTests.Step {
    var scene: String {
        switch self {
        case .crash(let scene), .op(let scene, _): scene
        }
    }
}
