/// The outcome of verifying a trace in JSON Lines form.
public struct TraceVerificationResult: Sendable, Hashable {
    /// Events accepted: every event when the trace is valid, else those before the failure.
    public var eventCount: Int
    /// The first failure; nil when the trace is valid.
    public var failure: TraceVerificationFailure?

    public init(eventCount: Int, failure: TraceVerificationFailure?) {
        self.eventCount = eventCount
        self.failure = failure
    }

    /// No failure. (The end of the trace is not checked: a trace may be cut mid-atom, for
    /// example one still being written.)
    public var isValid: Bool { failure == nil }
}

/// The first line of a trace that is not a valid event, or an event the model refuses.
public struct TraceVerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// The line is not a trace event.
        case malformed(TraceDecodingError)
        /// The event breaks the model.
        case violation(LifecycleViolation)
    }

    /// 1-based line number in the file.
    public var line: Int
    public var problem: Problem

    public init(line: Int, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    /// `line 17: seq 17, scene A: expected …, got …` or `line 3: malformed event: …`.
    public var description: String {
        switch problem {
        case .malformed(let error): "line \(line): malformed event: \(error)"
        case .violation(let violation): "line \(line): \(violation)"
        }
    }
}

/// A trace file that could not be read.
public enum TraceFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    /// A line longer than `JSONLinesVerification.maximumLineBytes`: no event the host writes
    /// comes near it, and holding it whole is the one thing a streaming check must not do.
    case lineTooLong(path: String, line: Int, limit: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open trace file \(path): \(reason)"
        case .readFailed(let path, let reason): "cannot read trace file \(path): \(reason)"
        case .lineTooLong(let path, let line, let limit):
            "cannot check trace file \(path): line \(line) is longer than \(limit >> 20) MiB"
        }
    }
}
