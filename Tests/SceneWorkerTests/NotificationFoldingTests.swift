import Protocol
import Testing

@testable import SceneWorker

/// The frames a worker writes: the lifecycle notifications that directly follow the callback
/// posting them go in its frame (`CallbackEvent.posted`); one that something else came before
/// goes in a frame of its own. The sink itself keeps every message apart.
@MainActor @Suite struct NotificationFoldingTests {
    private func drained(_ sink: CallbackSink) -> [WorkerMessage] {
        var messages: [WorkerMessage] = []
        sink.drain { messages.append(copy $0) }
        return messages
    }

    @Test func notificationsRightAfterTheirCallbackGoInItsFrame() {
        let sink = CallbackSink()
        var posted: [CallbackName] = []
        sink.notificationPoster = { posted.append($0) }
        sink.report(.sceneWillResignActive)
        sink.delegateReturned()
        sink.send(.reply(id: 1, result: nil))
        #expect(posted == [.sceneWillDeactivateNotification, .applicationWillResignActiveNotification])
        var folded = CallbackEvent(.sceneWillResignActive)
        folded.posted = 2
        #expect(drained(sink) == [.callback(folded), .reply(id: 1, result: nil)])
        #expect(drained(sink).isEmpty)
    }

    @Test func aNotificationAfterSomethingElseGoesInAFrameOfItsOwn() {
        let sink = CallbackSink()
        // An observer of the scene's notification begins a background task.
        sink.notificationPoster = { [unowned sink] name in
            if name == .sceneWillDeactivateNotification {
                sink.report(CallbackEvent(.beginBackgroundTask, origin: .app))
            }
        }
        sink.report(.sceneWillResignActive)
        sink.delegateReturned()
        sink.send(.reply(id: 1, result: nil))
        var folded = CallbackEvent(.sceneWillResignActive)
        folded.posted = 1
        #expect(
            drained(sink) == [
                .callback(folded), .callback(CallbackEvent(.beginBackgroundTask, origin: .app)),
                .callback(CallbackEvent(.applicationWillResignActiveNotification)), .reply(id: 1, result: nil),
            ]
        )
    }

    @Test func theSinkKeepsEveryMessageApart() {
        let sink = CallbackSink()
        sink.notificationPoster = { _ in }
        sink.report(.sceneDidBecomeActive)
        sink.delegateReturned()
        #expect(
            sink.take() == [
                .callback(CallbackEvent(.sceneDidBecomeActive)),
                .callback(CallbackEvent(.sceneDidActivateNotification)),
                .callback(CallbackEvent(.applicationDidBecomeActiveNotification)),
            ]
        )
    }
}
