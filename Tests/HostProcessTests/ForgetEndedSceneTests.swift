import SceneHostTesting
import Testing

@testable import HostProcess

/// A tool's throwaway scene (each fuzz run's) is forgotten whole once its worker has ended,
/// so that a long session holds nothing per run; a scene with a worker, or a host that keeps
/// sessions on disk, is left alone.
@Suite struct ForgetEndedSceneTests {
    @Test func anEndedSceneIsForgottenWholeAndALiveOneIsNot() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let ended = try host.scene("Ended")
            try await ended.connect()
            let live = try host.scene("Live")
            try await live.connect()
            #expect(await !host.forgetEndedScene("Live"), "its worker runs")
            try await ended.terminate()
            #expect(host.sessions.session("Ended") != nil)
            #expect(await host.forgetEndedScene("Ended"))
            #expect(host.sessions.session("Ended") == nil)
            #expect(await host.statuses().map(\.scene) == ["Live"])
            #expect(await !host.forgetEndedScene("Ended"), "nothing left to forget")
        }
    }

    @Test func aHostWithAStateDirectoryForgetsNothing() async throws {
        let state = makeTemporaryDirectory() + "/state"
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.terminate()
            #expect(await !host.forgetEndedScene("A"))
            #expect(host.sessions.session("A") != nil)
        }
    }
}
