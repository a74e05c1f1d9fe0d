import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// A root made the storyboard way (LIFECYCLE.md §3c): made and woken before `willConnectTo`,
/// loaded after; a root made in code keeps the plain order.
@Suite struct StoryboardRootTests {
    static let launchOrder = [
        "cb willFinishLaunching", "cb didFinishLaunching", "cb configurationForConnecting",
        "cb initWithCoder Root", "cb awakeFromNib Root", "cb willConnectTo", "cb loadView Root",
        "cb viewDidLoad Root",
    ]

    @Test func theStoryboardRootWakesBeforeWillConnectTo() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration(["--storyboard-root"])) { host in
            let scene = try host.scene("A")
            let mark = host.lastSeq
            try await scene.connect()
            let callbacks = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb") }
            #expect(Array(callbacks.prefix(8)) == Self.launchOrder)
            return host
        }

        // Every swap of two of the launch's callbacks is rejected.
        let history = host.trace.history
        let launch = history.indices.filter { history[$0].scene == "A" && history[$0].kind == .callback }.prefix(8)
        for (n, i) in launch.enumerated() {
            for j in launch.dropFirst(n + 1) {
                var swapped = history
                (swapped[i].name, swapped[j].name) = (history[j].name, history[i].name)
                (swapped[i].viewController, swapped[j].viewController) =
                    (history[j].viewController, history[i].viewController)
                #expect(firstViolation(swapped) != nil, "swap of \(history[i].compact) and \(history[j].compact)")
            }
        }
    }

    @Test func aRootMadeInCodeHasNothingBeforeWillConnectTo() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            let mark = host.lastSeq
            try await scene.connect()
            let callbacks = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb") }
            #expect(
                Array(callbacks.prefix(6)) == Self.launchOrder.filter { !$0.contains("Coder") && !$0.contains("Nib") }
            )
        }
    }

    /// The storyboard's callbacks belong to the launch: anywhere else the verifier refuses them.
    @Test func aStoryboardCallbackOutsideTheLaunchIsRefused() {
        var t = TraceBuilder()
        t.connectToForeground()
        t.callback(.initWithCoder, "Root")
        #expect(firstViolation(t.events) != nil)
        var late = TraceBuilder()
        late.spawned()
        late.callback(.willFinishLaunching)
        late.callback(.didFinishLaunching)
        late.callback(.configurationForConnecting)
        late.callback(.willConnectTo)
        late.callback(.initWithCoder, "Root")
        #expect(firstViolation(late.events) != nil)
    }
}
