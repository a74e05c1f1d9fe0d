import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// A worker whose host asked for it folds a reply into the frame of the callback before it
/// (`CallbackEvent.reply`); the host does what the two frames would have made it do, in the
/// same order, and asks for the folding in its `hello`.
@Suite struct SceneMachineFoldedReplyTests {
    /// Connects a scene, asks `deactivate` and then `activate`, and answers the deactivate
    /// with `answer`; every action from the deactivate on, as text (the actions carry no
    /// clock: the same events give the same text), and whether the deactivate succeeded.
    private func actions(answeringWith answer: (Int) -> [WorkerMessage]) -> (text: [String], outcome: Bool?) {
        var harness = SceneMachineHarness()
        harness.connect()
        let before = harness.actions.count
        let deactivate = harness.request(.deactivate)
        harness.request(.activate)
        guard let id = harness.pendingRequests.first?.id else {
            Issue.record("no deactivate written")
            return ([], nil)
        }
        for message in answer(id) { harness.feed { $0.received(message) } }
        let text = harness.actions.dropFirst(before).map { action in
            // An event as its trace line: its own description names only its box.
            guard case .record(let event) = action else { return "\(action)" }
            var line: [UInt8] = []
            event.appendJSONLine(to: &line)
            return "record(\(String(decoding: line, as: UTF8.self)))"
        }
        return (text, harness.outcomes[deactivate].map { (try? $0.get()) != nil })
    }

    @Test func aFoldedReplyDoesWhatTheReplysOwnFrameDid() {
        let separate = actions { id in
            [.callback(CallbackEvent(.sceneWillResignActive)), .reply(id: id, result: nil)]
        }
        let folded = actions { id in
            var event = CallbackEvent(.sceneWillResignActive)
            event.reply = id
            return [.callback(event)]
        }
        #expect(separate.outcome == true)
        #expect(folded.text == separate.text)
        // The order that must hold: the callback and its state recorded, the deactivate
        // resumed, then the activate written.
        let kinds = folded.text.map { $0.prefix(while: { $0 != "(" }) }
        let record = kinds.firstIndex(of: "record")
        let resume = kinds.firstIndex(of: "resume")
        let write = kinds.lastIndex(of: "write")
        #expect(record != nil && resume != nil && write != nil)
        if let record, let resume, let write { #expect(record < resume && resume < write, "\(kinds)") }
    }

    @Test func aFoldedReplyToNoRequestIsTheViolationASeparateOneIs() {
        let separate = actions { id in
            [.callback(CallbackEvent(.sceneWillResignActive)), .reply(id: id + 40, result: nil)]
        }
        let folded = actions { id in
            var event = CallbackEvent(.sceneWillResignActive)
            event.reply = id + 40
            return [.callback(event)]
        }
        #expect(folded.text == separate.text)
        #expect(folded.text.contains { $0.contains("unknown request") }, "\(folded.text)")
    }

    @Test func theHelloAsksForFoldedReplies() {
        var harness = SceneMachineHarness()
        harness.request(.connect())
        let hello = harness.actions.lazy.compactMap { action -> HostCommand? in
            guard case .write(let commands) = action else { return nil }
            return commands.first
        }.first
        guard case .hello(_, _, let foldedReplies)? = hello else {
            Issue.record("no hello written: \(harness.actions)")
            return
        }
        #expect(foldedReplies)
    }
}
