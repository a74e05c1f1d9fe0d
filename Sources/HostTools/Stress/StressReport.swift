import HostProcess
import Protocol

/// What a stress run measured and every invariant it found broken.
public struct StressReport: Sendable {
    public var options: StressOptions
    /// Every violation found (each also reported as one line while the run went on).
    public var violationCount = 0
    /// The first violations' descriptions (at most `StressReport.keptViolations`).
    public var violations: [String] = []
    /// SIGKILLs sent from outside the host.
    public var kills = 0
    /// Requests that completed normally, were refused (`illegal-transition`), or failed
    /// (typically: the worker died under them).
    public var accepted = 0
    public var refused = 0
    public var failed = 0
    /// Trace events recorded.
    public var events = 0
    /// Workers spawned.
    public var workers = 0
    /// The clients' phase (for the scale check: until every scene connected).
    public var elapsed: Duration = .zero
    /// How long `quit()` took.
    public var quitDuration: Duration = .zero
    /// Request latency percentiles, in microseconds.
    public var latencyP50 = 0
    public var latencyP99 = 0
    /// The process's open descriptors before the host started and after it quit.
    public var descriptorsBefore: Int?
    public var descriptorsAfter: Int?
    /// The host process's resident memory (VmRSS) after the clients' phase and its peak (VmHWM), in kB.
    public var residentKB: Int?
    public var peakResidentKB: Int?
    /// Quiet stretches after a refusal that lasted until a timer was due and ended with the
    /// timer's event (a suspension, an expiration, a kill): the timer audit at work.
    public var timersKept = 0
    /// `openURL` requests answered (accepted, refused or failed).
    public var openURLs = 0
    /// Windows the apps asked for and the host opened or brought forward
    /// (`requestSceneSessionActivation`), and closed (`requestSceneSessionDestruction`).
    public var windowsOpened = 0
    public var windowsClosed = 0
    /// Workers spawned for the windows the apps opened (scenes no client request went to).
    public var appSceneWorkers = 0
    /// Kills (of `kills`) that hit one of those workers.
    public var appSceneKills = 0
    /// Scale check: scenes that reached `foregroundActive`.
    public var connected = 0

    package static let keptViolations = 1000

    public init(options: StressOptions) {
        self.options = options
    }

    /// Requests per second over the clients' phase (refused ones included).
    public var opsPerSecond: Double {
        let seconds = StressUnits.seconds(elapsed)
        return seconds > 0 ? Double(accepted + refused + failed) / seconds : 0
    }

    /// Accepted requests (transitions carried out by a worker) per second.
    public var transitionsPerSecond: Double {
        let seconds = StressUnits.seconds(elapsed)
        return seconds > 0 ? Double(accepted) / seconds : 0
    }

    /// The one-line summary `hostctl stress` ends with.
    public var summaryLine: String {
        let head =
            "ops=\(options.ops) scenes=\(options.scenes) clients=\(options.isScaleRun ? options.scenes : options.clients)"
            + " seed=\(options.seed) kills=\(kills) violations=\(violationCount)"
        let rates = " ops/s=\(Int(opsPerSecond.rounded())) p50=\(latencyP50)us p99=\(latencyP99)us"
        if options.isScaleRun {
            return head + rates + " connected=\(connected) connect=\(StressUnits.milliseconds(elapsed))ms"
                + " quit=\(StressUnits.milliseconds(quitDuration))ms"
                + " rss=\(residentKB.map(String.init) ?? "?")kB hwm=\(peakResidentKB.map(String.init) ?? "?")kB"
        }
        return head + rates
    }

    /// The rest of the figures, one line.
    public var detailLine: String {
        var parts = [
            "mix=\(options.mix.rawValue)", "accepted=\(accepted)", "refused=\(refused)", "failed=\(failed)",
            "transitions/s=\(Int(transitionsPerSecond.rounded()))", "events=\(events)", "workers=\(workers)",
            "timers=\(timersKept)", "openURL=\(openURLs)", "appWindows=\(windowsOpened)/\(windowsClosed)",
            "appWorkers=\(appSceneWorkers)", "appKills=\(appSceneKills)",
            "elapsed=\(StressUnits.milliseconds(elapsed))ms", "quit=\(StressUnits.milliseconds(quitDuration))ms",
        ]
        if let before = descriptorsBefore, let after = descriptorsAfter { parts.append("fds=\(before)->\(after)") }
        if let residentKB { parts.append("rss=\(residentKB)kB") }
        if let peakResidentKB { parts.append("hwm=\(peakResidentKB)kB") }
        return parts.joined(separator: " ")
    }

    /// Everything as one JSON object (one line).
    public var jsonLine: String {
        var object: [String: JSONValue] = [
            "ops": .int(options.ops),
            "scenes": .int(options.scenes),
            "clients": .int(options.isScaleRun ? options.scenes : options.clients),
            "seed": Int(exactly: options.seed).map(JSONValue.int) ?? .string(String(options.seed)),
            "killRate": .double(options.killRate),
            "mix": .string(options.mix.rawValue),
            "kills": .int(kills),
            "violations": .int(violationCount),
            "violationList": .array(violations.map(JSONValue.string)),
            "accepted": .int(accepted),
            "refused": .int(refused),
            "failed": .int(failed),
            "events": .int(events),
            "workers": .int(workers),
            "timers": .int(timersKept),
            "openURLs": .int(openURLs),
            "appWindowsOpened": .int(windowsOpened),
            "appWindowsClosed": .int(windowsClosed),
            "appWorkers": .int(appSceneWorkers),
            "appKills": .int(appSceneKills),
            "elapsedMs": .int(StressUnits.milliseconds(elapsed)),
            "quitMs": .int(StressUnits.milliseconds(quitDuration)),
            "opsPerSecond": .int(Int(opsPerSecond.rounded())),
            "transitionsPerSecond": .int(Int(transitionsPerSecond.rounded())),
            "p50us": .int(latencyP50),
            "p99us": .int(latencyP99),
        ]
        if options.isScaleRun { object["connected"] = .int(connected) }
        if let descriptorsBefore { object["fdsBefore"] = .int(descriptorsBefore) }
        if let descriptorsAfter { object["fdsAfter"] = .int(descriptorsAfter) }
        if let residentKB { object["vmRSSkB"] = .int(residentKB) }
        if let peakResidentKB { object["vmHWMkB"] = .int(peakResidentKB) }
        return JSONValue.object(object).jsonText
    }
}

/// Duration conversions for the tools' figures (stress, fuzz).
package enum StressUnits {
    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    package static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }

    package static func microseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000)
    }
}
