import Protocol
import Testing

@testable import HostProcess

/// The stress audit reads the trace round by round from the host's bounded history: a long
/// run holds about a round's events, and events the host dropped before the audit read
/// them are a violation, never a silent gap.
@Suite struct StressAuditFeedTests {
    @Test func aHistoryTooSmallForARoundIsAViolation() async throws {
        var options = StressOptions()
        options.scenes = 2
        options.ops = 200
        options.clients = 2
        options.checksDescriptors = false
        var configuration = StressOptions.configuration(worker: [TestWorker.hostctl, "worker"])
        configuration.traceHistoryLimitBytes = 4096
        let report = try await StressRunner(options: options, configuration: configuration).run()
        #expect(
            report.violations.contains { $0.contains("dropped events") && $0.contains("limit 4096 bytes") },
            "\(report.violations.prefix(5))"
        )
    }

    @Test func theDefaultHistoryHoldsARoundAndTheAuditSeesEveryEvent() async throws {
        var options = StressOptions()
        options.scenes = 3
        options.ops = 400
        options.clients = 3
        options.settles = 4
        options.checksDescriptors = false
        let report = try await StressRunner(
            options: options,
            configuration: StressOptions.configuration(worker: [TestWorker.hostctl, "worker"])
        )
        .run()
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
