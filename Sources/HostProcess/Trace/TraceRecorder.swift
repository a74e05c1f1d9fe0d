import Glibc
import Protocol

/// The host-wide trace: assigns the global sequence number and the timestamp, checks
/// every event against the lifecycle model, appends it to the trace file and hands it to
/// subscribers, all under one lock so that `seq` order is file order.
///
/// Who made an event decides what a rejection means. A worker's callback the model refuses
/// is the worker's protocol violation, a valid outcome: an `error` event is recorded in its
/// place (and the caller kills the worker). Every other event is the host's own, and one
/// the model refuses is a defect of the host: it is recorded as it is, so the trace fails
/// `hostctl verify`, and counted in `hostDefects`.
public final class TraceRecorder: Sendable {
    /// Who made an event.
    public enum Author: Sendable, Hashable {
        /// The host: state, process, host and error events, and the callbacks it records
        /// itself (`didDiscardSceneSessions`).
        case host
        /// A worker: a callback it reported.
        case worker
    }

    /// What `record` did with an event.
    public enum Outcome: Sendable, Equatable {
        /// Recorded as given (with its `seq` and `t`); a host's event the model refuses too,
        /// counted in `hostDefects`.
        case recorded(TraceEvent)
        /// A worker's event broke the model and was not recorded; an `error` event was
        /// recorded instead.
        case rejected(LifecycleViolation)
    }

    /// The host's own events the model refused, the first few of them.
    public struct HostDefects: Sendable, Equatable {
        /// How many there were.
        public var count = 0
        /// The first `HostDefects.kept` of them, oldest first.
        public var first: [LifecycleViolation] = []
        /// How many are kept in `first`: one is enough to fail a test, a few help to read it.
        public static let kept = 8
    }

    private struct State: ~Copyable {
        var nextSeq = 1
        var verifier = TraceVerifier()
        var hostDefects = HostDefects()
        var subscribers: [Int: AsyncStream<TraceEvent>.Continuation] = [:]
        var nextSubscriberID = 0
        /// The events held in memory, oldest first.
        var history = TraceHistory()
        /// Roughly what the held events occupy, against `historyLimitBytes`.
        var historyBytes = 0
        var fileBuffer: [UInt8] = []
    }

    private let state = Locked(State())
    private let start: ContinuousClock.Instant
    private let fileDescriptor: Int32?
    private let keepsHistory: Bool
    private let historyLimitBytes: Int?

    /// Creates a recorder. `path`: where to write JSON Lines (truncated first), or nil.
    /// `keepHistory`: keep events in memory (for `events(fromSeq:)`, timelines and tests);
    /// `historyLimitBytes`: keep only the newest events within about this many bytes (a
    /// long-running host: the file, if any, still has every event), nil for all of them.
    public init(path: String? = nil, keepHistory: Bool = true, historyLimitBytes: Int? = nil) throws(HostError) {
        self.start = .now
        self.keepsHistory = keepHistory
        self.historyLimitBytes = historyLimitBytes
        if let path {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw HostError.io("cannot open trace file \(path): \(String(cString: strerror(errno)))")
            }
            self.fileDescriptor = fd
        } else {
            self.fileDescriptor = nil
        }
    }

    deinit {
        if let fileDescriptor { close(fileDescriptor) }
    }

    /// Seconds since the recorder started.
    public var elapsed: Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Records `event`, assigning `seq` and `t`, and checks it against the model first;
    /// `author` decides what a refusal means (see the type's summary).
    @discardableResult
    public func record(_ event: TraceEvent, by author: Author = .host) -> Outcome {
        state.withLock { state in
            // Read under the lock, so that `t` never decreases along `seq`.
            let time = elapsed
            var event = event
            event.time = time
            event.seq = state.nextSeq
            if let violation = state.verifier.check(event) {
                guard author == .worker else {
                    state.hostDefects.count += 1
                    if state.hostDefects.first.count < HostDefects.kept {
                        state.hostDefects.first.append(violation)
                    }
                    append(event, to: &state)
                    return .recorded(event)
                }
                let error = TraceEvent(
                    seq: state.nextSeq,
                    time: time,
                    kind: .error,
                    scene: event.scene,
                    name: event.name,
                    viewController: event.viewController,
                    op: "protocol",
                    code: ProtocolError.Code.invalidMessage.rawValue,
                    message: "model violation: expected \(violation.expected), got \(violation.got)"
                )
                // An error event only takes part in the seq order: it cannot be refused.
                _ = state.verifier.check(error)
                append(error, to: &state)
                return .rejected(violation)
            }
            append(event, to: &state)
            return .recorded(event)
        }
    }

    /// The host's own events that the model refused (each recorded as it was, so the trace
    /// fails verification). Zero in a correct host, whatever its workers do.
    public var hostDefects: HostDefects {
        state.withLock { $0.hostDefects }
    }

    private func append(_ event: TraceEvent, to state: inout State) {
        state.nextSeq += 1
        if keepsHistory {
            state.history.append(event)
            if let historyLimitBytes { Self.evict(&state, toFit: event.estimatedSize, within: historyLimitBytes) }
        }
        if let fileDescriptor {
            state.fileBuffer.removeAll(keepingCapacity: true)
            event.appendJSONLine(to: &state.fileBuffer)
            state.fileBuffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        break
                    }
                    offset += n
                }
            }
        }
        for continuation in state.subscribers.values {
            continuation.yield(event)
        }
    }

    /// Drops the oldest held events until the newest (already appended, `size` bytes) fits.
    private static func evict(_ state: inout State, toFit size: Int, within limit: Int) {
        state.historyBytes += size
        while state.historyBytes > limit, state.history.count > 1 {
            state.historyBytes -= state.history.removeFirst().estimatedSize
        }
    }

    /// Every event held in memory, oldest first: all of them, or the newest within the
    /// history limit (empty unless the recorder keeps history).
    public var history: [TraceEvent] {
        state.withLock { $0.history.events }
    }

    /// The `seq` of the oldest event held in memory; nil when none is.
    public var oldestHeldSeq: Int? {
        state.withLock { $0.history.first?.seq }
    }

    /// A live stream of events, starting with every event already recorded whose seq is at least `fromSeq`.
    public func events(fromSeq: Int = 1) -> AsyncStream<TraceEvent> {
        let (stream, continuation) = AsyncStream<TraceEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            for event in state.history where event.seq >= fromSeq {
                continuation.yield(event)
            }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscriber's stream.
    public func finish() {
        let subscribers = state.withLock { state in
            let subscribers = state.subscribers.values
            state.subscribers.removeAll()
            return Array(subscribers)
        }
        for continuation in subscribers { continuation.finish() }
    }

    /// The model's view of one scene, as the recorded events left it.
    func checker(for scene: String) -> SceneTraceChecker? {
        state.withLock { $0.verifier.checker(forScene: scene) }
    }
}
