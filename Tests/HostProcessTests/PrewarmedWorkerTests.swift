import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// LIFECYCLE.md §4, Prewarming: the host keeps a worker started ahead once it has launched
/// one, a launch takes it, a dead one is never handed out, and nothing outlives the host.
@Suite struct PrewarmedWorkerTests {
    private let argv = [TestWorker.hostctl, "worker"]

    /// Waits until `pid` has died, without reaping it (the pool reaps its own).
    private func waitUntilDead(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Whether `pid` is gone for good: dead and reaped.
    private func isReaped(_ pid: pid_t) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Whether `pid` is dead: reaped, or a zombie waiting for whoever adopted it (the host is
    /// no subreaper; a worker's orphans go to init).
    private func isDead(_ pid: pid_t) -> Bool {
        isReaped(pid) || ProcessStat.read(pid)?.state == UInt8(ascii: "Z")
    }

    /// Returns once the work queued on the sweep thread before the call has run.
    private func sweepsDone() async {
        await withCheckedContinuationFromAnyThread { continuation in
            BlockingWorkThread.sweeps.submit { continuation.resume() }
        }
    }

    /// The group sentinel a worker starts as its first act (`csh_start_group_sentinel`), once
    /// it has. Polled, with a limit: no event tells another process that a process forked (a
    /// condition waited for, not a sleep standing in for an order of events).
    private func sentinel(of worker: pid_t) async throws -> pid_t {
        try await lookedUp("the sentinel of worker \(worker)", within: TestLimit.launch, every: .milliseconds(1)) {
            guard let text = ProcFile.text("/proc/\(worker)/task/\(worker)/children"),
                let first = text.split(separator: " ").first
            else { return nil }
            return pid_t(first)
        }
    }

    @Test func aLaunchTakesTheWorkerStartedAfterTheLastLaunchOneAtATime() async throws {
        let pool = PrewarmedWorkers(argv: argv, capacity: 1, scheduling: .inherited)
        #expect(pool.take(argv: argv) == nil, "nothing is started before a launch ended")
        pool.launchEnded(argv: argv)
        await pool.startsFinished()
        let waiting = pool.waitingPIDs
        #expect(waiting.count == 1)
        #expect(pool.take(argv: [TestWorker.customWorker]) == nil, "another argv spawns its own")
        let child = try #require(pool.take(argv: argv))
        #expect([child.pid] == waiting)
        #expect(pool.take(argv: argv) == nil, "one at a time, until the next launch ends")
        child.reapIfNeverWatched()
        await pool.close()
    }

    @Test func aWorkerThatDiedWhileItWaitedIsNeverHandedOut() async throws {
        let pool = PrewarmedWorkers(argv: argv, capacity: 1, scheduling: .inherited)
        pool.launchEnded(argv: argv)
        await pool.startsFinished()
        let pid = try #require(pool.waitingPIDs.first)
        let sentinel = try await sentinel(of: pid)
        kill(pid, SIGKILL)
        waitUntilDead(pid)
        #expect(pool.take(argv: argv) == nil)
        await sweepsDone()
        #expect(isReaped(pid), "the dead one is reaped, after the take")
        #expect(isDead(sentinel), "and its group's sentinel is dead")
        await pool.close()
    }

    @Test func noneIsStartedWithCapacityZeroOrAfterClose() async throws {
        let off = PrewarmedWorkers(argv: argv, capacity: 0, scheduling: .inherited)
        off.launchEnded(argv: argv)
        await off.startsFinished()
        #expect(off.waitingPIDs.isEmpty)

        let closed = PrewarmedWorkers(argv: argv, capacity: 1, scheduling: .inherited)
        await closed.close()
        closed.launchEnded(argv: argv)
        await closed.startsFinished()
        #expect(closed.waitingPIDs.isEmpty)
    }

    @Test func aPoolDroppedWithoutCloseKillsAndReapsItsWorkers() async throws {
        var pool: PrewarmedWorkers? = PrewarmedWorkers(argv: argv, capacity: 1, scheduling: .inherited)
        pool?.launchEnded(argv: argv)
        await pool?.startsFinished()
        let pid = try #require(pool?.waitingPIDs.first)
        pool = nil
        // The spawn thread lets go of the jobs it ran (the last references to the pool) after
        // their batch: a job of the next batch comes after that. The pool's reaping is then
        // queued on the sweep thread, which runs its work in order.
        await withCheckedContinuationFromAnyThread { continuation in
            BlockingWorkThread.shared.submit { continuation.resume() }
        }
        await sweepsDone()
        #expect(isReaped(pid))
    }

    @Test func theNextLaunchRunsThePrewarmedWorkerAndQuitLeavesNoneBehind() async throws {
        var configuration = TestWorker.configuration()
        configuration.prewarmedWorkers = 1
        let host = try SceneHost(configuration: configuration)
        let first = try host.scene("A")
        try await within(TestLimit.launch, "connect A") { try await first.connect() }
        await host.prewarmed.startsFinished()
        let prewarmed = try #require(host.prewarmed.waitingPIDs.first)

        let second = try host.scene("B")
        try await within(TestLimit.launch, "connect B") { try await second.connect() }
        #expect(await second.status().pid == prewarmed)
        await host.prewarmed.startsFinished()
        let next = try #require(host.prewarmed.waitingPIDs.first, "B's launch started the next one")
        let sentinel = try await sentinel(of: next)

        await host.quit()
        #expect(isReaped(next), "the host's quit killed and reaped the waiting worker")
        #expect(isDead(sentinel), "and its group's sentinel is dead")
        #expect(host.verifyTrace() == nil)
        let spawned = host.trace.history.filter { $0.processEvent == .spawned }.compactMap(\.pid)
        #expect(!spawned.contains(next), "a worker no launch took is in no trace")
    }
}

/// Workers run under SCHED_BATCH only for a host tuned for throughput; plain, they have the
/// host's policy. One a launch spawned and one prewarmed alike.
@Suite struct WorkerSchedulingTests {
    @Test(arguments: [HostTuning.plain, .throughput])
    func everyWorkerRunsUnderThePolicyOfItsTuning(_ tuning: HostTuning) async throws {
        var configuration = TestWorker.configuration()
        configuration.prewarmedWorkers = 1
        configuration.tuning = tuning
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await within(TestLimit.launch, "connect A") { try await scene.connect() }
            await host.prewarmed.startsFinished()
            let launched = try #require(await scene.status().pid)
            let prewarmed = try #require(host.prewarmed.waitingPIDs.first)
            let expected = tuning == .throughput ? schedBatch : SCHED_OTHER
            #expect(sched_getscheduler(launched) == expected)
            #expect(sched_getscheduler(prewarmed) == expected)
        }
    }
}

/// `--prewarm N` and a scenario's `"prewarm"` set how many workers wait (0: none).
@Suite struct PrewarmSettingTests {
    @Test func theScenarioAndTheFlagSetTheCount() throws {
        let scenario = try Scenario(json: Array(#"{"config":{"prewarm":0},"steps":[]}"#.utf8))
        let base = HostConfiguration(worker: ["w"])
        #expect(base.prewarmedWorkers == 1, "on by default")
        #expect(scenario.limits.applied(to: base).prewarmedWorkers == 0)
        #expect(throws: ScenarioError.self) {
            try Scenario(json: Array(#"{"config":{"prewarm":17},"steps":[]}"#.utf8))
        }
    }
}
