import HostProcess

extension HostConfiguration {
    /// A configuration for tests: `worker` (see `WorkerExecutable.builtProduct(named:)`),
    /// sessions in memory, and short limits where the defaults make tests wait:
    ///
    /// - `suspendDelay` 50 ms (default 2 s): a backgrounded scene suspends quickly;
    /// - `terminateLimit` 2 s (default 5 s): a worker that hangs in a quit is killed sooner;
    /// - `backgroundTaskLimit` 2 s (default 30 s);
    /// - `traceHistoryLimitBytes` nil (default 64 MiB): the whole trace stays in memory, so
    ///   `verifyTrace()` and `withSceneHost` check every event.
    ///
    /// The launch and transition watchdogs keep their defaults (20 s, 5 s): a healthy
    /// worker on a loaded machine must not trip them. Every field may be changed afterwards.
    public static func forTesting(worker: [String]) -> HostConfiguration {
        var configuration = HostConfiguration(worker: worker)
        configuration.suspendDelay = .milliseconds(50)
        configuration.terminateLimit = .seconds(2)
        configuration.backgroundTaskLimit = .seconds(2)
        configuration.traceHistoryLimitBytes = nil
        return configuration
    }
}
