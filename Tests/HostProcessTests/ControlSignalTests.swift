import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

@Suite("Live control plane: signals to hostctl serve")
struct ControlSignalTests {
    @Test("SIGHUP is an orderly quit: applicationWillTerminate, no worker left, socket removed, exit 0")
    func hangUpQuits() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        let follower = try server.spawn("events", "--follow", "--json")
        defer { try? follower.child.send(signal: SIGKILL) }
        #expect(try await follower.line { _ in true } != nil)
        let pids = try await server.scenes().values.compactMap(\.pid)
        #expect(pids.count == 1)

        try server.process.child.send(signal: SIGHUP)
        #expect(try await server.process.exit() == .exited(status: 0), "\(server.process.stderr)")
        #expect(access(server.socket, F_OK) != 0, "the socket file is removed")
        for pid in pids {
            #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH, "worker \(pid) is gone")
        }
        #expect(try await follower.status() == 0)
        #expect(follower.stdout.contains("applicationWillTerminate"), "\(follower.stdout)")
    }

    @Test("SIGUSR1 and SIGUSR2 are ignored: the host keeps serving")
    func userSignalsAreIgnored() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        try server.process.child.send(signal: SIGUSR1)
        try server.process.child.send(signal: SIGUSR2)
        // A signal is pending from the moment it is sent: if its default action applied, the
        // host could not exit 0 after `quit` (the exit would say which signal killed it).
        #expect(try await server.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await server.scenes()["A"]?.stack == ["Root", "Detail"])
        try await server.quit()
    }
}
