import Testing

@testable import Protocol

/// A callback's frame may carry the reply that followed it (`reply`), when the host's `hello`
/// asked for that (`foldedReplies`): both decoders read it, and refuse one that is no request
/// id, with a typed error that says which field.
@Suite struct FoldedReplyWireTests {
    @Test func theReplyRoundTripsThroughBothDecoders() throws {
        var event = CallbackEvent(.sceneDidBecomeActive)
        event.posted = 2
        event.reply = 7
        var bytes: [UInt8] = []
        WorkerMessage.callback(event).encode(into: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"type":"callback","name":"sceneDidBecomeActive","posted":2,"reply":7}"# + "\n"
        )
        let frame = Array(bytes.dropLast())
        #expect(try WorkerMessage(frame: frame) == .callback(event))
        #expect(frame.withUnsafeBytes { try? WorkerMessage(generalFrame: $0) } == .callback(event))
        #expect(frame.withUnsafeBytes { FrameShapes.message($0) } == .callback(event))
    }

    @Test func theGeneralPathReadsItAfterAnyField() throws {
        let frame = Array(#"{"reply":0,"type":"callback","origin":"app","name":"viewDidAppear","vc":"Root"}"#.utf8)
        var event = CallbackEvent(.viewDidAppear, viewController: "Root", origin: .app)
        event.reply = 0
        #expect(try WorkerMessage(frame: frame) == .callback(event))
    }

    @Test func theHelloAsksForItAndOnlyThenSaysSo() throws {
        var plain: [UInt8] = []
        HostCommand.hello(protocolVersion: 1).encode(into: &plain)
        #expect(String(decoding: plain, as: UTF8.self) == #"{"op":"hello","protocol":1}"# + "\n")
        var folding: [UInt8] = []
        HostCommand.hello(protocolVersion: 1, foldedReplies: true).encode(into: &folding)
        #expect(String(decoding: folding, as: UTF8.self) == #"{"op":"hello","protocol":1,"foldedReplies":true}"# + "\n")
        #expect(try HostCommand(frame: Array(folding.dropLast())) == .hello(protocolVersion: 1, foldedReplies: true))
        #expect(try HostCommand(frame: Array(plain.dropLast())) == .hello(protocolVersion: 1, foldedReplies: false))
        #expect(throws: ProtocolError.self) {
            try HostCommand(frame: Array(#"{"op":"hello","protocol":1,"foldedReplies":1}"#.utf8))
        }
    }

    @Test(arguments: [
        (#"{"type":"callback","name":"sceneDidBecomeActive","reply":-1}"#, ProtocolError.Code.invalidParameters),
        (#"{"type":"callback","name":"sceneDidBecomeActive","reply":1.5}"#, .invalidParameters),
        (#"{"type":"callback","name":"sceneDidBecomeActive","reply":"7"}"#, .invalidMessage),
        (#"{"type":"callback","name":"sceneDidBecomeActive","reply":null}"#, .invalidMessage),
    ])
    func aReplyThatIsNoRequestIDIsRefused(frame: String, code: ProtocolError.Code) {
        expectRefusedByBothDecoders(frame, code: code, naming: "reply")
    }
}
