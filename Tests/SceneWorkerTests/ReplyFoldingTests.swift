import Protocol
import Testing

@testable import SceneWorker

/// The frames a worker writes when the host's `hello` asked for folded replies: a reply
/// without a result that directly follows a callback without a value goes in its frame
/// (`CallbackEvent.reply`), after the notifications folded there; anything else keeps its
/// own frame. Without the host's asking, nothing is folded.
@MainActor @Suite struct ReplyFoldingTests {
    private func drained(_ sink: CallbackSink, folding: Bool = true) -> [WorkerMessage] {
        var messages: [WorkerMessage] = []
        sink.drain(foldingReplies: folding) { messages.append(copy $0) }
        return messages
    }

    private func folded(_ name: CallbackName, posted: Int = 0, reply: Int) -> WorkerMessage {
        var event = CallbackEvent(name)
        event.posted = posted
        event.reply = reply
        return .callback(event)
    }

    @Test func theReplyGoesInTheFrameOfTheCallbackBeforeIt() {
        let sink = CallbackSink()
        sink.notificationPoster = { _ in }
        sink.report(.sceneWillResignActive)
        sink.delegateReturned()
        sink.send(.reply(id: 4, result: nil))
        #expect(drained(sink) == [folded(.sceneWillResignActive, posted: 2, reply: 4)])
        #expect(drained(sink).isEmpty)
    }

    @Test func withoutTheHostsAskingTheReplyKeepsItsFrame() {
        let sink = CallbackSink()
        sink.report(.sceneDidBecomeActive)
        sink.send(.reply(id: 4, result: nil))
        #expect(
            drained(sink, folding: false) == [
                .callback(CallbackEvent(.sceneDidBecomeActive)), .reply(id: 4, result: nil),
            ]
        )
    }

    @Test func onlyTheLastCallbackTakesTheReply() {
        let sink = CallbackSink()
        sink.report(.viewWillDisappear, viewController: "Detail")
        sink.report(.viewDidDisappear, viewController: "Detail")
        sink.send(.reply(id: 9, result: nil))
        var last = CallbackEvent(.viewDidDisappear, viewController: "Detail")
        last.reply = 9
        #expect(
            drained(sink) == [.callback(CallbackEvent(.viewWillDisappear, viewController: "Detail")), .callback(last)]
        )
    }

    @Test func aReplyWithAResultAFailureOrAReplyAfterNoCallbackKeepsItsFrame() {
        let sink = CallbackSink()
        sink.report(.stateRestorationActivity)
        sink.send(.reply(id: 1, result: .object(["stack": .array([.string("Root")])])))
        sink.report(.sceneDidBecomeActive)
        sink.send(.failure(id: 2, ProtocolError(.operationFailed, "no")))
        sink.send(.reply(id: 3, result: nil))
        #expect(
            drained(sink) == [
                .callback(CallbackEvent(.stateRestorationActivity)),
                .reply(id: 1, result: .object(["stack": .array([.string("Root")])])),
                .callback(CallbackEvent(.sceneDidBecomeActive)),
                .failure(id: 2, ProtocolError(.operationFailed, "no")),
                .reply(id: 3, result: nil),
            ]
        )
    }

    /// A callback that carries a value keeps the reply apart: the requests' limits measure the
    /// echo of a value without one.
    @Test func aCallbackWithAValueKeepsTheReplyApart() {
        let sink = CallbackSink()
        sink.report(CallbackEvent(.didReceiveNotification, notification: "sync", value: .int(1)))
        sink.send(.reply(id: 5, result: nil))
        #expect(
            drained(sink) == [
                .callback(CallbackEvent(.didReceiveNotification, notification: "sync", value: .int(1))),
                .reply(id: 5, result: nil),
            ]
        )
    }

    /// The whole run: a session that was asked in its `hello` writes one frame per plain
    /// transition, and one that was not writes two.
    @Test func aSessionFoldsOnlyWhenItsHostAsked() throws {
        for asked in [true, false] {
            let session = WorkerSession(app: .recording, pid: 5)
            session.handle(.hello(protocolVersion: ProtocolVersion.current, foldedReplies: asked))
            #expect(session.hostReadsFoldedReplies == asked)
            session.handle(.request(id: 1, .connect(ConnectOptions(session: "A"))))
            session.handle(.request(id: 2, .deactivate))
            var bytes: [UInt8] = []
            session.sink.drain(foldingReplies: session.hostReadsFoldedReplies) { $0.encode(into: &bytes) }
            let text = String(decoding: bytes, as: UTF8.self)
            let lastLines = text.split(separator: "\n").suffix(asked ? 1 : 2).joined(separator: "\n")
            #expect(
                lastLines
                    == (asked
                        ? #"{"type":"callback","name":"sceneWillResignActive","reply":2}"#
                        : #"{"type":"callback","name":"sceneWillResignActive"}"# + "\n" + #"{"type":"reply","id":2}"#),
                "\(text)"
            )
        }
    }
}
