/// Every limit of LIFECYCLE.md, with its defaults, and how workers are started.
public struct HostConfiguration: Sendable, Hashable {
    /// How long a background scene with no background task runs before it is suspended.
    public var suspendDelay: Duration = .seconds(2)
    /// How long a worker may take from spawn to the end of `connect` (watchdog).
    public var launchLimit: Duration = .seconds(20)
    /// Launch limits of particular scenes, by scene identifier, in place of `launchLimit`
    /// (an app known to start slowly; a hung worker's scene among healthy ones).
    public var sceneLaunchLimits: [String: Duration] = [:]
    /// How long any other transition may take (watchdog).
    public var transitionLimit: Duration = .seconds(5)
    /// How long a running worker may take to exit after `terminate`.
    public var terminateLimit: Duration = .seconds(5)
    /// How long a background task may hold a worker running.
    public var backgroundTaskLimit: Duration = .seconds(30)
    /// A limit on the workers' total resident memory in bytes; nil for none.
    public var memoryLimitBytes: Int? = nil
    /// How often the host compares the workers' total resident memory with `memoryLimitBytes`.
    public var memoryCheckInterval: Duration = .milliseconds(250)
    /// Restart scenes whose worker died unexpectedly; nil for never (the default).
    /// `SceneHandle.setRestartPolicy(_:)` overrides it per scene.
    public var restartPolicy: RestartPolicy? = nil
    /// The argv that starts a worker.
    public var worker: [String]
    /// The environment every worker starts with; nil (the default) inherits the host's. Each
    /// test may give its workers their own `HOME`, for example, so that `UserDefaults` do not
    /// leak between tests. Workers also get `SCENEHOST_HOST_PID` either way.
    public var workerEnvironment: [String: String]? = nil
    /// How many workers of `worker`'s argv the host keeps started ahead of need once it has
    /// launched one, as iOS prewarms apps: a launch then takes a waiting worker instead of
    /// spawning one (docs/LIFECYCLE.md §4, Prewarming). 0 spawns every worker at its launch.
    public var prewarmedWorkers: Int = 1
    /// How many app processes (`connect`'s `app`) run on with no scene in them, suspended, as
    /// a device keeps apps in the background: when one more is left without a scene, the one
    /// left longest ago is killed, suspended or not yet, as the system reclaims a background
    /// app, and a `host` event `appReclaimed` records it (LIFECYCLE.md §4a).
    /// 0 keeps none; a negative value counts as 0.
    public var maximumIdleAppProcesses: Int = 16
    /// Where sessions are stored durably; nil keeps them in memory.
    public var stateDirectory: String? = nil
    /// The largest frame either side accepts.
    public var maximumFrameSize: Int = 1 << 20
    /// Keep only the newest trace events within about this many bytes in memory (`trace.history`,
    /// `events(fromSeq:)`): 64 MiB unless set. nil keeps every event, for a host whose run is
    /// known to be short; a history with no limit grows with every transition.
    public var traceHistoryLimitBytes: Int? = Self.defaultTraceHistoryLimitBytes
    /// Copy each worker's stderr to the host's stderr, prefixed with scene and pid.
    public var forwardsWorkerStderr: Bool = true
    /// How hard the host works for speed: `.plain` (the default) changes nothing outside
    /// the host's own requests; `.throughput` polls, and changes the affinity and scheduling
    /// class of the host's event loop and of its workers (`HostTuning`).
    public var tuning: HostTuning = .plain

    /// The default of `traceHistoryLimitBytes` (and of `hostctl serve --history-limit-mb`).
    public static let defaultTraceHistoryLimitBytes = 64 << 20

    /// A configuration with LIFECYCLE.md's defaults and the given worker argv.
    public init(worker: [String]) {
        self.worker = worker
    }

    /// The launch limit of the scene `identifier`.
    public func launchLimit(forScene identifier: String) -> Duration {
        sceneLaunchLimits[identifier] ?? launchLimit
    }

    /// How long before the background-task limit the expiration handler runs.
    package var backgroundTaskExpirationLead: Duration {
        Self.backgroundTaskExpirationLead(limit: backgroundTaskLimit)
    }

    /// How long before a background-task limit of `limit` the expiration handler runs.
    package static func backgroundTaskExpirationLead(limit: Duration) -> Duration {
        min(.seconds(5), limit / 5)
    }
}
