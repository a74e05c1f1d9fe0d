import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The stress audit reads the trace round by round from the host's bounded history: a long
/// run holds about a round's events, and events the host dropped before the audit read
/// them are a violation, never a silent gap.
@Suite struct StressAuditFeedTests {
    @Test func aHistoryTooSmallForARoundIsAViolation() async throws {
        let report = try await StressOptions.inTests(scenes: 2, ops: 200, clients: 2).run {
            $0.traceHistoryLimitBytes = 4096
        }
        #expect(
            report.violations.contains { $0.contains("dropped events") && $0.contains("limit 4096 bytes") },
            "\(report.violations.prefix(5))"
        )
        // The drop is reported once, not again as a seq gap at each event after it.
        #expect(
            !report.violations.contains { $0.contains("(the one after") },
            "\(report.violations.filter { $0.contains("(the one after") }.prefix(3))"
        )
    }

    @Test func theDefaultHistoryHoldsARoundAndTheAuditSeesEveryEvent() async throws {
        var options = StressOptions.inTests(scenes: 3, ops: 400, clients: 3)
        options.settles = 4
        let report = try await options.run()
        #expect(report.violationCount == 0, "\(report.violations.joined(separator: "\n"))")
        #expect(report.events > 400)
    }

    @Test func longRunsPauseEveryRoundOfOperations() {
        var options = StressOptions()
        options.ops = 2000
        #expect(options.rounds == options.settles)
        options.ops = 1_000_000
        #expect(options.rounds == 1_000_000 / StressOptions.roundOperations)
        options.ops = 0
        #expect(options.rounds == options.settles)
    }
}
