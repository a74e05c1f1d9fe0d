import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// An app's scene requests for names that nothing becomes of are forgotten, as a client's
/// are: an app that names made-up sessions in a loop holds no scene, memory or `ps` row.
@Suite(.timeLimit(.minutes(5)))
struct AppRequestForgettingTests {
    @Test func refusedDestructionsOfMadeUpNamesLeaveNoScene() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let opener = try host.scene("A")
        try await opener.connect()
        for index in 0..<500 {
            await host.performAppRequest(from: "A", .requestSceneSessionDestruction(session: "Made-up-\(index)"))
        }
        #expect(await host.controlRows().count == 1, "one ps row: the opener")
        #expect(host.allControllers.count == 1, "one scene: the opener")
        // Each request is in the trace, refused on its target.
        let refusals = host.trace.history.filter { $0.kind == .error && $0.scene?.hasPrefix("Made-up-") == true }
        #expect(refusals.count == 500)
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }
}
