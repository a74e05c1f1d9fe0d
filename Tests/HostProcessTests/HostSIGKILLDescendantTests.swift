import CSceneHostSys
import HostTools
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// Waits on a dedicated thread until `pid` has exited (its pidfd turns readable), for at most
/// `limit` milliseconds; true when it did.
private func processEnds(_ pid: Int32, limit: Int32) async -> Bool {
    let pidfd = csh_pidfd_open(pid, 0)
    guard pidfd >= 0 else { return errno == ESRCH }
    return await withCheckedContinuationFromAnyThread { continuation in
        PlatformThread.startDetached(name: "test-pidfd") {
            var poller = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            var ready: Int32
            repeat { ready = poll(&poller, 1, limit) } while ready < 0 && errno == EINTR
            close(pidfd)
            continuation.resume(returning: ready == 1)
        }
    }
}

// A hang guard only: under ASan, in the full suite on two cores, the test has taken over
// a minute (a serve, a launcher, a worker and a grandchild, all sanitized, started and killed).
@Suite(.timeLimit(.minutes(5)))
struct HostSIGKILLDescendantTests {
    /// A worker (the real one, behind a launcher that starts a grandchild in the worker's
    /// process group and then execs it) outlives nothing when its host is SIGKILLed: the
    /// worker dies of its parent-death signal and its sentinel takes the group down.
    @Test func aSIGKILLedHostLeavesNoGrandchildRunning() async throws {
        let directory = makeTemporaryDirectory()
        let socket = directory + "/host.sock"
        let pidFile = directory + "/grandchild.pid"
        let serve = try await ChildProcess.spawn(argv: [TestWorker.hostctl, "serve", "--socket", socket])
        let serveOutput = OutputLines()
        let serveExit = Locked<CheckedContinuation<ChildExit, Never>?>(nil)
        let serveExited = Locked<ChildExit?>(nil)
        EventLoop.shared.watch(
            serve,
            onStdout: { serveOutput.append($0) },
            onStderr: { _ in },
            onExit: { exit in
                // Both under `serveExit`'s lock, which the waiter below checks them under.
                let waiting = serveExit.withLock { continuation in
                    serveExited.withLock { $0 = exit }
                    defer { continuation = nil }
                    return continuation
                }
                waiting?.resume(returning: exit)
            }
        )
        try await serveOutput.wait(for: "serving on")

        let launcher = "sleep 1000 & echo $$ $! > \(pidFile); exec \(TestWorker.hostctl) worker"
        let connect = try await ChildProcess.spawn(argv: [
            TestWorker.hostctl, "connect", "A", "--socket", socket,
            "--worker", "/bin/sh", "--worker-arg", "-c", "--worker-arg", launcher,
        ])
        connect.closeStdin()
        let connectExit = await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                connect,
                onStdout: { _ in },
                onStderr: { _ in },
                onExit: { done.resume(returning: $0) }
            )
        }
        #expect(connectExit == .exited(status: 0))
        let pids = String(decoding: (try? readAll(pidFile)) ?? [], as: UTF8.self)
            .split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) }
        guard pids.count == 2 else {
            Issue.record("no worker and grandchild pids")
            try? serve.send(signal: SIGKILL)
            return
        }
        let grandchild = pids[1]
        #expect(kill(grandchild, 0) == 0)

        try serve.send(signal: SIGKILL)
        let exit = try await abandoning(after: TestLimit.event, "the SIGKILLed host's exit") {
            await withCheckedContinuationFromAnyThread { (done: CheckedContinuation<ChildExit, Never>) in
                let already: ChildExit? = serveExit.withLock { continuation in
                    if let exit = serveExited.withLock({ $0 }) { return exit }
                    continuation = done
                    return nil
                }
                if let already { done.resume(returning: already) }
            }
        }
        #expect(exit == .signaled(signal: SIGKILL))

        let ended = await processEnds(grandchild, limit: 20_000)
        #expect(ended, "the worker's grandchild \(grandchild) outlived the SIGKILLed host")
        if !ended { kill(grandchild, SIGKILL) }
    }

    /// A worker run by hand (`hostctl worker | consumer` in a job-control shell; issue 35,
    /// item 9) leads the pipeline's process group, which is the user's, not one a host made:
    /// it starts no sentinel, so its exit kills nothing of that group.
    @Test(.enabled(if: access("/bin/bash", X_OK) == 0, "needs bash: its set -m makes job groups without a terminal"))
    func aWorkerRunByHandSparesItsPipelinesConsumer() async throws {
        // As an interactive shell does, bash's `set -m` runs the pipeline in a group of its
        // own, led by its first process, the worker. The worker reads the shell's stdin (fd 3)
        // and nothing else holds it, so the test ends the worker by closing it.
        let script = """
            unset SCENEHOST_HOST_PID
            set -m
            exec 3<&0 0</dev/null
            "$0" worker <&3 3<&- | sleep 600 3<&- &
            echo "$!"
            exec 3<&-
            wait
            """
        let shell = try Spawned(["/bin/bash", "-c", script, TestWorker.hostctl])
        defer { try? shell.child.send(signal: SIGKILL) }
        let consumer = try #require(try await shell.line { !$0.isEmpty }.flatMap { Int32($0) })
        defer { kill(consumer, SIGKILL) }
        let group = try #require(processGroup(of: consumer))
        // The pipeline's group (the worker, a sentinel if it started one, the consumer) is
        // only this test's: killed whatever happens.
        defer { kill(-group, SIGKILL) }
        #expect(group != consumer && group != getpgrp(), "the pipeline runs in a group of its own")

        shell.child.closeStdin()
        #expect(await processEnds(group, limit: 20_000), "the worker (\(group)) did not exit at its input's end")
        // A sentinel kills the whole group, the consumer too, and then itself: once every
        // other member has ended, the consumer either died with them or was spared.
        for member in HardeningProbe.processGroupMembers(group) where member != consumer {
            #expect(await processEnds(member, limit: 20_000), "group member \(member) lives on")
        }
        #expect(kill(consumer, 0) == 0 && processState(consumer) != "Z", "the worker's exit killed its consumer")
        kill(consumer, SIGKILL)
        #expect(try await shell.exit() == .exited(status: 0), "\(shell.stderr)")
    }
}

/// The process group of `pid` (field 5 of /proc/PID/stat), or nil when it is gone.
private func processGroup(of pid: Int32) -> Int32? {
    guard let stat = HardeningProbe.readLines("/proc/\(pid)/stat").first, let close = stat.lastIndex(of: ")") else {
        return nil
    }
    // After "comm)": state ppid pgrp …
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 2 ? Int32(fields[2]) : nil
}

private func readAll(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(descriptor, &buffer, buffer.count)
    return Array(buffer[0..<max(0, count)])
}
