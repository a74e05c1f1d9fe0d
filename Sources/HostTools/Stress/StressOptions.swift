import HostProcess
import SceneModel

/// What `hostctl stress` runs: how many scenes, operations and concurrent clients, from
/// which seed, and how often a worker is killed from outside the host.
public struct StressOptions: Sendable, Hashable {
    /// Scenes `S0`, `S1`, … the operations are spread over.
    public var scenes = 8
    /// Operations in total, over all clients (kills included). 0 runs the scale check:
    /// every scene connects at once, all must reach `foregroundActive`, then the host quits.
    public var ops = 2000
    /// Concurrent tasks sending the operations.
    public var clients = 4
    /// The operation sequence is a function of the seed (the interleaving is not).
    public var seed: UInt64 = 1
    /// The share of operations (0...1) that SIGKILL a random live worker from outside the host.
    public var killRate = 0.0
    /// Which operations the plan draws from.
    public var mix = Mix.full
    /// How many times the clients pause (the last time before the quit), in equal shares of
    /// the plan, until no scene owes a timer: a suspension or a background task's end. The
    /// audit then sees whether each timer's event came after the last refusals before the
    /// pause: a refusal that cancelled one leaves its event missing.
    public var settles = 10
    /// How late a timer's event (a suspension, a background task's expiration or kill) may
    /// come before the audit calls it missing: at least this, or ten times the timer's delay.
    /// A loaded machine delays the event loop and the kernel's stop of a worker alike.
    public var timerSlack: Duration = .seconds(1)

    /// At most this many operations between two pauses: the audit reads each round's events
    /// at the pause, so the host holds about a round's events, however long the run.
    public static let roundOperations = 2_500
    /// The host's trace history during a run (`HostConfiguration.traceHistoryLimitBytes`,
    /// unless the configuration sets one): far above a round's events.
    public static let traceHistoryLimitBytes = 16 << 20
    /// A scale run's history per scene (a connect and a quit take about 25 events, 20 KB).
    public static let scaleHistoryBytesPerScene = 64 << 10

    /// How many rounds the clients' phase has: `settles`, or more in a long run.
    public var rounds: Int {
        max(1, settles, (max(0, ops) + Self.roundOperations - 1) / Self.roundOperations)
    }

    /// The operation mixes.
    public enum Mix: String, Sendable, Hashable, CaseIterable {
        /// Every operation, workers coming and going (connect, disconnect, terminate).
        case full
        /// Every scene connects first; then only transitions of live workers (no connect,
        /// disconnect or terminate): what the host sustains without process churn.
        case steady
    }
    /// How long a request may wait for its reply (and the host for its quit) before the run
    /// gives up on it and counts a violation.
    public var replyTimeout: Duration = .seconds(120)
    /// Compare the process's open descriptors before and after the run. Only meaningful when
    /// nothing else in the process opens or closes descriptors meanwhile (not in a test
    /// runner that runs other tests in parallel).
    public var checksDescriptors = true

    public init() {}

    /// Whether this is the scale check (`ops` = 0).
    public var isScaleRun: Bool { ops == 0 }

    /// The host limits stress runs with: short enough that suspension and background-task
    /// expiry happen many times in a run, long enough that a loaded machine does not trip
    /// the watchdogs.
    public static func configuration(worker: [String]) -> HostConfiguration {
        var configuration = HostConfiguration(worker: worker)
        configuration.suspendDelay = .milliseconds(20)
        configuration.launchLimit = .seconds(30)
        configuration.transitionLimit = .seconds(10)
        configuration.terminateLimit = .seconds(5)
        configuration.backgroundTaskLimit = .milliseconds(300)
        configuration.forwardsWorkerStderr = false
        // The runner sizes the history for the run (a scale run holds every scene's events).
        configuration.traceHistoryLimitBytes = nil
        return configuration
    }
}
