import CSceneHostSys
import Glibc
import HostProcess
import HostTools
import SceneModel
import Testing

/// A suspension waits until the kernel says the worker stopped. The waits share one thread,
/// and a worker that does not stop must not hold up another's.
@Suite
struct StopWaiterTests {
    /// Spawns `sleep 3600`, watched by the loop (which reaps it); `exited` hears of its exit.
    /// Long past any test's time (a sanitized run of this suite has taken two minutes): it
    /// must not end by itself. Each test kills its sleepers however it ends.
    private func sleeper(_ exited: Fired) async throws -> ChildProcess {
        let child = try await ChildProcess.spawn(argv: ["/bin/sleep", "3600"])
        EventLoop.shared.watch(child, onStdout: { _ in }, onStderr: { _ in }, onExit: { _ in exited.fire() })
        return child
    }

    @Test func aWorkerThatDoesNotStopHoldsUpNoOtherStop() async throws {
        let stuckExited = Fired()
        let otherExited = Fired()
        let stuck = try await sleeper(stuckExited)
        defer { try? stuck.send(signal: SIGKILL) }
        let other = try await sleeper(otherExited)
        defer { try? other.send(signal: SIGKILL) }
        let log = Entries()
        let stuckDone = Fired()
        let otherDone = Fired()

        // A stop that will not happen: `stuck` is never sent SIGSTOP, and its limit is far
        // beyond the test's, so that its wait stays pending throughout.
        let pidfd = csh_pidfd_open(stuck.pid, 0)
        try #require(pidfd >= 0)
        StopWaiter.wait(for: stuck, pidfd: pidfd, limit: .seconds(3600)) { stopped in
            log.append("stuck \(stopped)")
            stuckDone.fire()
        }
        StopWaiter.stop(other) { stopped in
            log.append("other \(stopped)")
            otherDone.fire()
        }
        try await otherDone.wait(within: TestLimit.event, "the other worker's stop")
        // One thread waiting for each stop in turn reported nothing for `other` before
        // `stuck`'s limit.
        #expect(log.values == ["other true"])
        #expect(ProcessState.of(other.pid) == "T")

        // `stuck` ends its own wait by dying (a worker gone counts as stopped).
        try stuck.send(signal: SIGKILL)
        try await stuckDone.wait(within: TestLimit.event, "the stuck worker's wait")
        #expect(log.values == ["other true", "stuck true"])
        try other.send(signal: SIGKILL)
        try await stuckExited.wait(within: TestLimit.event, "the stuck worker's exit")
        try await otherExited.wait(within: TestLimit.event, "the other worker's exit")
    }

    @Test func aStopThatDoesNotHappenInTimeIsReportedAsNotStopped() async throws {
        let exited = Fired()
        let child = try await sleeper(exited)
        defer { try? child.send(signal: SIGKILL) }
        let pidfd = csh_pidfd_open(child.pid, 0)
        try #require(pidfd >= 0)
        let outcome = Locked<Bool?>(nil)
        let done = Fired()
        // Never sent SIGSTOP, so it cannot stop within the limit.
        StopWaiter.wait(for: child, pidfd: pidfd, limit: .milliseconds(20)) { stopped in
            outcome.withLock { $0 = stopped }
            done.fire()
        }
        try await done.wait(within: TestLimit.event, "the wait's limit")
        #expect(outcome.withLock { $0 } == false)
        try child.send(signal: SIGKILL)
        try await exited.wait(within: TestLimit.event, "the child's exit")
    }
}

/// Fires once; waited for with a limit.
private final class Fired: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    func fire() {
        continuation.yield(())
        continuation.finish()
    }

    func wait(within limit: Duration, _ what: String) async throws {
        let stream = self.stream
        try await within(limit, what) {
            for await _ in stream { return }
            guard !Task.isCancelled else { throw CancellationError() }
        }
    }
}

/// What the callbacks reported, in order.
private final class Entries: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var values: [String] { entries.withLock { $0 } }
}

/// The state letter of `/proc/PID/stat` (`S`, `T`, `Z`, …), nil if the process is gone.
private enum ProcessState {
    static func of(_ pid: Int32) -> String? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }
}
