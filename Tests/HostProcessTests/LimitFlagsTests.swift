import CLISupport
import HostTools
import SceneModel
import Testing

@testable import hostctl

/// The limit flags apply over a scenario's `config` field by field: `--restart-limit` and
/// `--restart-window-ms` each replace their half of the restart policy.
@Suite struct LimitFlagsTests {
    private static func limits(restartLimit: Int?, restartWindowMs: Int?) -> Scenario.Limits {
        var limits = Scenario.Limits()
        if let restartLimit {
            limits.restartPolicy = RestartPolicy(
                maximumRestarts: restartLimit,
                window: .milliseconds(restartWindowMs ?? 5000)
            )
        }
        return limits
    }

    @Test func eachRestartFlagReplacesItsHalfOfTheScenariosPolicy() throws {
        let scenario = Self.limits(restartLimit: 2, restartWindowMs: 700)
        var window = LimitFlags.Overrides()
        window.restartWindow = 100
        let windowed = try window.applied(over: scenario, command: "run")
        #expect(windowed.restartPolicy == RestartPolicy(maximumRestarts: 2, window: .milliseconds(100)))
        var limit = LimitFlags.Overrides()
        limit.restartLimit = 5
        let limited = try limit.applied(over: scenario, command: "run")
        #expect(limited.restartPolicy == RestartPolicy(maximumRestarts: 5, window: .milliseconds(700)))
        // No policy anywhere: the flag's limit with the default window.
        let fresh = try limit.applied(over: Scenario.Limits(), command: "run")
        #expect(fresh.restartPolicy == RestartPolicy(maximumRestarts: 5, window: .seconds(5)))
        #expect(throws: UsageError.self) { try window.applied(over: Scenario.Limits(), command: "run") }
    }
}
