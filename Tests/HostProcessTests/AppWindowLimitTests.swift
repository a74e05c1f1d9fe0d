import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// An app asking for windows in a loop cannot spawn without end (docs/LIFECYCLE.md §3c).
@Suite struct AppWindowLimitTests {
    @Test func aWindowRequestBeyondTheLimitIsRefusedOnTheAskingScene() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            // As if apps had opened the most windows already (without 64 real workers).
            host.reservedWindowNames.withLock { names in
                for number in 0..<SceneHost.maximumAppOpenedWindows { names.insert("W\(number)") }
            }
            let scene = try host.scene("A")
            try await scene.connect()
            let mark = host.lastSeq
            try await scene.notify("openWindow", value: .null)
            let refusal = try await host.trace.firstEvent(fromSeq: mark + 1, "the refusal") {
                $0.kind == .error && $0.op == "requestSceneSessionActivation"
            }
            #expect(refusal.scene == "A")
            #expect(!host.trace.history.contains { $0.scene == "A-1" })
        }
    }
}
