import HostProcess
import Protocol

/// What `Fuzzer.run` does: which app, how many runs of how many steps, for how long.
public struct FuzzConfiguration: Sendable {
    /// The argv of the app's worker.
    public var worker: [String]
    /// The controller the app launches with (`connect --root`).
    public var root = "Root"
    /// Seeds every run: the same seed gives the same runs, and the same failure (the lowest
    /// failing run is reported, however many instances run), unless `seconds` cuts the
    /// session short.
    public var seed: UInt64 = 1
    /// At most this many runs.
    public var runs = 100
    /// Steps per run.
    public var steps = 30
    /// Stop starting runs after this long (nil: no limit).
    public var seconds: Double?
    /// App instances at once (each run its own scene and worker).
    public var instances = 2
    /// The user's invariants, checked after every step the scene is active.
    public var invariants: [FuzzInvariant] = []
    /// The host's limits: short ones, so that suspension comes within milliseconds.
    public var host: HostConfiguration

    /// Runs of `worker`, with a host whose suspend delay is 50 ms.
    public init(worker: [String]) {
        self.worker = worker
        var host = HostConfiguration(worker: worker)
        host.suspendDelay = .milliseconds(50)
        host.backgroundTaskLimit = .seconds(2)
        host.prewarmedWorkers = 0
        host.traceHistoryLimitBytes = 256 << 20
        // What the app prints would bury the progress line; the report has the timeline.
        host.forwardsWorkerStderr = false
        self.host = host
    }
}

/// What a fuzzing session found.
public struct FuzzReport: Sendable {
    /// Runs finished, and lifecycle steps run in them.
    public var runs = 0
    public var steps = 0
    /// Seconds of fuzzing (shrinking aside).
    public var seconds = 0.0
    /// The failure found, shrunk; nil when every run held.
    public var failure: FuzzFailure?
    /// The failure as first found, before shrinking.
    public var original: FuzzFailure?
    /// How long shrinking took, and how many runs it tried.
    public var shrinkSeconds = 0.0
    public var shrinkRuns = 0
    /// The run that failed (its seed is the session's seed and this index).
    public var failingRun: Int?

    /// Steps per second over the session.
    public var stepsPerSecond: Double { seconds > 0 ? Double(steps) / seconds : 0 }
}

/// `hostctl fuzz`: random legal lifecycles against an app, checked against invariants, and
/// the first failure shrunk to a minimal scenario.
public enum Fuzzer {
    /// Fuzzes `configuration.worker`; `progress` hears of each finished run (runs, steps).
    /// Throws `FuzzConfigurationError` for a session that could test nothing (no run, no
    /// step, no instance, no time) before anything starts.
    public static func run(
        _ configuration: FuzzConfiguration,
        progress: (@Sendable (_ runs: Int, _ steps: Int) -> Void)? = nil
    ) async throws -> FuzzReport {
        try FuzzConfigurationError.check(configuration)
        let host = try SceneHost(configuration: configuration.host)
        let start = ContinuousClock.now
        let state = Locked(SessionState())
        await withTaskGroup(of: Void.self) { group in
            for instance in 0..<max(1, configuration.instances) {
                group.addTask {
                    var index = instance
                    while true {
                        // Runs before the lowest failing one go on: the session reports the
                        // lowest run that fails, whichever instance finished first.
                        let go = state.withLock { state -> Bool in
                            index < min(configuration.runs, state.failingRun ?? .max)
                        }
                        if !go { return }
                        if let seconds = configuration.seconds, start.duration(to: .now) > .seconds(seconds) { return }
                        var generator = SeededGenerator(seed: runSeed(configuration.seed, index))
                        let run = FuzzRun(configuration, host: host, scene: "fuzz-\(index)")
                        let outcome = await run.run(nil, count: configuration.steps, generator: &generator)
                        let counts = state.withLock { state -> (Int, Int) in
                            state.runs += 1
                            state.steps += outcome.steps.count
                            if outcome.failure?.neverStarted != true { state.startedRuns += 1 }
                            if let failure = outcome.failure, index < state.failingRun ?? .max {
                                state.failure = failure
                                state.failingRun = index
                            }
                            return (state.runs, state.steps)
                        }
                        progress?(counts.0, counts.1)
                        index += max(1, configuration.instances)
                    }
                }
            }
        }
        var report = FuzzReport()
        state.withLock { state in
            report.runs = state.runs
            report.steps = state.steps
            report.original = state.failure
            report.failingRun = state.failingRun
            // An app that started in another run and not in this one failed to start: a
            // failure of the app (a launch that crashes on what an earlier run left, a watchdog
            // under load), not of the setup.
            if state.startedRuns > 0 { report.original?.neverStarted = false }
        }
        report.seconds = StressUnits.seconds(start.duration(to: .now))
        // An app that never started has nothing to shrink: the setup is wrong.
        if let original = report.original, original.neverStarted {
            report.failure = original
        } else if let original = report.original {
            let shrinkStart = ContinuousClock.now
            // At most as long again as the session's limit: a failure that takes a watchdog
            // to show must not shrink for hours.
            var shrinker = FuzzShrinker(
                host: host,
                configuration: configuration,
                deadline: configuration.seconds.map { ContinuousClock.now + .seconds($0) }
            )
            report.failure = await shrinker.shrink(original)
            report.shrinkRuns = shrinker.attempts
            report.shrinkSeconds = StressUnits.seconds(shrinkStart.duration(to: .now))
        }
        await host.quit()
        return report
    }

