import HostTools
import SceneModel
import Testing

/// Issue 16: a control request's errors say what to do, as the CLI's do. An unknown field
/// lists the op's fields (without `expectError`, which only a scenario takes); a request
/// that is not JSON names the place.
@Suite struct RequestErrorTests {
    @Test func anUnknownFieldListsTheOpsFields() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let replies = await rawExchange(
            socket: server.socket,
            Array(
                (#"{"id":1,"op":"push","scene":"A","vcc":"B"}"# + "\n" + #"{"id":2,"op":"push",}"# + "\n"
                    + #"{"id":3,"op":"quit","extra":1}"# + "\n").utf8
            )
        )
        #expect(replies.count == 3, "\(replies)")
        // An op with no fields says so rather than listing none.
        #expect(replies.last?.contains(#"quit: unknown field \"extra\" (it takes no fields)"#) == true, "\(replies)")
        #expect(
            replies.first?.contains(#"push: unknown field \"vcc\" (known: payload, scene, vc)"#) == true,
            "\(replies)"
        )
        #expect(replies.dropLast().last?.contains("invalid JSON at byte 20") == true, "\(replies)")
        try await server.quit()
    }
}
