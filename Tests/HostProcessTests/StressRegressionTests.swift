import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// Races `hostctl stress` found between a worker killed from outside the host and the
/// host's own next step. Each test repeats the race a few times: it is narrow, but one
/// loss is a wrong trace or a worker outliving `quit()`.
@Suite struct StressSmokeRegressionTests {
    /// `quit()` promises to return only when no worker is left. A worker SIGKILLed from
    /// outside just before must not make it return early (its terminate fails on the write
    /// to a dead pipe); its exit belongs before `stopped` in the trace.
    @Test func quitWaitsForWorkersKilledFromOutsideJustBefore() async throws {
        for _ in 0..<60 {
            let host = try SceneHost(configuration: TestWorker.configuration())
            var pids: [Int32] = []
            for index in 0..<4 {
                let scene = try host.scene("K\(index)")
                try await scene.connect()
                pids.append(try #require(await scene.status().pid))
            }
            for pid in pids { #expect(Glibc.kill(pid, SIGKILL) == 0) }
            await host.quit()
            let history = host.trace.history
            let stopped = history.firstIndex { $0.kind == .host && $0.name == "stopped" } ?? history.endIndex
            let exitedBeforeStop = Set(history[..<stopped].filter { $0.processEvent == .exited }.compactMap(\.pid))
            #expect(
                Set(pids).subtracting(exitedBeforeStop).isEmpty,
                "quit returned before these workers' exits: \(Set(pids).subtracting(exitedBeforeStop))"
            )
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A suspended worker killed from outside, then brought to the foreground: the host
    /// must not record `resumed` for a worker whose exit the trace already shows.
    @Test func aKilledSuspendedWorkerIsNeverReportedResumed() async throws {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(5)
        for _ in 0..<60 {
            let host = try await withSceneHost(configuration: configuration) { host in
                let scene = try host.scene("A")
                try await scene.connect(background: true)
                try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
                let pid = try #require(await scene.status().pid)
                #expect(Glibc.kill(pid, SIGKILL) == 0)
                try? await scene.foreground()
                return host
            }
            let rejected = host.trace.history.filter { $0.kind == .error && $0.op == "protocol" }
            #expect(rejected.isEmpty, "\(rejected.map { $0.message ?? "" })")
            #expect(host.verifyTrace() == nil)
        }
    }
}