    /// Runs `steps` once against `configuration.worker`; the failure, if they fail.
    public static func replay(_ steps: [FuzzStep], _ configuration: FuzzConfiguration) async throws -> FuzzFailure? {
        let host = try SceneHost(configuration: configuration.host)
        let failure = await FuzzRun(configuration, host: host, scene: "replay").run(steps).failure
        await host.quit()
        return failure
    }

    /// A scenario of `failure`'s steps, for `fuzz --replay` (which checks what the fuzzer
    /// checks); `hostctl run` runs the same steps, checking only that each succeeds.
    public static func scenario(_ failure: FuzzFailure, _ configuration: FuzzConfiguration) -> JSONValue {
        let scene = "App"
        let timeout = suspendTimeout(configuration.host)
        var steps: [Scenario.Step] = [.scene(scene, .connect(root: configuration.root))]
        for step in failure.steps {
            steps += step.scenarioSteps(scene: scene, root: configuration.root, suspendTimeout: timeout)
        }
        return .object([
            "config": .object([
                "suspendDelayMs": .int(StressUnits.milliseconds(configuration.host.suspendDelay)),
                "backgroundTaskLimitMs": .int(StressUnits.milliseconds(configuration.host.backgroundTaskLimit)),
                "worker": .array(configuration.worker.map { .string($0) }),
            ]),
            "steps": .array(steps.map { .object($0.jsonObject) }),
            "fuzzFailure": .object(["kind": .string(failure.kind.rawValue), "message": .string(failure.message)]),
        ])
    }

    /// The steps of a scenario `scenario(_:_:)` wrote, and the root it launches with.
    public static func steps(of scenario: Scenario) -> (root: String, steps: [FuzzStep])? {
        FuzzStep.steps(of: scenario, scene: "App")
    }

    static func runSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    }

    static func suspendTimeout(_ configuration: HostConfiguration) -> Duration {
        configuration.suspendDelay + configuration.backgroundTaskLimit + .seconds(5)
    }

    private struct SessionState: Sendable {
        var runs = 0
        var steps = 0
        var failure: FuzzFailure?
        var failingRun: Int?
        /// Runs whose app said ready.
        var startedRuns = 0
    }
}

/// A fuzzing session that could test nothing: it says which setting, and its range.
public struct FuzzConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String

    static func check(_ configuration: FuzzConfiguration) throws(FuzzConfigurationError) {
        func refuse(_ text: String) -> FuzzConfigurationError { FuzzConfigurationError(description: text) }
        guard !configuration.worker.isEmpty else { throw refuse("no worker: give the app's executable") }
        guard (1...1_000_000).contains(configuration.runs) else {
            throw refuse("runs must be in 1...1000000, got \(configuration.runs)")
        }
        guard (1...10_000).contains(configuration.steps) else {
            throw refuse("steps must be in 1...10000, got \(configuration.steps)")
        }
        guard (1...64).contains(configuration.instances) else {
            throw refuse("instances must be in 1...64, got \(configuration.instances)")
        }
        if let seconds = configuration.seconds, !(seconds > 0 && seconds <= 86_400) {
            throw refuse("seconds must be in (0, 86400], got \(seconds)")
        }
    }
}
