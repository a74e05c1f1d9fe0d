import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// LIFECYCLE.md §1's one terminal process state: `none` until a worker first runs,
/// `terminated` after any death until the next spawn, the same in `status()`, `waitFor` and
/// the trace checker. Real workers.
@Suite struct TerminalStateTests {
    /// The scenario a user writes after a kill: it used to wait forever (the host said `none`).
    @Test func aScenarioWaitsForTerminatedAfterAKill() async throws {
        let scenario = try Scenario(
            json: Array(
                """
                {"steps": [
                  {"op": "waitFor", "scene": "A", "process": "none", "timeoutMs": 1000},
                  {"op": "connect", "scene": "A"},
                  {"op": "kill", "scene": "A"},
                  {"op": "waitFor", "scene": "A", "process": "terminated", "timeoutMs": 10000},
                  {"op": "connect", "scene": "A", "background": true},
                  {"op": "waitFor", "scene": "A", "process": "suspended", "timeoutMs": 10000},
                  {"op": "terminate", "scene": "A"},
                  {"op": "waitFor", "scene": "A", "process": "terminated", "timeoutMs": 10000}
                ]}
                """.utf8
            )
        )
        let host = try SceneHost(configuration: TestWorker.configuration())
        // ScenarioRunner quits the host, at its end or at the first step that fails.
        try await ScenarioRunner(host: host).run(scenario)
        #expect(host.verifyTrace() == nil)
    }

    /// After an outside SIGKILL, the host's status and the trace checker name the same state.
    @Test func statusAndTraceAgreeAfterADeath() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            #expect(await scene.status().process == .none)
            try await scene.connect()
            let pid = try #require(await scene.status().pid)
            #expect(Glibc.kill(pid, SIGKILL) == 0)
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            var verifier = TraceVerifier()
            for event in host.trace.history { #expect(verifier.check(event) == nil) }
            #expect(verifier.checker(forScene: "A")?.processState == .terminated)
            #expect(await scene.status().process == .terminated)
        }
    }
}
