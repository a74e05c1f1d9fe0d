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

    /// Windows an app names itself count against the same cap: with the cap reached, a
    /// request for a new named session is refused and starts nothing; one for a window that
    /// already counted is not.
    @Test func aNamedWindowRequestBeyondTheLimitIsRefusedToo() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        host.reservedWindowNames.withLock { names in
            for number in 0..<SceneHost.maximumAppOpenedWindows { names.insert("W\(number)") }
        }
        let scene = try host.scene("A")
        try await scene.connect()
        let mark = host.lastSeq
        await host.performAppRequest(
            from: "A",
            .requestSceneSessionActivation(session: "Named-1", activityType: nil, userInfo: nil)
        )
        let refusal = try await host.trace.firstEvent(fromSeq: mark + 1, "the refusal") {
            $0.kind == .error && $0.op == "requestSceneSessionActivation"
        }
        #expect(refusal.scene == "A")
        #expect(!host.trace.history.contains { $0.scene == "Named-1" && $0.processEvent == .spawned })
        // A window that counted already opens again.
        await host.performAppRequest(
            from: "A",
            .requestSceneSessionActivation(session: "W0", activityType: nil, userInfo: nil)
        )
        #expect(try await host.scene("W0").status().process == .running)
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }

    /// A window whose launch fails opened nothing: the name it took is given back, so apps
    /// whose windows fail to launch never use the cap up. With the cap one short of full, a
    /// failed launch leaves it so, of a new window and of a named one alike, and neither is
    /// refused for the cap.
    @Test func aWindowWhoseLaunchFailsDoesNotCount() async throws {
        // New windows run the host's default worker, which crashes in its launch; A runs a
        // healthy one.
        let host = try SceneHost(configuration: TestWorker.configuration(["--crash-in", "willConnectTo"]))
        host.reservedWindowNames.withLock { names in
            for number in 0..<(SceneHost.maximumAppOpenedWindows - 1) { names.insert("W\(number)") }
        }
        let scene = try host.scene("A")
        try await scene.connect(worker: [TestWorker.hostctl, "worker"])
        await host.performAppRequest(
            from: "A",
            .requestSceneSessionActivation(session: nil, activityType: nil, userInfo: nil)
        )
        #expect(
            host.trace.history.contains { $0.scene == "A-1" && $0.processEvent == .exited && $0.reason == .crashed },
            "\(host.trace.history.filter { $0.scene == "A-1" }.map(\.violationSummary))"
        )
        #expect(host.reservedWindowNames.withLock { $0.count } == SceneHost.maximumAppOpenedWindows - 1)
        await host.performAppRequest(
            from: "A",
            .requestSceneSessionActivation(session: "Named-1", activityType: nil, userInfo: nil)
        )
        #expect(host.reservedWindowNames.withLock { $0.count } == SceneHost.maximumAppOpenedWindows - 1)
        #expect(!host.trace.history.contains { $0.scene == "A" && $0.kind == .error })
        await host.quit()
        #expect(host.verifyTrace() == nil)
    }
}
