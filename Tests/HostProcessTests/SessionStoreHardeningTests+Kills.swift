import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

extension SessionStoreHardeningTests {
    // MARK: One host per state directory

    @Test func aLockHeldAfterItsHostDiedIsWaitedOutNotReported() async throws {
        let state = makeTemporaryDirectory() + "/state"
        try SessionStore(directory: state).close()
        // The pid of a host that is gone: a child that has exited and been reaped.
        let gone = try await ChildProcess.spawn(argv: ["/bin/true"])
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            EventLoop.shared.watch(gone, onStdout: { _ in }, onStderr: { _ in }, onExit: { _ in continuation.resume() })
        }
        // Someone else (as a dying host's half-spawned child would) holds the lock, here until
        // its stdin ends.
        let holder = try await ChildProcess.spawn(argv: ["/usr/bin/flock", state + "/lock", "/bin/cat"])
        let holderExit = Task {
            await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
                EventLoop.shared.watch(
                    holder,
                    onStdout: { _ in },
                    onStderr: { _ in },
                    onExit: { continuation.resume(returning: $0) }
                )
            }
        }
        // Until flock holds it, our own opens succeed (and record our pid, which is alive).
        while (try? SessionStore(directory: state).close()) != nil {}
        // A live recorded holder: refused at once.
        #expect(writeFile(state + "/lock", "\(holder.pid)\n"))
        #expect(throws: HostError.stateDirectoryInUse(directory: state, pid: holder.pid)) {
            try SessionStore(directory: state)
        }
        // Now the recorded holder is a dead host's pid: the store waits for the lock instead of
        // refusing, and gets it once the holder lets go (its exit takes longer than our open).
        #expect(writeFile(state + "/lock", "\(gone.pid)\n"))
        holder.closeStdin()
        let store = try SessionStore(directory: state)
        store.close()
        #expect(await holderExit.value == .exited(status: 0))
    }

    @Test func aSecondStoreOrHostOnAStateDirectoryInUseFailsUntilTheFirstQuits() async throws {
        let state = makeTemporaryDirectory() + "/state"
        let first = try SceneHost(configuration: TestWorker.configuration(stateDirectory: state))
        try await first.scene("A").connect()
        let inUse = HostError.stateDirectoryInUse(directory: state, pid: getpid())
        #expect(
            "\(inUse)"
                == "state directory \(state) is in use by another host (pid \(getpid())): stop that host first, or use another state directory"
        )
        #expect(throws: inUse) { try SessionStore(directory: state) }
        #expect(throws: inUse) { try SceneHost(configuration: TestWorker.configuration(stateDirectory: state)) }
        // So no discard can be marked offline for a session a live host runs.
        #expect(throws: inUse) { try SessionStore(directory: state).markDiscarded("A") }
        #expect(Self.list(state + "/discarded").isEmpty)

        // The host's lock descriptors (the lock file's and the directory's) are close-on-exec,
        // and its worker holds no copy.
        let directory = try #require(canonicalPath(state))
        let lockTargets: Set = [directory, directory + "/lock"]
        let held = Self.openDescriptors("self").filter { lockTargets.contains($0.target) }
        #expect(held.count == 2)
        #expect(held.allSatisfy { fcntl($0.descriptor, F_GETFD) & FD_CLOEXEC != 0 })
        let worker = try #require(await first.scene("A").status().pid)
        #expect(!Self.openDescriptors("\(worker)").contains { lockTargets.contains($0.target) })

        // Quit releases the directory, though `first` is still referenced.
        await first.quit()
        #expect(throws: HostError.self) { try first.sessions.save(SceneSession(identifier: "Z")) }
        #expect(throws: HostError.self) { try first.sessions.markDiscarded("A") }
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { second in
            #expect(second.sessions.session("A") != nil)
        }
        #expect(Set(Self.list(state + "/sessions")) == ["A.json"])
    }

    /// `rm DIR/lock` under a running host lets no second host in: the directory itself is
    /// locked, not only the file that names the holder.
    @Test func removingTheLockFileUnderAHostLetsNoSecondOneIn() throws {
        let state = makeTemporaryDirectory()
        let first = try SessionStore(directory: state)
        #expect(unlink(state + "/lock") == 0)
        #expect(throws: HostError.stateDirectoryInUse(directory: state, pid: nil)) {
            try SessionStore(directory: state)
        }
        try first.save(SceneSession(identifier: "A"))
        first.close()
        let second = try SessionStore(directory: state)
        #expect(second.session("A") != nil)
        second.close()
    }

    @Test func theLockGoesWithTheStoreOrHostThatHeldIt() throws {
        let state = makeTemporaryDirectory()
        weak var released: SessionStore?
        do {
            let store = try SessionStore(directory: state)
            released = store
            #expect(throws: HostError.stateDirectoryInUse(directory: state, pid: getpid())) {
                try SessionStore(directory: state)
            }
            withExtendedLifetime(store) {}
        }
        #expect(released == nil)
        weak var hostStore: SessionStore?
        do {
            // A host never quit: its store goes with it.
            let host = try SceneHost(configuration: TestWorker.configuration(stateDirectory: state))
            hostStore = host.sessions
            #expect(throws: HostError.self) { try SessionStore(directory: state) }
            withExtendedLifetime(host) {}
        }
        #expect(hostStore == nil)
        // `close()` releases at once, even while a copy of its descriptor is open elsewhere,
        // as in a process another thread is spawning (between its fork and its exec); the
        // closed store writes nothing more.
        let closed = try SessionStore(directory: state)
        let directory = try #require(canonicalPath(state))
        let held = Self.openDescriptors("self").filter { $0.target == directory || $0.target == directory + "/lock" }
        #expect(held.count == 2, "the directory's descriptor and the lock file's")
        let copies = held.map { dup($0.descriptor) }
        #expect(copies.allSatisfy { $0 >= 0 })
        defer { for copy in copies { close(copy) } }
        closed.close()
        let reopened = try SessionStore(directory: state)
        #expect(throws: HostError.self) { try closed.save(SceneSession(identifier: "A")) }
        try reopened.save(SceneSession(identifier: "B"))
        try closed.delete("B")
        #expect(access(state + "/sessions/B.json", F_OK) == 0, "a closed store deleted a file of the next one")
        #expect(Set(Self.list(state + "/sessions")) == ["B.json"])
    }

    @Test func aSecondHostctlOnAStateDirectoryInUseExits3WithOneLine() async throws {
        let directory = makeTemporaryDirectory()
        let state = directory + "/state"
        let socket = directory + "/host.sock"
        let scenario = directory + "/one.json"
        #expect(
            writeFile(
                scenario,
                #"{"config":{"stateDir":"\#(state)"},"steps":[{"op":"connect","scene":"A"},{"op":"quit"}]}"#
            )
        )

        // The first host: a real `hostctl serve`.
        let serve = try WatchedHostctl(["serve", "--socket", socket, "--state-dir", state])
        defer { try? serve.child.send(signal: SIGKILL) }
        try #require(try await serve.waitUntilServing(), "serve did not start")
        let message =
            "state directory \(state) is in use by another host (pid \(serve.child.pid)): stop that host first, or use another state directory"

        let trace = directory + "/second.jsonl"
        let run = try await CommandLineTests.run(["run", scenario, "--quiet", "--trace", trace])
        #expect(run.exit == .exited(status: 3))
        #expect(run.stderr == "hostctl run: \(message)\n")
        #expect(access(trace, F_OK) != 0, "the refused host created its trace file")
        let demo = try await CommandLineTests.run(["demo", "--state-dir", state])
        #expect(demo.exit == .exited(status: 3))
        #expect(demo.stderr == "hostctl demo: \(message)\n")
        let other = directory + "/other.sock"
        let secondServe = try await CommandLineTests.run(["serve", "--socket", other, "--state-dir", state])
        #expect(secondServe.exit == .exited(status: 3))
        #expect(secondServe.stderr == "hostctl serve: \(message)\n")
        #expect(access(other, F_OK) != 0, "the refused host left its socket behind")

        // Once the first host has quit, the same run succeeds.
        let quit = try await CommandLineTests.run(["quit", "--socket", socket])
        #expect(quit.exit == .exited(status: 0), "\(quit.stderr)")
        #expect(try await serve.exit() == .exited(status: 0))
        let again = try await CommandLineTests.run(["run", scenario, "--quiet"])
        #expect(again.exit == .exited(status: 0), "\(again.stderr)")
    }

    /// The open descriptors of `/proc/<process>` and what they point at.
    static func openDescriptors(_ process: String) -> [(descriptor: Int32, target: String)] {
        Self.list("/proc/\(process)/fd").compactMap { name in
            guard let descriptor = Int32(name) else { return nil }
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/\(process)/fd/" + name, &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            return (descriptor, String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
