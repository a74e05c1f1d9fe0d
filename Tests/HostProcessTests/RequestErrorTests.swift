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
            Array((#"{"id":1,"op":"push","scene":"A","vcc":"B"}"# + "\n" + #"{"id":2,"op":"push",}"# + "\n").utf8)
        )
        #expect(replies.count == 2, "\(replies)")
        #expect(
            replies.first?.contains(#"push: unknown field \"vcc\" (known: payload, scene, vc)"#) == true,
            "\(replies)"
        )
        #expect(replies.last?.contains("invalid JSON at byte 20") == true, "\(replies)")
        try await server.quit()
    }
}
