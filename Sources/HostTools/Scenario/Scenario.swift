import HostProcess
import Protocol
import SceneModel

/// A scripted simulation: host limits and a list of steps run one after another.
public struct Scenario: Sendable, Hashable {
    /// One step of a scenario file.
    public enum Step: Sendable, Hashable {
        /// An operation on one scene.
        case scene(String, SceneOperation)
        /// Memory pressure on the whole host (LIFECYCLE.md §4).
        case memoryPressure
        /// Wait until a scene reaches an activation state or a process state.
        case waitFor(scene: String, condition: WaitCondition, timeout: Duration)
        case sleep(Duration)
        case quit
    }

    /// What `waitFor` waits for.
    public enum WaitCondition: Sendable, Hashable {
        case state(ActivationState)
        case process(ProcessState)
    }

    /// A step and whether its failure is expected (`"expectError": true`).
    public struct Entry: Sendable, Hashable {
        public var step: Step
        public var expectsError: Bool
        public init(_ step: Step, expectsError: Bool = false) {
            self.step = step
            self.expectsError = expectsError
        }
    }

    /// Limit overrides from the `config` object, applied to a base configuration.
    public struct Limits: Sendable, Hashable {
        public var suspendDelay: Duration?
        public var launchLimit: Duration?
        public var transitionLimit: Duration?
        public var terminateLimit: Duration?
        public var backgroundTaskLimit: Duration?
        public var memoryLimitBytes: Int?
        public var memoryCheckInterval: Duration?
        public var worker: [String]?
        public var stateDirectory: String?
        public var restartPolicy: RestartPolicy?
        public var prewarmedWorkers: Int?
        /// `HostConfiguration.tuning` (the command line's `--tuning`; not a scenario field).
        public var tuning: HostTuning?
        public init() {}

        /// `base` with these overrides applied.
        public func applied(to base: HostConfiguration) -> HostConfiguration {
            var configuration = base
            if let suspendDelay { configuration.suspendDelay = suspendDelay }
            if let launchLimit { configuration.launchLimit = launchLimit }
            if let transitionLimit { configuration.transitionLimit = transitionLimit }
            if let terminateLimit { configuration.terminateLimit = terminateLimit }
            if let backgroundTaskLimit { configuration.backgroundTaskLimit = backgroundTaskLimit }
            if let memoryLimitBytes { configuration.memoryLimitBytes = memoryLimitBytes }
            if let memoryCheckInterval { configuration.memoryCheckInterval = memoryCheckInterval }
            if let worker { configuration.worker = worker }
            if let stateDirectory { configuration.stateDirectory = stateDirectory }
            if let restartPolicy { configuration.restartPolicy = restartPolicy }
            if let prewarmedWorkers { configuration.prewarmedWorkers = prewarmedWorkers }
            if let tuning { configuration.tuning = tuning }
            return configuration
        }
    }

    public var limits: Limits
    public var entries: [Entry]

    /// The failure `hostctl fuzz` found, written beside the steps that show it
    /// (`"fuzzFailure": {"kind": …, "message": …}`): `fuzz --replay` tells whether a replay
    /// fails the same way; `run` ignores it.
    public struct RecordedFailure: Sendable, Hashable {
        public var kind: String
        public var message: String
        public init(kind: String, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    public var recordedFailure: RecordedFailure?

    public init(limits: Limits = Limits(), entries: [Entry], recordedFailure: RecordedFailure? = nil) {
        self.limits = limits
        self.entries = entries
        self.recordedFailure = recordedFailure
    }
}
