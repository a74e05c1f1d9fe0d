import Testing

@testable import Protocol

/// The handshake's `lifecycle` (docs/LIFECYCLE.md §3d): exact bytes, round trips, and a bad
/// value refused with a typed error.
@Suite struct LifecycleHandshakeWireTests {
    private func encoded(_ command: HostCommand) -> String {
        var buffer: [UInt8] = []
        command.encode(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func encoded(_ message: WorkerMessage) -> String {
        var buffer: [UInt8] = []
        message.encode(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func helloAndReadyCarryTheLifecycleOnlyWhenThereIsOneToSay() throws {
        #expect(encoded(.hello(protocolVersion: 1)) == "{\"op\":\"hello\",\"protocol\":1}\n")
        #expect(
            encoded(.hello(protocolVersion: 1, lifecycle: .app))
                == "{\"op\":\"hello\",\"protocol\":1,\"lifecycle\":\"app\"}\n"
        )
        #expect(encoded(.ready(protocolVersion: 1, pid: 9)) == "{\"type\":\"ready\",\"protocol\":1,\"pid\":9}\n")
        #expect(
            encoded(.ready(protocolVersion: 1, pid: 9, lifecycle: .app))
                == "{\"type\":\"ready\",\"protocol\":1,\"pid\":9,\"lifecycle\":\"app\"}\n"
        )
        let commands: [HostCommand] = [
            .hello(protocolVersion: 1), .hello(protocolVersion: 1, lifecycle: .app),
            .hello(protocolVersion: 1, lifecycle: .scene),
        ]
        for command in commands {
            var bytes = Array(encoded(command).utf8)
            bytes.removeLast()
            #expect(try bytes.withUnsafeBytes { try HostCommand(frame: $0) } == command)
        }
        let messages: [WorkerMessage] = [
            .ready(protocolVersion: 1, pid: 9), .ready(protocolVersion: 1, pid: 9, lifecycle: .app),
        ]
        for message in messages {
            var bytes = Array(encoded(message).utf8)
            bytes.removeLast()
            #expect(try bytes.withUnsafeBytes { try WorkerMessage(frame: $0) } == message)
        }
    }

    @Test func anUnknownLifecycleIsATypedError() {
        for frame in [
            #"{"op":"hello","protocol":1,"lifecycle":"window"}"#, #"{"op":"hello","protocol":1,"lifecycle":1}"#,
        ] {
            let bytes = Array(frame.utf8)
            #expect(throws: ProtocolError.self) { try bytes.withUnsafeBytes { try HostCommand(frame: $0) } }
        }
        let ready = Array(#"{"type":"ready","protocol":1,"pid":9,"lifecycle":"window"}"#.utf8)
        #expect(throws: ProtocolError.self) { try ready.withUnsafeBytes { try WorkerMessage(frame: $0) } }
    }
}
