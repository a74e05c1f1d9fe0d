import Protocol
import Testing

@testable import SceneWorker

/// Frames in, frames out: what the run loop does, minus the file descriptors.
@MainActor
@Suite("Frames through the session")
struct FrameTests {
    /// Feeds `input` through a `FrameDecoder` into `session`, encodes what it said into one
    /// buffer as the run loop does, and decodes that back.
    private func run(_ session: WorkerSession, _ input: String) throws -> [WorkerMessage] {
        var decoder = FrameDecoder()
        decoder.append(Array(input.utf8))
        var output: [UInt8] = []
        while session.exitStatus == nil, let next = decoder.next() {
            switch next {
            case .frame(let frame): session.handleFrame(frame)
            case .oversized(let length): session.handleOversizedFrame(length: length)
            }
            session.sink.drain { $0.encode(into: &output) }
        }
        var back = FrameDecoder()
        back.append(output)
        var messages: [WorkerMessage] = []
        while case .frame(let frame)? = back.next() {
            messages.append(try WorkerMessage(frame: frame))
        }
        try back.finish()
        return messages
    }

    private let hello = #"{"op":"hello","protocol":1}"# + "\n"
    private let connect =
        #"{"id":1,"op":"connect","session":"A","configuration":"Default Configuration","role":"windowApplication","background":false,"root":"Root","reconnect":false}"#
        + "\n"

    @Test func aWholeSessionOverTheWire() throws {
        let session = WorkerSession(app: .recording, pid: 99)
        let input =
            hello + connect + #"{"id":2,"op":"push","vc":"Detail"}"# + "\n" + #"{"id":3,"op":"background"}"# + "\n"
            + #"{"id":4,"op":"disconnect"}"# + "\n" + #"{"id":5,"op":"pop"}"# + "\n"
        let messages = try run(session, input)
        #expect(messages.first == .ready(protocolVersion: 1, pid: 99))
        let replies = messages.compactMap { message -> Int? in
            if case .reply(let id, _) = message { return id }
            return nil
        }
        #expect(replies == [1, 2, 3, 4])
        #expect(messages.last == .reply(id: 4, result: nil))
        #expect(messages.count == 1 + (13 + 1) + (9 + 1) + (3 + 1) + (3 + 1))
        #expect(session.exitStatus == 0)
    }

    @Test func aMalformedFrameFailsWithItsIdAndTheWorkerCarriesOn() throws {
        let session = WorkerSession(app: .recording, pid: 99)
        let messages = try run(
            session,
            hello + #"{"id":7,"op":"fly"}"# + "\n" + "not json\n" + #"{"id":8,"op":"push"}"# + "\n" + connect
        )
        #expect(messages.count == 4 + 13 + 1)
        guard case .failure(7, let unknown) = messages[1], case .failure(nil, let parse) = messages[2],
            case .failure(8, let parameters) = messages[3]
        else {
            Issue.record("unexpected \(messages.prefix(4))")
            return
        }
        #expect(unknown.code == .unknownOperation)
        #expect(parse.code == .parseError)
        #expect(parameters.code == .invalidMessage)
        #expect(messages.last == .reply(id: 1, result: nil))
    }

    @Test func aFirstFrameThatIsNotHelloFailsTheHandshake() throws {
        let session = WorkerSession(app: .recording, pid: 99)
        let messages = try run(session, "garbage\n" + hello)
        #expect(messages.count == 1)
        guard case .failure(nil, let error) = messages[0] else {
            Issue.record("unexpected \(messages)")
            return
        }
        #expect(error.code == .invalidMessage)
        #expect(session.exitStatus == 2)
    }

    @Test func versionMismatchOverTheWire() throws {
        let session = WorkerSession(app: .recording, pid: 99)
        let messages = try run(session, #"{"op":"hello","protocol":2}"# + "\n")
        #expect(
            messages == [
                .failure(
                    id: nil,
                    ProtocolError(.versionMismatch, "protocol version mismatch: host speaks 2, worker speaks 1")
                )
            ]
        )
        #expect(session.exitStatus == 2)
    }

    @Test func requestIDOfUndecodableFrames() {
        #expect(WorkerSession.requestID(in: Array(#"{"id":3,"op":"x"}"#.utf8)) == 3)
        #expect(WorkerSession.requestID(in: Array(#"{"id":"3"}"#.utf8)) == nil)
        #expect(WorkerSession.requestID(in: Array("[1]".utf8)) == nil)
        #expect(WorkerSession.requestID(in: Array("{".utf8)) == nil)
    }

    @Test func oversizedFrameOverTheWire() throws {
        let session = WorkerSession(app: .recording, pid: 99)
        var decoder = FrameDecoder(maximumFrameSize: 256)
        decoder.append(Array((hello + String(repeating: "x", count: 300) + "\n" + connect).utf8))
        var said: [WorkerMessage] = []
        while let next = decoder.next() {
            switch next {
            case .frame(let frame): session.handleFrame(frame)
            case .oversized(let length): session.handleOversizedFrame(length: length)
            }
            said += session.takeOutput()
        }
        guard case .failure(nil, let error) = said[1] else {
            Issue.record("unexpected \(said)")
            return
        }
        #expect(error.code == .frameTooLarge)
    }
}
