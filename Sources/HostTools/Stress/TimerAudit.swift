import HostProcess
import Protocol
import SceneModel

/// The stress audit's check of the host's timers, which a refusal must leave alone: a
/// cancelled timer leaves no event, so it is caught by the event's absence.
///
/// A refusal proves the scene was idle (the host judges a request only when nothing of the
/// scene is in flight), so whatever timer the model's state calls for was armed by then:
/// in the background with a running worker and no background task, the suspension (due
/// `suspendDelay` later); with a background task on a running worker in the background,
/// its expiration and then the kill at the limit. From such a refusal (the anchor) until the scene's next event
/// other than a refusal, or the next request of the scene that may have started a
/// transition, or the host's quit, nothing could hold the timer back. If that quiet stretch
/// lasts longer than the delay plus a slack, the event the timer owed is missing: a
/// violation naming the refusals in the stretch.
package struct TimerAudit: Sendable {
    /// The host's delays, in seconds, as the run configured them.
    package struct Timing: Sendable, Hashable {
        package var suspendDelay: Double
        /// From a background task's start to its expiration handler.
        package var expiration: Double
        /// From a background task's start to the kill.
        package var backgroundTaskLimit: Double
        /// The least a timer's event may be late (`StressOptions.timerSlack`).
        package var minimumSlack: Double

        package init(suspendDelay: Double, expiration: Double, backgroundTaskLimit: Double, minimumSlack: Double) {
            self.suspendDelay = suspendDelay
            self.expiration = expiration
            self.backgroundTaskLimit = backgroundTaskLimit
            self.minimumSlack = minimumSlack
        }

        package init(_ configuration: HostConfiguration, minimumSlack: Double) {
            suspendDelay = StressUnits.seconds(configuration.suspendDelay)
            expiration = StressUnits.seconds(
                configuration.backgroundTaskLimit - configuration.backgroundTaskExpirationLead
            )
            backgroundTaskLimit = StressUnits.seconds(configuration.backgroundTaskLimit)
            self.minimumSlack = minimumSlack
        }

        /// How late a timer's event may be on a loaded machine: timers fire from the event
        /// loop, which a busy 2-core machine may hold back for a while, and a suspension is
        /// recorded only once the kernel has stopped every thread of the worker, which waits
        /// for the worker to be scheduled.
        package func slack(for delay: Double) -> Double { max(minimumSlack, 10 * delay) }

        /// The longest a healthy host takes to fire every timer a scene owes, slack included.
        package var settleLimit: Double {
            [suspendDelay, expiration, backgroundTaskLimit].map { $0 + slack(for: $0) }.max()! + 0.5
        }
    }

    /// What the scene's state owes from the anchor on.
    private enum Owed {
        case suspension
        case expiration
        case kill

        package func delay(_ timing: Timing) -> Double {
            switch self {
            case .suspension: timing.suspendDelay
            case .expiration: timing.expiration
            case .kill: timing.backgroundTaskLimit
            }
        }

        /// Whether `event` is what was owed.
        package func isPaid(by event: TraceEvent) -> Bool {
            switch self {
            case .suspension: event.processEvent == .suspended
            case .expiration: event.name == CallbackName.backgroundTaskExpiration.rawValue
            case .kill: event.processEvent == .exited
            }
        }

        package var description: String {
            switch self {
            case .suspension: "background, worker running, no background task: a suspended event"
            case .expiration: "a running background task: its backgroundTaskExpiration"
            case .kill: "an expired background task: the kill at the limit"
            }
        }
    }

    private struct Stretch {
        package var owed: Owed
        package var anchorSeq: Int
        package var anchorTime: Double
        package var refusals: [String] = []
        package var refusalCount = 0
    }

    package let timing: Timing
    private let log: ViolationLog
    private var open: [String: Stretch] = [:]
    /// Host-wide stalls that held timers back, with the scenes concerned.
    private var stalls: [SceneActivity.Silence: [String]] = [:]
    /// Quiet stretches that lasted long enough for the owed event to be due, and ended with it.
    package private(set) var kept = 0

    /// `activity`, passed to `event` and `quit`, must hold every request sent up to the event.
    package init(timing: Timing, log: ViolationLog) {
        self.timing = timing
        self.log = log
    }

    /// A refusal of `op` at `event`, the scene's model state being `snapshot`.
    package mutating func refusal(_ event: TraceEvent, scene: String, op: String, snapshot: SceneSnapshot) {
        if open[scene] == nil {
            guard snapshot.process == .running else { return }
            let owed: Owed
            // Every timer here runs in the background only: a background task's clock too
            // (LIFECYCLE.md §4, as UIKit's backgroundTimeRemaining).
            guard snapshot.activation == .background else { return }
            switch snapshot.backgroundTask {
            case .none: owed = .suspension
            case .running: owed = .expiration
            case .expired: owed = .kill
            }
            open[scene] = Stretch(owed: owed, anchorSeq: event.seq, anchorTime: event.time)
        }
        open[scene]!.refusalCount += 1
        if open[scene]!.refusals.count < 5 { open[scene]!.refusals.append("\(op) (seq \(event.seq))") }
    }

    /// Any other event of the scene: the quiet stretch, if one is open, ends here.
    package mutating func event(_ event: TraceEvent, scene: String, activity: SceneActivity) {
        guard let stretch = open.removeValue(forKey: scene) else { return }
        if judge(stretch, scene: scene, end: event.time, endSeq: event.seq, activity: activity),
            stretch.owed.isPaid(by: event)
        {
            kept += 1
        }
    }

    /// The host quits at `event`: every open stretch ends.
    package mutating func quit(_ event: TraceEvent, activity: SceneActivity) {
        for (scene, stretch) in open.sorted(by: { $0.key < $1.key }) {
            _ = judge(stretch, scene: scene, end: event.time, endSeq: event.seq, activity: activity)
        }
        open = [:]
    }

    /// Reports each host-wide stall that held a timer back (call once, at the end).
    package mutating func reportStalls() {
        for (silence, scenes) in stalls.sorted(by: { $0.key.startSeq < $1.key.startSeq }) {
            log.record(
                "seq \(silence.startSeq)...\(silence.endSeq): the host recorded nothing at all for"
                    + " \(Self.format(silence.end - silence.start)) s (t=\(Self.format(silence.start)) s) while"
                    + " \(silence.waiting) requests waited for their answer (\(silence.refusedWaiting) of them to be"
                    + " refused, which takes no worker): the host stood still, and held back the timers that"
                    + " scenes \(scenes.sorted().joined(separator: ", ")) owed"
            )
        }
        stalls = [:]
    }

    /// Whether the stretch was within the limit; reports it when it was not.
    private mutating func judge(
        _ stretch: Stretch,
        scene: String,
        end: Double,
        endSeq: Int,
        activity: SceneActivity
    ) -> Bool {
        let delay = stretch.owed.delay(timing)
        let slack = timing.slack(for: delay)
        let limit = stretch.anchorTime + delay + slack
        guard end > limit else { return true }
        // A request of the scene may have started a transition within the limit (its
        // first event comes later): the timer may have found the scene busy.
        if activity.requestOverlaps(scene: scene, since: stretch.anchorTime, until: limit) { return true }
        // The whole host stood still meanwhile (nothing recorded while requests waited), and
        // without that stall the event would have been in time: the stall is the defect,
        // reported once, naming the scenes whose timers it held back.
        if let silence = activity.silence(since: stretch.anchorTime, until: end),
            end - stretch.anchorTime - (silence.end - silence.start) <= delay + slack
        {
            stalls[silence, default: []].append(scene)
            return false
        }
        // The host was slow rather than stuck (a loaded machine: it recorded a little now and
        // then while requests it was to refuse waited): the time it stood still between its
        // events held the timer back as much as its answers, and is no refusal's doing.
        if end - stretch.anchorTime - activity.lag(since: stretch.anchorTime, until: end) <= delay + slack {
            return true
        }
        let shown = stretch.refusals.joined(separator: ", ")
        let more =
            stretch.refusalCount > stretch.refusals.count
            ? " and \(stretch.refusalCount - stretch.refusals.count) more" : ""
        log.record(
            "seq \(stretch.anchorSeq), scene \(scene): \(stretch.owed.description) was due within"
                + " \(Self.format(delay)) s (+\(Self.format(slack)) s slack) of this refusal, but the scene's next"
                + " event (seq \(endSeq)) came \(Self.format(end - stretch.anchorTime)) s later;"
                + " refusals in between: \(shown)\(more) (on a loaded machine, give a larger --timer-slack-ms)"
        )
        return false
    }

    private static func format(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
