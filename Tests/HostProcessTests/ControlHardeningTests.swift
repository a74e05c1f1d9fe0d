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
}
