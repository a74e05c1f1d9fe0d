import Protocol
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

@Suite("Live control plane: what serve holds, and for how long")
struct ControlHardeningTests {
    @Test("serve --trace on a full disk exits 3 at quit and names the error")
    func traceWriteFailure() async throws {
        let server = try await TestServer.start(extra: ["--trace", "/dev/full"])
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("quit").status == 0)
        #expect(await server.process.exit() == .exited(status: 3))
        #expect(
            server.process.stderr == "hostctl serve: cannot write trace file /dev/full: No space left on device\n",
            "\(server.process.stderr)"
        )
    }

    @Test("a notify value nests at most 62 deep, so that every event frame stays readable")
    func notifyValueDepth() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        func notify(depth: Int) async -> [String] {
            let value = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let frame = #"{"id":1,"op":"notify","scene":"A","name":"deep","value":\#(value)}"# + "\n"
            return await rawExchange(socket: server.socket, Array(frame.utf8))
        }
        let deepest = await notify(depth: 62)
        #expect(deepest.count == 1 && decodeReply(deepest[0]).map { $0.code == nil } == true, "\(deepest)")
        let tooDeep = await notify(depth: 63)
        #expect(
            tooDeep.count == 1 && decodeReply(tooDeep[0])?.code == ProtocolError.Code.invalidParameters.rawValue,
            "\(tooDeep)"
        )
        #expect(tooDeep.first?.contains("nests deeper than 62") == true, "\(tooDeep)")
        // Every event the host accepted reaches a client: the 62-deep value is in its frame.
        let events = try await server.run("events", "--json")
        #expect(events.status == 0, "\(events.stderr)")
        #expect(events.stdout.contains(String(repeating: "[", count: 62)), "\(events.stdout.suffix(200))")
        try await server.quit()
    }
}
