import CLISupport
import HostProcess
import HostTools

/// The limit flags every host-running command accepts (`run`, `demo`, `serve`), each
/// overriding the scenario's `config` and LIFECYCLE.md's defaults.
enum LimitFlags {
    static let help = """
          --suspend-delay-ms N           background → suspended delay (default 2000)
          --launch-limit-ms N            launch watchdog (default 20000)
          --transition-limit-ms N        per-transition watchdog (default 5000)
          --terminate-limit-ms N         time to exit after terminate (default 5000)
          --background-task-limit-ms N   a background task's limit, counted in the background
                                         only (default 30000)
          --memory-limit-mb N            workers' total resident memory limit (default none):
                                         over it, the host relieves memory pressure itself
          --memory-check-interval-ms N   how often that limit is checked (default 250)
          --restart-limit N              restart crashed/killed scenes up to N times ...
          --restart-window-ms N          ... within this window (default 5000)
          --prewarm N                    workers kept started ahead of launches (default 1;
                                         0: every launch spawns its worker)
        """ + "\n" + tuningHelp

    /// `--tuning`, which `stress` and `bench` take too.
    static let tuningHelp = """
          --tuning plain|throughput      plain (default): the event loop sleeps when idle and
                                         no process's CPU affinity or scheduling class is
                                         changed; throughput: the loop polls before it sleeps,
                                         workers run SCHED_BATCH and a saturated loop keeps a
                                         CPU to itself (docs/TUNING.md)
        """

    /// Removes `--tuning` from `arguments`; nil when it is not given.
    static func tuning(_ arguments: inout Arguments) throws(UsageError) -> HostTuning? {
        guard let value = try arguments.option("--tuning") else { return nil }
        guard let tuning = HostTuning(rawValue: value) else {
            throw UsageError(
                "hostctl \(arguments.command): --tuning takes plain or throughput, not \"\(value.prefix(64))\""
            )
        }
        return tuning
    }

    /// Removes the limit flags from `arguments` and applies them over `limits`.
    static func parse(_ arguments: inout Arguments, over limits: Scenario.Limits) throws(UsageError) -> Scenario.Limits
    {
        try parse(&arguments).applied(over: limits, command: arguments.command)
    }

    /// Removes the limit flags from `arguments`, to apply later over limits not known yet
    /// (`run` reads its scenario's `config` after its flags: a flag before the file name
    /// must not be taken for it).
    static func parse(_ arguments: inout Arguments) throws(UsageError) -> Overrides {
        let ranges = Scenario.LimitRanges.self
        func value(_ limit: Scenario.LimitRange) throws(UsageError) -> Int? {
            try arguments.intOption(limit.flag, in: limit.range)
        }
        var overrides = Overrides()
        overrides.suspendDelay = try value(ranges.suspendDelay)
        overrides.launchLimit = try value(ranges.launchLimit)
        overrides.transitionLimit = try value(ranges.transitionLimit)
        overrides.terminateLimit = try value(ranges.terminateLimit)
        overrides.backgroundTaskLimit = try value(ranges.backgroundTaskLimit)
        overrides.memoryLimit = try value(ranges.memoryLimit)
        overrides.memoryCheckInterval = try value(ranges.memoryCheckInterval)
        overrides.prewarm = try value(ranges.prewarm)
        overrides.tuning = try tuning(&arguments)
        overrides.restartWindow = try value(ranges.restartWindow)
        overrides.restartLimit = try value(ranges.restartLimit)
        return overrides
    }

    /// The limit flags given, in their units (milliseconds, MiB, a count); nil: not given.
    struct Overrides {
        var suspendDelay: Int?
        var launchLimit: Int?
        var transitionLimit: Int?
        var terminateLimit: Int?
        var backgroundTaskLimit: Int?
        var memoryLimit: Int?
        var memoryCheckInterval: Int?
        var prewarm: Int?
        var restartLimit: Int?
        var restartWindow: Int?
        var tuning: HostTuning?

        /// `limits` with every flag given in place of its value. The restart flags each
        /// replace their half of the policy (a scenario's `restartWindowMs` stays under
        /// `--restart-limit`); a window alone needs a limit, given or in the scenario.
        func applied(over limits: Scenario.Limits, command: String) throws(UsageError) -> Scenario.Limits {
            var limits = limits
            if let ms = suspendDelay { limits.suspendDelay = .milliseconds(ms) }
            if let ms = launchLimit { limits.launchLimit = .milliseconds(ms) }
            if let ms = transitionLimit { limits.transitionLimit = .milliseconds(ms) }
            if let ms = terminateLimit { limits.terminateLimit = .milliseconds(ms) }
            if let ms = backgroundTaskLimit { limits.backgroundTaskLimit = .milliseconds(ms) }
            if let mb = memoryLimit { limits.memoryLimitBytes = mb << 20 }
            if let ms = memoryCheckInterval { limits.memoryCheckInterval = .milliseconds(ms) }
            if let count = prewarm { limits.prewarmedWorkers = count }
            if restartLimit != nil || restartWindow != nil {
                guard let maximum = restartLimit ?? limits.restartPolicy?.maximumRestarts else {
                    let scenario = command == "run" ? " (or the scenario's config.restartLimit)" : ""
                    throw UsageError("hostctl \(command): --restart-window-ms needs --restart-limit\(scenario)")
                }
                let window = restartWindow.map { .milliseconds($0) } ?? limits.restartPolicy?.window ?? .seconds(5)
                limits.restartPolicy = RestartPolicy(maximumRestarts: maximum, window: window)
            }
            if let tuning { limits.tuning = tuning }
            return limits
        }
    }
}
