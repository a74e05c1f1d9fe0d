import Glibc
import SceneModel
import Testing

@testable import HostProcess

/// A quit ends the processes of several apps at once, each carrying windows in different
/// states, while their scenes' terminations interleave: every process exits once, none is
/// left behind, and the trace keeps the model.
@Suite struct AppProcessQuitTests {
    /// Two apps of two windows each (one in the foreground, one sent to the background) and a
    /// scene with a process of its own. Several rounds: the scenes' turns interleave either way.
    @Test func aQuitEndsEveryAppsProcessOnceAndLeavesNothingBehind() async throws {
        for _ in 0..<3 {
            let host = try SceneHost(configuration: AppProcessTests.configuration())
            var pids: Set<Int32> = []
            for (app, windows) in [("Mail", ["A", "B"]), ("Notes", ["C", "D"])] {
                for window in windows {
                    let scene = try host.scene(window)
                    try await scene.connect(launch: LaunchParameters(app: app))
                    pids.insert(try #require(await scene.status().pid))
                }
                try await host.scene(windows[1]).background()
            }
            let alone = try host.scene("E")
            try await alone.connect()
            pids.insert(try #require(await alone.status().pid))
            #expect(pids.count == 3, "one process per app, one for the scene alone")

            await host.quit()

            #expect(host.livingWorkerPids().isEmpty)
            for pid in pids { #expect(Glibc.kill(pid, 0) != 0, "process \(pid) outlived the quit") }
            let exits = host.trace.history.filter { $0.processEvent == .exited }
            #expect(exits.count == 3, "each process exits once: \(exits.map(\.compact))")
            #expect(AppProcessTests.count(host, "applicationWillTerminate") <= 3, "at most once per process")
            #expect(host.verifyTrace() == nil)
        }
    }
}
