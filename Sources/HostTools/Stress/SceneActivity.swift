import HostProcess
import Protocol
import SceneModel

/// When each scene may have been busy, for the audit's checks that rest on a scene having
/// been quiet: the trace times of the requests that were not refused (each may have started
/// a transition before its first event) and of the scene's events other than refusals.
///
/// Built as the run goes: the requests of a round are added once they were all answered,
/// then the round's events are fed in trace order, so only times are kept, never events.
package struct SceneActivity: Sendable {
    /// Per scene: the requests that may have started a transition, sorted by when they were
    /// sent, with the latest completion among each prefix.
    private struct Requests: Sendable {
        package var sent: [Double] = []
        package var completed: [Double] = []
        package var latestCompletion: [Double] = []

        package mutating func append(_ span: Span) {
            sent.append(span.sent)
            completed.append(span.completed)
            latestCompletion.append(max(latestCompletion.last ?? -.infinity, span.completed))
        }
    }

    /// A request's trace times (`completed`: infinity when it was never answered).
    package typealias Span = (sent: Double, completed: Double)
    /// A refused request's trace times and scene.
    package typealias RefusedSpan = (sent: Double, completed: Double, scene: String)

    private var requests: [String: Requests] = [:]
    /// Every span of a request that was not refused, and of one that was.
    private var spans: [Span] = []
    private var refusedSpans: [RefusedSpan] = []
    /// Per scene: the times of its events other than refusals, in trace order.
    private var events: [String: [Double]] = [:]
    /// The last event fed: a silence ends at the next.
    private var previous: (seq: Int, time: Double)?
    /// Stretches of at least `Silence.minimum` in which the host recorded nothing at all
    /// while a request (of any scene) waited for its answer across the whole stretch: the
    /// host stood still (a refusal takes no worker, so it cannot have been waiting for one).
    package private(set) var silences: [Silence] = []
    /// Gaps of at least `lagGapMinimum` between two consecutive events of the host, in trace
    /// order: where a loaded host may have stood still for a while (see `lag`).
    private var gaps: [(start: Double, end: Double)] = []

    /// The shortest gap `lag` looks at: far above the host's turn when it is not starved.
    package static let lagGapMinimum = 0.05

    package struct Silence: Sendable, Hashable {
        /// The last event before and the first after.
        package var startSeq: Int
        package var start: Double
        package var endSeq: Int
        package var end: Double
        /// Requests sent before it and answered after it.
        package var waiting: Int
        package var refusedWaiting: Int

        package static let minimum = 1.0
    }

    package init() {}

    /// Adds requests: per scene, the (sent, completed) trace times of those that were not
    /// refused (`spans`), and of the refused ones of every scene (`refused`). Requests are
    /// added before the events recorded while they were under way.
    package mutating func add(spans new: [String: [Span]], refused: [RefusedSpan]) {
        for (scene, list) in new {
            var entry = requests[scene] ?? Requests()
            let sorted = list.sorted { $0.sent < $1.sent }
            if let last = entry.sent.last, let first = sorted.first, first.sent < last {
                // Out of order (a caller adding rounds out of order): sorted again from scratch.
                var all = zip(entry.sent, entry.completed).map { (sent: $0, completed: $1) } + sorted
                all.sort { $0.sent < $1.sent }
                entry = Requests()
                for span in all { entry.append(span) }
            } else {
                for span in sorted { entry.append(span) }
            }
            requests[scene] = entry
            spans += list
        }
        refusedSpans += refused
    }

    /// The next event, in trace order.
    package mutating func feed(_ event: TraceEvent) {
        if let previous, event.time - previous.time >= Self.lagGapMinimum {
            gaps.append((previous.time, event.time))
        }
        if let previous, event.time - previous.time >= Silence.minimum {
            let start = previous.time
            let end = event.time
            let refusedWaiting = refusedSpans.count { $0.sent < start && $0.completed > end }
            let waiting = spans.count { $0.sent < start && $0.completed > end } + refusedWaiting
            if waiting > 0 {
                silences.append(
                    Silence(
                        startSeq: previous.seq,
                        start: start,
                        endSeq: event.seq,
                        end: end,
                        waiting: waiting,
                        refusedWaiting: refusedWaiting
                    )
                )
            }
        }
        previous = (event.seq, event.time)
        guard let scene = event.scene, !Self.isRefusal(event) else { return }
        events[scene, default: []].append(event.time)
    }

    /// The host-wide silence within `since...until` that covers most of it, if any.
    package func silence(since: Double, until: Double) -> Silence? {
        silences.filter { $0.start >= since && $0.end <= until }.max { $0.end - $0.start < $1.end - $1.start }
    }

    /// How long, within `since...until`, the host recorded nothing while a request it was to
    /// refuse waited across the whole gap, that request's scene running nothing else from
    /// when it was sent (so the wait was the host's own: a refusal takes no worker): the time
    /// a loaded host demonstrably stood still between its events, which held its timers back
    /// as much as its answers. Only gaps shorter than a `Silence`: the host recorded something
    /// now and then, slow, not stuck (a silence is a stall, reported as such). Rarely asked:
    /// only of a quiet stretch that outlasted its limit.
    package func lag(since: Double, until: Double) -> Double {
        var index = 0
        var high = gaps.count
        while index < high {
            let middle = (index + high) / 2
            if gaps[middle].start < since { index = middle + 1 } else { high = middle }
        }
        var total = 0.0
        while index < gaps.count, gaps[index].end <= until {
            let gap = gaps[index]
            index += 1
            guard gap.end - gap.start < Silence.minimum else { continue }
            let waited = refusedSpans.contains { span in
                span.sent < gap.start && span.completed > gap.end
                    && !requestOverlaps(scene: span.scene, since: span.sent, until: gap.end)
            }
            if waited { total += gap.end - gap.start }
        }
        return total
    }

    package static func isRefusal(_ event: TraceEvent) -> Bool {
        event.kind == .error && event.code == ProtocolError.Code.illegalTransition.rawValue && event.op != nil
    }

    /// Whether a request of `scene` sent at or before `until` was still unanswered after `since`.
    package func requestOverlaps(scene: String, since: Double, until: Double) -> Bool {
        guard let entry = requests[scene] else { return false }
        let count = Self.count(entry.sent, atMost: until)
        return count > 0 && entry.latestCompletion[count - 1] > since
    }

    /// Whether the scene has an event other than a refusal within `since...until`.
    package func eventOverlaps(scene: String, since: Double, until: Double) -> Bool {
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
