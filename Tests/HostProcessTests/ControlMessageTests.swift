import Dispatch
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

@Suite("Control messages")
struct ControlMessageTests {
    @Test("every request round-trips through its frame")
    func requestRoundTrip() throws {
        let steps: [Scenario.Step] = [
            .scene("A", .connect()),
            .scene("A", .connect(background: true, root: "Library", worker: ["/bin/w", "--x"])),
            .scene("A", .push(viewController: "Detail")),
            .scene("A", .resize(width: 800, height: 600)),
            .scene("A", .notify(name: "sync", value: .object(["n": .int(1)]))),
            .scene("A", .kill(signal: SIGTERM)),
            .scene("A", .terminate),
            .memoryPressure,
            .waitFor(scene: "A", condition: .process(.suspended), timeout: .milliseconds(1500)),
            .waitFor(scene: "A", condition: .state(.background), timeout: .seconds(10)),
            .sleep(.milliseconds(5)),
            .quit,
        ]
        let bodies = steps.map { ControlRequest.Body.step($0) } + [.ps, .events(fromSeq: 7, follow: true)]
        for (index, body) in bodies.enumerated() {
            let request = ControlRequest(id: .int(index), body: body)
            let decoded = try ControlRequest(frame: Array(request.frame.dropLast()))
            #expect(decoded == request)
        }
    }

    @Test("a bad request names the problem and keeps its id")
    func badRequests() {
        func failure(_ text: String) -> ControlRequest.DecodingError? {
            do {
                _ = try ControlRequest(frame: Array(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(#"{"id":3,"op":"push","scene":"A"}"#)?.error.message == #"push: needs "vc""#)
        #expect(failure(#"{"id":3,"op":"push","scene":"A"}"#)?.id == .int(3))
        #expect(failure(#"{"id":"x","op":"pop","scene":"A","expectError":true}"#)?.error.code == .invalidParameters)
        #expect(failure(#"{"id":1,"op":"events","fromSeq":0}"#)?.error.code == .invalidParameters)
        #expect(failure(#"{"op":"fly"}"#)?.error.code == .unknownOperation)
        #expect(failure("nope")?.error.code == .parseError)
    }

    @Test("replies and event frames decode as the client reads them")
    func replies() throws {
        let row = ControlSceneRow(
            scene: "A",
            hasSession: true,
            activation: .background,
            process: .suspended,
            pid: 42,
            residentBytes: 3 << 20,
            uptimeSeconds: 1.5,
            stack: ["Root", "Detail"]
        )
        for reply in [
            ControlReply(id: .int(1), result: .ok),
            ControlReply(id: .string("k"), result: .scenes([row])),
            ControlReply(id: .null, result: .failure(ProtocolError(.illegalTransition, "refused"))),
        ] {
            #expect(try ControlServerFrame(frame: Array(reply.frame.dropLast())) == .reply(reply))
        }
        let event = TraceEvent(
            seq: 3,
            time: 0.25,
            kind: .process,
            scene: "A",
            processEvent: .exited,
            pid: 42,
            reason: .killed,
            signal: "KILL"
        )
        var frame: [UInt8] = []
        ControlServerFrame.eventFrame(event, into: &frame)
        #expect(try ControlServerFrame(frame: Array(frame.dropLast())) == .event(event))
    }
}
