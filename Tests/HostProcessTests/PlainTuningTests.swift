import CSceneHostSys
import HostTools
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// `HostTuning.plain`, the default: the host changes nothing it does not own. A worker's own
/// CPU affinity and scheduling class, and a process the host did not start, are the same
/// after load, kills and the host's death as before.
@Suite(.timeLimit(.minutes(5)))
struct PlainTuningTests {
    /// The CPU the pinned worker asks for: the last one this process may use.
    private static let pinnedCPU: Int32 = {
        let mask = CPUMask.ofThread(0) ?? CPUMask.only(0)
        return (Int32(0)..<1024).last { mask.contains($0) } ?? 0
    }()

    @Test func plainIsTheDefault() {
        #expect(HostConfiguration(worker: ["w"]).tuning == .plain)
        #expect(HostConfiguration(worker: ["w"]).workerScheduling == .inherited)
    }

    /// One worker pins itself with `taskset`, another takes the host's CPUs; after thousands
    /// of transitions, a SIGKILL and a relaunch, every thread of both has the mask and the
    /// policy it started with.
    @Test func aWorkersAffinityAndSchedulingClassAreItsOwnAfterLoadAndKills() async throws {
        let hostMask = try #require(CPUMask.ofThread(0))
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let pinned = try host.scene("Pinned")
            let plain = try host.scene("Plain")
            try await pinned.connect(worker: [
                "/usr/bin/taskset", "-c", "\(Self.pinnedCPU)", TestWorker.hostctl, "worker",
            ])
            try await plain.connect()

            func expectUntouched(_ label: String) async throws {
                let pinnedPid = try #require(await pinned.status().pid)
                let plainPid = try #require(await plain.status().pid)
                for (pid, mask) in [(pinnedPid, CPUMask.only(Self.pinnedCPU)), (plainPid, hostMask)] {
                    let threads = CPUMask.threads(ofProcess: pid)
                    #expect(!threads.isEmpty, "\(label): no threads listed for \(pid)")
                    for thread in threads {
                        #expect(CPUMask.ofThread(thread) == mask, "\(label): affinity of thread \(thread) of \(pid)")
                        #expect(
                            sched_getscheduler(thread) == SCHED_OTHER,
                            "\(label): policy of thread \(thread) of \(pid)"
                        )
                    }
                }
            }

            try await expectUntouched("after connect")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for scene in [pinned, plain] {
                    group.addTask {
                        for _ in 0..<1_000 {
                            try await scene.deactivate()
                            try await scene.activate()
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await expectUntouched("after 4,000 transitions")

            try await plain.kill()
            try await plain.connect()
            try await expectUntouched("after a kill and a relaunch")
        }
    }

    /// A wrapper starts a daemon in a session of its own, then `exec`s `hostctl serve`: the
    /// daemon is the host's child from then on, but not the host's. It lives through a
    /// worker's death and the host's SIGKILL, with its affinity and policy as they were.
    @Test func anUnrelatedSetsidProcessOutlivesWorkerDeathsAndTheHost() async throws {
        let directory = makeTemporaryDirectory()
        let socket = directory + "/host.sock"
        let daemonFile = directory + "/daemon.pid"
        let wrapper = "setsid sleep 1000 & echo $! > \(daemonFile); exec \(TestWorker.hostctl) serve --socket \(socket)"
        let serve = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", wrapper])
        let serveOutput = OutputLines()
        let serveExit = ExitMailbox()
        EventLoop.shared.watch(
            serve,
            onStdout: { serveOutput.append($0) },
            onStderr: { _ in },
            onExit: { serveExit.deliver($0) }
        )
        try await serveOutput.wait(for: "serving on")
        let daemon = try #require(
            readSmallFile(daemonFile).split(whereSeparator: { !$0.isNumber }).first.flatMap { Int32($0) }
        )
        defer { kill(daemon, SIGKILL) }
        let maskBefore = CPUMask.ofThread(daemon)
        #expect(getsid(daemon) != getsid(serve.pid), "the daemon is in a session of its own")

        // Each worker's death used to sweep the host's children in other sessions.
        for _ in 0..<2 {
            #expect(await runHostctl(["connect", "A", "--socket", socket]) == .exited(status: 0))
            #expect(await runHostctl(["kill", "A", "--socket", socket]) == .exited(status: 0))
        }
        #expect(await runHostctl(["connect", "A", "--socket", socket]) == .exited(status: 0))
        #expect(kill(daemon, 0) == 0, "the daemon died with a worker")

        try serve.send(signal: SIGKILL)
        #expect(try await serveExit.wait(within: TestLimit.event) == .signaled(signal: SIGKILL))
        #expect(kill(daemon, 0) == 0, "the daemon died with the host")
        #expect(CPUMask.ofThread(daemon) == maskBefore)
        #expect(sched_getscheduler(daemon) == SCHED_OTHER)
    }
}

/// What a worker leaves behind, by where it can be found.
@Suite(.timeLimit(.minutes(5)))
struct WorkerContainmentTests {
    /// A child with a grandchild in its process group and one that calls setsid(): in a
    /// cgroup of its own, both end with it.
    @Test(.enabled(if: WorkerCgroup.hostDirectory != nil, "needs a writable cgroup v2"))
    func whatAWorkerLeavesInItsCgroupEndsWithIt() async throws {
        let pids = try await runAndLeaveBehind(ownCgroup: true)
        for pid in pids {
            #expect(HardeningProbe.waitForDeath(of: pid), "pid \(pid) is still running")
            kill(pid, SIGKILL)
        }
    }

