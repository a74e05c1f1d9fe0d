import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// A worker folds the lifecycle notifications that directly follow a callback into its frame
/// (`CallbackEvent.posted`); the host records the same trace as from a frame each.
@Suite struct SceneMachinePostedNotificationTests {
    /// Deactivates a connected scene whose worker reports `messages`; what it recorded.
    private func deactivateTrace(_ messages: [WorkerMessage]) -> [TraceEvent] {
        var harness = SceneMachineHarness()
        harness.connect()
        let before = harness.recorded.count
        let deactivate = harness.request(.deactivate)
        for message in messages { harness.feed { $0.received(message) } }
        harness.reply()
        #expect(harness.succeeded(deactivate))
        #expect(harness.signals.isEmpty)
        return Array(harness.recorded.dropFirst(before))
    }

    @Test func foldedNotificationsAreRecordedAsFramesOfTheirOwn() {
        var folded = CallbackEvent(.sceneWillResignActive)
        folded.posted = 2
        let separate = deactivateTrace([
            .callback(CallbackEvent(.sceneWillResignActive)),
            .callback(CallbackEvent(.sceneWillDeactivateNotification)),
            .callback(CallbackEvent(.applicationWillResignActiveNotification)),
        ])
        #expect(deactivateTrace([.callback(folded)]) == separate)
        // The order that must hold: the callback, the state it leads to, its notifications.
        #expect(
            separate.map { $0.name ?? "\($0.from?.rawValue ?? "") -> \($0.to?.rawValue ?? "")" } == [
                "sceneWillResignActive", "foregroundActive -> foregroundInactive",
                "UISceneWillDeactivateNotification", "UIApplicationWillResignActiveNotification",
            ]
        )
        // Only the first: the application's went in a frame of its own.
        folded.posted = 1
        #expect(
            deactivateTrace([.callback(folded), .callback(CallbackEvent(.applicationWillResignActiveNotification))])
                == separate
        )
    }
}
