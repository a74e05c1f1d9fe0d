import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The memory limit charges a scene for its worker's whole process tree (issue 13 item 18).
@Suite struct ProcessTreeMemoryTests {
    static let helperBytes = 48 << 20

    /// A launcher that does not exec: it starts a helper that holds `helperBytes` (`tail -c`
    /// keeps the last that many bytes of a pipe that stays open), waits until the helper has
    /// them, then runs the real worker as a child. (A shell variable filled by `tr` cost four
    /// times the CPU, which the full suite under a sanitizer did not always give in time.)
    static var launcher: [String] {
        let script = """
            fifo="$1"; mkfifo "$fifo"
            ( ( head -c \(helperBytes) /dev/zero; echo >"$fifo"; sleep 1000 ) | tail -c \(helperBytes) >/dev/null ) &
            read -r _ <"$fifo"; rm -f "$fifo"
            "$0" worker; true
            """
        let fifo = makeTemporaryDirectory() + "/allocated"
        return ["/bin/sh", "-c", script, TestWorker.hostctl, fifo]
    }

    /// The runtime's group sentinel is a fork of the worker sharing its pages: counting it
    /// would charge every worker for its pages twice.
    @Test func theWorkersGroupSentinelIsNotCountedTwice() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let worker = try #require(await scene.status().pid)
            let members = HardeningProbe.processGroupMembers(worker)
            let guardian = members.first { HardeningProbe.readLines("/proc/\($0)/comm").first == "scenehost-guard" }
            try #require(guardian != nil, "no sentinel in the worker's group \(members)")
            let own = readResident(worker)
            let sentinel = readResident(guardian!)
            let tree = try #require(ProcessTable.snapshot().residentBytes(ofTreeAt: worker))
            // The sentinel holds a few MiB of the worker's pages (2.7 of 12 in a debug build).
            #expect(sentinel > 0)
            #expect(
                tree < own + sentinel / 2,
                "tree \(tree >> 10) KiB, worker \(own >> 10), sentinel \(sentinel >> 10)"
            )
        }
    }

    @Test func aWorkersHelpersAndALauncherThatDoesNotExecAreCounted() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(worker: Self.launcher)
            let launcher = try #require(await scene.status().pid)

            // The spawned process alone is the small shell; its tree holds the helper's memory.
            let ownBytes = readResident(launcher)
            #expect(ownBytes < Self.helperBytes / 4, "\(ownBytes)")
            let total = await host.totalResidentMemory()
            #expect(total >= Self.helperBytes, "\(total >> 10) KiB")
            let row = try #require(await host.controlRows().first { $0.scene == "A" })
            #expect((row.residentBytes ?? 0) >= Self.helperBytes, "\(String(describing: row.residentBytes))")
        }
    }

    @Test func aTreeOverTheLimitIsRelievedEvenIfItsLeaderIsSmall() async throws {
        var configuration = TestWorker.configuration()
        configuration.memoryLimitBytes = Self.helperBytes * 3 / 4
        configuration.memoryCheckInterval = .milliseconds(20)
        try await withSceneHost(configuration: configuration) { host in
            try await host.scene("A").connect(worker: Self.launcher)
            // Bounded by events, not by the test's own clock: the full suite under a sanitizer
            // has kept a test from starting for most of a minute (pool threads busy elsewhere).
            let exit = try await host.trace.firstEvent(within: TestLimit.launch, "A's exit") {
                $0.processEvent == .exited
            }
            #expect(exit.scene == "A")
            #expect(exit.reason == .jetsam)
        }
    }

    @Test func theTableReadsOddCommandNamesAndUnknownProcesses() async throws {
        // The command name in /proc/PID/stat is the executable's base name, in parentheses.
        let odd = makeTemporaryDirectory() + "/a) b (c) 1 2 3"
        #expect(symlink("/bin/sleep", odd) == 0)
        let child = try await ChildProcess.spawn(argv: [odd, "100"])
        child.closeStdin()
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
            EventLoop.shared.watch(
                child,
                onStdout: { _ in },
                onStderr: { _ in },
                onExit: { _ in continuation.resume() }
            )
            let bytes = child.processTreeResidentMemoryBytes() ?? 0
            #expect(bytes > 0 && bytes < 64 << 20, "\(bytes)")
            // This process's tree holds the child's memory too.
            let table = ProcessTable.snapshot()
            #expect((table.residentBytes(ofTreeAt: getpid()) ?? 0) >= readResident(getpid()) / 2)
            #expect(table.residentBytes(ofTreeAt: Int32.max) == nil)
            try? child.send(signal: SIGKILL)
        }
        #expect(child.processTreeResidentMemoryBytes() == nil)
    }
}

/// VmRSS of `pid` in bytes (0 if it cannot be read).
private func readResident(_ pid: Int32) -> Int {
    guard let bytes = readWholeFile("/proc/\(pid)/status", limit: 1 << 20) else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return kilobytes * 1024
}
