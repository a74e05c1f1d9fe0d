import HostProcess

/// The limit flags every host-running command accepts (`run`, `demo`, `serve`), each
/// overriding the scenario's `config` and LIFECYCLE.md's defaults.
enum LimitFlags {
    static let help = """
          --suspend-delay-ms N           background → suspended delay (default 2000)
          --launch-limit-ms N            launch watchdog (default 20000)
          --transition-limit-ms N        per-transition watchdog (default 5000)
          --terminate-limit-ms N         time to exit after terminate (default 5000)
          --background-task-limit-ms N   background task limit (default 30000)
          --memory-limit-mb N            workers' total resident memory limit (default none):
                                         over it, the host relieves memory pressure itself
          --memory-check-interval-ms N   how often that limit is checked (default 250)
          --restart-limit N              restart crashed/killed scenes up to N times ...
          --restart-window-ms N          ... within this window (default 5000)
          --prewarm N                    workers kept started ahead of launches (default 1;
                                         0: every launch spawns its worker)
        """

    /// Removes the limit flags from `arguments` and applies them over `limits`.
    static func parse(_ arguments: inout Arguments, over limits: Scenario.Limits) throws(UsageError) -> Scenario.Limits
    {
        var limits = limits
        let ranges = Scenario.LimitRanges.self
        func value(_ limit: Scenario.LimitRange) throws(UsageError) -> Int? {
            try arguments.intOption(limit.flag, in: limit.range)
        }
        if let ms = try value(ranges.suspendDelay) { limits.suspendDelay = .milliseconds(ms) }
        if let ms = try value(ranges.launchLimit) { limits.launchLimit = .milliseconds(ms) }
        if let ms = try value(ranges.transitionLimit) { limits.transitionLimit = .milliseconds(ms) }
        if let ms = try value(ranges.terminateLimit) { limits.terminateLimit = .milliseconds(ms) }
        if let ms = try value(ranges.backgroundTaskLimit) { limits.backgroundTaskLimit = .milliseconds(ms) }
        if let mb = try value(ranges.memoryLimit) { limits.memoryLimitBytes = mb << 20 }
        if let ms = try value(ranges.memoryCheckInterval) { limits.memoryCheckInterval = .milliseconds(ms) }
        if let count = try value(ranges.prewarm) { limits.prewarmedWorkers = count }
        let window = try value(ranges.restartWindow)
        if let maximum = try value(ranges.restartLimit) {
            limits.restartPolicy = RestartPolicy(maximumRestarts: maximum, window: .milliseconds(window ?? 5000))
        } else if window != nil {
            throw UsageError("hostctl \(arguments.command): --restart-window-ms needs --restart-limit")
        }
        return limits
    }
}