    /// A host that exits takes its directory of worker cgroups with it: left behind, it keeps
    /// the cgroup the host ran in (a CI stage's, a systemd scope's) from being removed.
    @Test(.enabled(if: WorkerCgroup.hostDirectory != nil, "needs a writable cgroup v2"))
    func aHostThatExitsLeavesNoCgroupDirectory() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        // The server runs in this process's cgroup: its directory is beside this process's.
        let ours = try #require(WorkerCgroup.hostDirectory)
        let parent = ours[..<(ours.lastIndex(of: "/") ?? ours.endIndex)]
        let directory = "\(parent)/scenehost-\(server.process.child.pid)"
        #expect(access(directory, F_OK) == 0, "the serving host made no directory for its workers")
        try await server.quit()
        #expect(access(directory, F_OK) != 0, "\(directory) outlived its host")
    }

    /// Without a cgroup, the process group is all the host can prove came from the worker:
    /// the grandchild in it ends, the one that left it is not the host's to signal.
    @Test func withoutACgroupOnlyTheProcessGroupEnds() async throws {
        let pids = try await runAndLeaveBehind(ownCgroup: false)
        defer { for pid in pids { kill(pid, SIGKILL) } }
        // The group's SIGKILL was sent; the grandchild's death is its event (a pidfd's).
        #expect(HardeningProbe.waitForDeath(of: pids[0]), "the grandchild in the worker's group outlived it")
        #expect(isRunning(pids[1]), "the grandchild in its own session was signalled")
    }

    /// Runs a shell that starts two sleeps (the second with setsid), prints their pids and
    /// exits; returns once its death has been handled, cgroup and all.
    private func runAndLeaveBehind(ownCgroup: Bool) async throws -> [Int32] {
        // The second prints its pid only once it is in its own session: the worker's group is
        // killed at its death, and a setsid that had not run yet would die with the group.
        let marker = makeTemporaryDirectory() + "/escaped"
        // posix_spawn (the fallback path, and the only one under ThreadSanitizer) moves its
        // child into the cgroup right after the spawn: the shell waits until it is there,
        // so that this test is about the kill, not about that window (docs/ARCHITECTURE.md).
        let waitForCgroup =
            ownCgroup
            ? "n=0; while ! grep -q '/worker-' /proc/$$/cgroup; do n=$((n+1)); [ $n -lt 5000 ] || exit 3; done\n" : ""
        let script =
            waitForCgroup + """
                sleep 1000 & echo $!
                setsid sh -c 'echo $$ > "$0.tmp"; mv "$0.tmp" "$0"; exec sleep 1000' \(marker) &
                n=0; while [ ! -s \(marker) ]; do n=$((n+1)); [ $n -lt 1000000 ] || exit 3; done
                cat \(marker); exit 0
                """
        let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", script], ownCgroup: ownCgroup)
        #expect((child.cgroup != nil) == (ownCgroup && WorkerCgroup.hostDirectory != nil))
        let cgroupPath = child.cgroup?.path
        let output = Locked<[UInt8]>([])
        let exit = await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                child,
                onStdout: { bytes in output.withLock { $0 += bytes } },
                onStderr: { _ in },
                onExit: { done.resume(returning: $0) },
                killsProcessGroupAtExit: true
            )
        }
        #expect(exit == .exited(status: 0))
        let pids = String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n").compactMap {
            Int32($0)
        }
        try #require(pids.count == 2)
        // The loop submits the cgroup's kill right after it calls onExit, in the same handler:
        // a job on the loop runs after that handler, and what it submits to the sweep thread
        // runs after the kill.
        await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<Void, Never>) in
            EventLoop.shared.execute { BlockingWorkThread.sweeps.submit { done.resume() } }
        }
        if let cgroupPath {
            #expect(access(cgroupPath, F_OK) != 0, "the worker's cgroup is still there")
        }
        return pids
    }
}

/// Whether `pid` is alive and not a zombie (an orphan's zombie waits for init to reap it).
private func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = ProcessStat.read(pid) else { return false }
    return stat.state != UInt8(ascii: "Z")
}

private func readSmallFile(_ path: String) -> String {
    ProcFile.text(path, limit: 4096) ?? ""
}

/// Runs `hostctl ARGS` to its end.
private func runHostctl(_ arguments: [String]) async -> ChildExit? {
    guard let child = try? await ChildProcess.spawn(argv: [TestWorker.hostctl] + arguments) else { return nil }
    child.closeStdin()
    return await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<ChildExit, Never>) in
        EventLoop.shared.watch(child, onStdout: { _ in }, onStderr: { _ in }, onExit: { done.resume(returning: $0) })
    }
}

/// A watched child's exit, for a waiter that may come before or after it.
private final class ExitMailbox: Sendable {
    private let state = Locked<(exit: ChildExit?, waiter: CheckedContinuation<ChildExit, Never>?)>((nil, nil))

    func deliver(_ exit: ChildExit) {
        let waiter = state.withLock { state in
            state.exit = exit
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: exit)
    }

    /// The exit, or `TimedOut` after `limit`.
    func wait(within limit: Duration) async throws -> ChildExit {
        let state = self.state
        return try await abandoning(after: limit, "the exit") {
            await withCheckedContinuationFromAnyThread { continuation in
                let exit = state.withLock { state in
                    if state.exit == nil { state.waiter = continuation }
                    return state.exit
                }
                if let exit { continuation.resume(returning: exit) }
            }
        }
    }
}
