import HostProcess
import Protocol

/// What broke in a fuzz run, with the steps that led there.
public struct FuzzFailure: Sendable, Hashable, CustomStringConvertible {
    /// Which invariant broke.
    public enum Kind: String, Sendable, Hashable {
        /// The trace does not verify against the lifecycle model.
        case trace
        /// After the system killed the suspended app, the user came back to another screen.
        case restoration
        /// The app died, or was killed by the system, in a legal lifecycle (a crash, a
        /// watchdog, a background task not ended, a protocol violation).
        case killed
        /// An invariant the user wrote (`FuzzInvariant`) does not hold.
        case invariant
        /// A timer of the main run loop fired while the app was in the background with no
        /// background task: on a device it would fire late, on resume, in the background.
        case timer
    }

    public var kind: Kind
    public var message: String
    /// The steps of the run up to the failure, the failing one last.
    public var steps: [FuzzStep]
    /// For `restoration`: the visible tree the user left, and the one the app came back with.
    public var left: JSONValue?
    public var restored: JSONValue?
    /// The run's scene's trace.
    public var events: [TraceEvent] = []
    /// The app never said ready, in this run or any other of the session: the worker is
    /// not a scenehost worker, or not started as one (`--worker` and its arguments), or it
    /// could not be spawned, or died before its handshake. Nothing was fuzzed: a problem of
    /// the setup, not a failure the fuzzer found.
    public var neverStarted = false

    public var description: String { "\(kind.rawValue): \(message)" }

    /// Whether this failure is the one a scenario recorded (`fuzz --replay`), as shrinking
    /// judges sameness.
    public func matches(_ recorded: Scenario.RecordedFailure) -> Bool {
        guard let kind = Kind(rawValue: recorded.kind) else { return false }
        return isSame(as: FuzzFailure(kind: kind, message: recorded.message, steps: []))
    }

    /// Whether `other` is the same failure, for shrinking: the same kind, for a user's
    /// invariant the same one, and for a worker that ended the same way (a crash does not
    /// shrink into a watchdog).
    func isSame(as other: FuzzFailure) -> Bool {
        guard kind == other.kind else { return false }
        return (kind != .invariant && kind != .killed) || message == other.message
    }
}

/// An invariant of the user's: a name, and a check of the visible tree (after every step
/// the scene is active) and the run's trace so far; nil when it holds, else what is wrong.
public struct FuzzInvariant: Sendable {
    public var name: String
    public var check: @Sendable (_ tree: JSONValue, _ events: [TraceEvent]) -> String?

    public init(_ name: String, check: @escaping @Sendable (_ tree: JSONValue, _ events: [TraceEvent]) -> String?) {
        self.name = name
        self.check = check
    }
}
