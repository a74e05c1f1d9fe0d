/// Reconnects a scene whose worker died unexpectedly (`killed`, `crashed`, `watchdog`,
/// `protocol-violation`), with its stored restoration state, unless it died more than
/// `maximumRestarts` times within `window`: then it gives up and says so (the Erlang/OTP
/// restart-intensity rule).
public struct RestartPolicy: Sendable, Hashable {
    public var maximumRestarts: Int
    public var window: Duration

    public init(maximumRestarts: Int, window: Duration) {
        self.maximumRestarts = maximumRestarts
        self.window = window
    }
}

/// The restart history of one scene: a pure value, so the intensity rule has unit tests.
package struct RestartIntensity: Sendable {
    private var restarts: [ContinuousClock.Instant] = []

    /// Whether one more restart at `now` stays within `policy`; records it if so.
    package mutating func allowsRestart(at now: ContinuousClock.Instant, policy: RestartPolicy) -> Bool {
        restarts.removeAll { now - $0 > policy.window }
        guard restarts.count < policy.maximumRestarts else { return false }
        restarts.append(now)
        return true
    }
    package init() {}
}
