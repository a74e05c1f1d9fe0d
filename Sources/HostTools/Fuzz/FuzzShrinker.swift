import HostProcess
import Protocol

/// Delta debugging over a failing run's steps (ddmin), then over their values: the smallest
/// run found that fails the same way. Each try is a whole run against a fresh worker.
struct FuzzShrinker {
    let host: SceneHost
    let configuration: FuzzConfiguration
    /// Runs tried.
    private(set) var attempts = 0
    /// At most this many runs are tried.
    static let maximumAttempts = 400
    /// No run is started after this (nil: only the attempts count).
    let deadline: ContinuousClock.Instant?

    init(host: SceneHost, configuration: FuzzConfiguration, deadline: ContinuousClock.Instant? = nil) {
        self.host = host
        self.configuration = configuration
        self.deadline = deadline
    }

    /// Whether another run may be tried.
    private var mayTry: Bool {
        attempts < Self.maximumAttempts && deadline.map { ContinuousClock.now < $0 } != false
    }

    mutating func shrink(_ original: FuzzFailure) async -> FuzzFailure {
        var best = original
        // Steps: remove chunks, halving their size until single steps go.
        var granularity = 2
        while best.steps.count >= 2, mayTry {
            let chunk = max(1, best.steps.count / granularity)
            var reduced = false
            var start = 0
            while start < best.steps.count, mayTry {
                var candidate = best.steps
                candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                if let failure = await fails(candidate, like: original) {
                    best = failure
                    reduced = true
                } else {
                    start += chunk
                }
            }
            if reduced {
                granularity = max(granularity - 1, 2)
            } else if chunk == 1 {
                break
            } else {
                granularity = min(granularity * 2, best.steps.count)
            }
        }
        // Values: the simplest text, the first row.
        for index in best.steps.indices where mayTry {
            var candidate = best.steps
            switch candidate[index] {
            case .op(.user(.typeText(let field, let text))) where text != "a":
                candidate[index] = .op(.user(.typeText(field: field, text: "a")))
            case .op(.user(.selectRow(let section, let row))) where row != 0:
                candidate[index] = .op(.user(.selectRow(section: section, row: 0)))
            case .op(.user(.swipeRow(let section, let row, let edge, let action))) where row != 0:
                candidate[index] = .op(.user(.swipeRow(section: section, row: 0, edge: edge, action: action)))
            default:
                continue
            }
            if let failure = await fails(candidate, like: original) { best = failure }
        }
        return best
    }

    /// The failure `steps` run into, when it is `original`'s, twice in a row: an app's
    /// asynchronous work may race the next step, and a failure that came from the race once
    /// must not shrink to steps that do not fail again.
    private mutating func fails(_ steps: [FuzzStep], like original: FuzzFailure) async -> FuzzFailure? {
        var failure: FuzzFailure?
        for _ in 0..<2 {
            attempts += 1
            let outcome = await FuzzRun(configuration, host: host, scene: "shrink-\(attempts)").run(steps)
            guard let found = outcome.failure, found.isSame(as: original) else { return nil }
            failure = found
        }
        return failure
    }
}
