import Glibc
import HostProcess
import HostTools
import SceneModel
import Testing

/// README's socket directory line works where `$XDG_RUNTIME_DIR` is unset: run as written,
/// it gives a directory `hostctl serve` accepts (the user's own, mode 0700, in /tmp).
@Suite struct SocketDirectoryRecipeTests {
    /// The README's `dir=…` line of the Live control example.
    static var recipe: String? {
        LifecycleDocsTests.read(LifecycleDocsTests.root + "/README.md")
            .split(separator: "\n").first { $0.hasPrefix("dir=\"${XDG_RUNTIME_DIR") }.map(String.init)
    }

    @Test func theReadmesSocketDirectoryWorksWithoutXDGRuntimeDir() async throws {
        let recipe = try #require(Self.recipe, "README has no dir= line")
        // A socket of this test's own in the directory (others may serve there too).
        let name = "recipe-\(getpid()).sock"
        let script =
            #"unset XDG_RUNTIME_DIR; "# + recipe
            + #"; exec "$0" serve --socket "$dir/\#(name)" --suspend-delay-ms 50"#
        let server = try Spawned(["/bin/sh", "-c", script, TestWorker.hostctl])
        defer { try? server.child.send(signal: SIGKILL) }
        let ready = try await server.line { $0.hasPrefix("serving on ") }
        let socket = "/tmp/scenehost-\(geteuid())/\(name)"
        #expect(ready == "serving on \(socket) (pid \(server.child.pid))", "\(server.stderr)")
        var info = stat()
        #expect(stat("/tmp/scenehost-\(geteuid())", &info) == 0 && info.st_mode & 0o777 == 0o700)
        let quit = try await runHostctlClient(["quit", "--socket", socket])
        #expect(quit.status == 0, "\(quit.stderr)")
        #expect(try await server.exit() == .exited(status: 0))
        // The host leaves its socket's lock file (CONTROL.md); this test's name is its own.
        unlink(socket + ".lock")
    }
}
