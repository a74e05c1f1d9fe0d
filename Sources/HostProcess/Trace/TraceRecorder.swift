import Glibc
import Protocol
import Synchronization

/// The host-wide trace: assigns the global sequence number and the timestamp, checks
/// every scene event against the lifecycle model, appends it to the trace file and
/// hands it to subscribers, all under one lock so that `seq` order is file order.
public final class TraceRecorder: Sendable {
    /// What `record` did with a scene event the model does not allow.
    public enum Outcome: Sendable, Equatable {
        case recorded(TraceEvent)
        /// The event broke the model and was not recorded; an `error` event was recorded instead.
        case rejected(LifecycleViolation)
    }

    private struct State: ~Copyable {
        var nextSeq = 1
        var checkers: [String: SceneTraceChecker] = [:]
        var subscribers: [Int: AsyncStream<TraceEvent>.Continuation] = [:]
        var nextSubscriberID = 0
        var history: [TraceEvent] = []
        var fileBuffer: [UInt8] = []
    }

    private let state = Mutex(State())
    private let start: ContinuousClock.Instant
    private let fileDescriptor: Int32?
    private let keepsHistory: Bool

    /// Creates a recorder. `path`: where to write JSON Lines (truncated first), or nil.
    /// `keepHistory`: keep every event in memory (for timelines and tests).
    public init(path: String? = nil, keepHistory: Bool = true) throws(HostError) {
        self.start = .now
        self.keepsHistory = keepHistory
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

    /// Records `event`, assigning `seq` and `t`. Scene events are checked against the model first.
    @discardableResult
    public func record(_ event: TraceEvent) -> Outcome {
        state.withLock { state in
            // Read under the lock, so that `t` never decreases along `seq`.
            let time = elapsed
            var event = event
            event.time = time
            event.seq = state.nextSeq
            if let scene = event.scene {
                var checker = state.checkers[scene] ?? SceneTraceChecker()
                if let violation = checker.check(event) {
                    let error = TraceEvent(
                        seq: state.nextSeq,
                        time: time,
                        kind: .error,
                        scene: scene,
                        name: event.name,
                        viewController: event.viewController,
                        op: "protocol",
                        code: ProtocolError.Code.invalidMessage.rawValue,
                        message: "model violation: expected \(violation.expected), got \(violation.got)"
                    )
                    append(error, to: &state)
                    return .rejected(violation)
                }
                state.checkers[scene] = checker
            }
            append(event, to: &state)
            return .recorded(event)
        }
    }

    private func append(_ event: TraceEvent, to state: inout State) {
        state.nextSeq += 1
        if keepsHistory { state.history.append(event) }
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

    /// Every event recorded so far (empty unless the recorder keeps history).
    public var history: [TraceEvent] {
        state.withLock { $0.history }
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
        state.withLock { $0.checkers[scene] }
    }
}
