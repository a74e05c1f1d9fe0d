import Protocol
import Testing

@testable import SceneWorker

/// The rehearsal must do a real launch's work: if its frames stopped decoding or its connect
/// were refused, it would warm next to nothing and say nothing (nobody reads its output).
@MainActor
@Suite struct WorkerWarmupTests {
    @Test func itsThrowawaySessionLaunchesToForegroundActive() {
        let messages = WorkerWarmup.run()
        guard case .ready = messages.first else {
            Issue.record("no ready first: \(messages)")
            return
        }
        let callbacks = messages.compactMap { message -> CallbackName? in
            if case .callback(let event) = message { return event.name }
            return nil
        }
        #expect(callbacks.first == .willFinishLaunching)
        #expect(callbacks.contains(.willConnectTo))
        #expect(callbacks.contains(.sceneDidBecomeActive))
        #expect(callbacks.last == .viewDidAppear)
        guard case .reply(id: 1, _) = messages.last else {
            Issue.record("the connect was not answered: \(messages)")
            return
        }
    }

}
