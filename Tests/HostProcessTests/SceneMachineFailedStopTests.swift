import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

@Suite struct SceneMachineFailedStopTests {
    /// The kernel did not say stopped within the stop's limit: the scene is not recorded
    /// suspended (never ahead of the kernel), an error says why, and the suspension is armed
    /// again, so it comes once the worker can be stopped.
    @Test func aStopThatTimesOutIsNotRecordedSuspendedAndIsTriedAgain() {
        var harness = SceneMachineHarness()
        harness.connect()
        harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground])
        harness.autoStop = false
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 1)
        harness.feed { $0.stopCompleted(pid: $0.worker?.pid ?? -1, stopped: false) }
        #expect(harness.machine.status.process == .running)
        #expect(!harness.recorded.contains { $0.processEvent == .suspended })
        #expect(harness.recorded.last?.kind == .error && harness.recorded.last?.op == "suspend")
        #expect(harness.machine.isIdle)
        harness.autoStop = true
        harness.advance(by: .milliseconds(50))
        #expect(harness.stops == 2)
        #expect(harness.machine.status.process == .suspended)
        #expect(harness.recorded.last?.processEvent == .suspended)
    }
}
