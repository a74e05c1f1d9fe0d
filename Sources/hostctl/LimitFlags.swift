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
        """

    /// Removes the limit flags from `arguments` and applies them over `limits`.
    static func parse(_ arguments: inout Arguments, over limits: Scenario.Limits) throws(UsageError) -> Scenario.Limits
    {
        var limits = limits
        let day = 86_400_000
        if let ms = try arguments.intOption("--suspend-delay-ms", in: 0...day) {
            limits.suspendDelay = .milliseconds(ms)
        }
        if let ms = try arguments.intOption("--launch-limit-ms", in: 1...day) { limits.launchLimit = .milliseconds(ms) }
        if let ms = try arguments.intOption("--transition-limit-ms", in: 1...day) {
            limits.transitionLimit = .milliseconds(ms)
        }
        if let ms = try arguments.intOption("--terminate-limit-ms", in: 1...day) {
            limits.terminateLimit = .milliseconds(ms)
        }
        if let ms = try arguments.intOption("--background-task-limit-ms", in: 1...day) {
            limits.backgroundTaskLimit = .milliseconds(ms)
        }
        if let mb = try arguments.intOption("--memory-limit-mb", in: 1...(1 << 30)) {
            limits.memoryLimitBytes = mb << 20
        }
        if let ms = try arguments.intOption("--memory-check-interval-ms", in: 1...day) {
            limits.memoryCheckInterval = .milliseconds(ms)
        }
        let window = try arguments.intOption("--restart-window-ms", in: 1...day)
        if let maximum = try arguments.intOption("--restart-limit", in: 0...1_000_000) {
            limits.restartPolicy = RestartPolicy(maximumRestarts: maximum, window: .milliseconds(window ?? 5000))
        } else if window != nil {
            throw UsageError("hostctl \(arguments.command): --restart-window-ms needs --restart-limit")
        }
        return limits
    }
}
