import Protocol

/// When each scene may have been busy, for the audit's checks that rest on a scene having
/// been quiet: the trace times of the requests that were not refused (each may have started
/// a transition before its first event) and of the scene's events other than refusals.
struct SceneActivity {
    /// Per scene: the requests that may have started a transition, sorted by when they were
    /// sent, with the latest completion among each prefix.
    private struct Requests {
        var sent: [Double] = []
        var latestCompletion: [Double] = []
    }

    private var requests: [String: Requests] = [:]
    /// Per scene: the times of its events other than refusals, in trace order.
    private var events: [String: [Double]] = [:]
    /// Stretches of at least `Silence.minimum` in which the host recorded nothing at all
    /// while a request (of any scene) waited for its answer across the whole stretch: the
    /// host stood still (a refusal takes no worker, so it cannot have been waiting for one).
    private(set) var silences: [Silence] = []

    struct Silence: Sendable, Hashable {
        /// The last event before and the first after.
        var startSeq: Int
        var start: Double
        var endSeq: Int
        var end: Double
        /// Requests sent before it and answered after it.
        var waiting: Int
        var refusedWaiting: Int

        static let minimum = 1.0
    }

    /// `spans`: per scene, the (sent, completed) trace times of its requests that were not
    /// refused; a request never answered completes at infinity. `refusedSpans`: the same for
    /// the refused requests of every scene.
    init(
        spans: [String: [(sent: Double, completed: Double)]],
        refusedSpans: [(sent: Double, completed: Double)] = [],
        history: [TraceEvent]
    ) {
        for (scene, list) in spans {
            var entry = Requests()
            var latest = -Double.infinity
            for span in list.sorted(by: { $0.sent < $1.sent }) {
                latest = max(latest, span.completed)
                entry.sent.append(span.sent)
                entry.latestCompletion.append(latest)
            }
            requests[scene] = entry
        }
        var previous: TraceEvent?
        for event in history {
            if let previous, event.time - previous.time >= Silence.minimum {
                silences.append(
                    Silence(
                        startSeq: previous.seq,
                        start: previous.time,
                        endSeq: event.seq,
                        end: event.time,
                        waiting: 0,
                        refusedWaiting: 0
                    )
                )
            }
            previous = event
            guard let scene = event.scene, !Self.isRefusal(event) else { continue }
            events[scene, default: []].append(event.time)
        }
        guard !silences.isEmpty else { return }
        for index in silences.indices {
            let silence = silences[index]
            for list in spans.values {
                silences[index].waiting += list.count { $0.sent < silence.start && $0.completed > silence.end }
            }
            silences[index].refusedWaiting = refusedSpans.count {
                $0.sent < silence.start && $0.completed > silence.end
            }
            silences[index].waiting += silences[index].refusedWaiting
        }
        silences.removeAll { $0.waiting == 0 }
    }

    /// The host-wide silence within `since...until` that covers most of it, if any.
    func silence(since: Double, until: Double) -> Silence? {
        silences.filter { $0.start >= since && $0.end <= until }.max { $0.end - $0.start < $1.end - $1.start }
    }

    static func isRefusal(_ event: TraceEvent) -> Bool {
        event.kind == .error && event.code == ProtocolError.Code.illegalTransition.rawValue && event.op != nil
    }

    /// Whether a request of `scene` sent at or before `until` was still unanswered after `since`.
    func requestOverlaps(scene: String, since: Double, until: Double) -> Bool {
        guard let entry = requests[scene] else { return false }
        let count = Self.count(entry.sent, atMost: until)
        return count > 0 && entry.latestCompletion[count - 1] > since
    }

    /// Whether the scene has an event other than a refusal within `since...until`.
    func eventOverlaps(scene: String, since: Double, until: Double) -> Bool {
        guard let times = events[scene] else { return false }
        let count = Self.count(times, atMost: until)
        return count > 0 && times[count - 1] >= since
    }

    /// How many of the sorted `values` are at most `limit`.
    private static func count(_ values: [Double], atMost limit: Double) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= limit { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
