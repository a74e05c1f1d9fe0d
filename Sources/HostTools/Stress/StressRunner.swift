import Glibc
import HostProcess
import Protocol
import SceneModel

/// Concurrency stress with invariant checks (`hostctl stress`).
///
/// `clients` tasks send the plan's operations (legal and illegal, see `StressPlan`) to the
/// scenes through the `SceneHost` API, some of them SIGKILLs of live workers from outside the
/// host. Then the host quits and the run checks, counting each broken invariant as a
/// violation (one line each to `reporting`):
/// - every request got exactly one reply (a request unanswered for `replyTimeout` ends the run);
/// - the trace passes the model, refusals changed nothing (see `StressAudit`);
/// - no worker outlived the quit, every spawned worker's exit is in the trace;
/// - the process holds no more descriptors than before the host started.
///
/// With `ops` = 0 it runs the scale check instead: every scene connects at once and must
/// reach `foregroundActive`; the report has the time it took and the host's memory.
public struct StressRunner: Sendable {
    public var options: StressOptions
    public var configuration: HostConfiguration
    /// Where to write the trace (JSON Lines) once the checks are done; nil for nowhere.
    public var tracePath: String?

    public init(options: StressOptions, configuration: HostConfiguration, tracePath: String? = nil) {
        self.options = options
        self.configuration = configuration
        self.tracePath = tracePath
    }

    /// The host's timers as the audit judges them.
    private var timing: TimerAudit.Timing {
        TimerAudit.Timing(configuration, minimumSlack: StressUnits.seconds(options.timerSlack))
    }

    /// Runs the stress; throws only when the host cannot start.
    public func run(reporting: @escaping @Sendable (String) -> Void = { _ in }) async throws(HostError) -> StressReport
    {
        ProcessResources.raiseDescriptorLimit()
        let log = ViolationLog(reporting)
        var report = StressReport(options: options)
        // Process-wide resources created on first use must not count as growth: the event
        // loop's epoll descriptor, the descriptors spawns borrow, and what the runtime opens
        // for its first timer. (A failure to start shows when the host starts, below.)
        try? HostThreads.start()
        try? await Task.sleep(for: .milliseconds(1))
        report.descriptorsBefore = options.checksDescriptors ? ProcessResources.openDescriptorCount() : nil

        // The host holds only the newest events: the audit reads them round by round.
        var configuration = self.configuration
        // A scale run has one round, every scene's connect and quit, read at its end: it needs
        // room for all of them whatever the configuration says.
        let scaleHistory = max(
            StressOptions.traceHistoryLimitBytes,
            options.scenes * StressOptions.scaleHistoryBytesPerScene
        )
        if options.isScaleRun {
            configuration.traceHistoryLimitBytes = max(configuration.traceHistoryLimitBytes ?? 0, scaleHistory)
        } else if configuration.traceHistoryLimitBytes == nil {  // as `StressOptions.configuration` leaves it
            configuration.traceHistoryLimitBytes = StressOptions.traceHistoryLimitBytes
        }
        // The trace file, if any, is written as events are recorded (in batches, by a thread
        // of its own): the run never holds all of them.
        let host = try SceneHost(configuration: configuration, tracePath: tracePath)
        var handles: [SceneHandle] = []
        for index in 0..<options.scenes { handles.append(try host.scene(StressPlan.sceneName(index))) }

        let action: @Sendable (Int) -> StressAction
        let table: RequestTable
        let phaseFinished: Bool
        let feed = AuditFeed(
            StressAudit(log: log, timing: timing),
            trace: host.trace,
            limit: configuration.traceHistoryLimitBytes
        )
        if options.isScaleRun {
            action = { .request(id: $0, scene: $0, .connect()) }
            table = RequestTable(count: options.scenes)
            phaseFinished = await connectAll(handles, table: table, report: &report, log: log)
        } else {
            let plan = StressPlan(options: options)
            // Action `id` went to client `id % clients`, as its `id / clients`-th.
            action = { plan.clients[$0 % plan.clients.count][$0 / plan.clients.count] }
            table = RequestTable(count: options.ops)
            phaseFinished = await runClients(
                plan,
                host: host,
                handles: handles,
                trace: host.trace,
                table: table,
                report: &report,
                log: log,
                afterRound: { end in feed.catchUp(requestsBefore: end, table: table, action: action) }
            )
        }

        let quitStart = ContinuousClock.now
        let quitFinished = await StressWatchdog.run(within: options.replyTimeout) { await host.quit() }
        report.quitDuration = ContinuousClock.now - quitStart
        if !quitFinished { log.record("quit did not complete within \(options.replyTimeout)") }

        tally(table, action, into: &report, log: log, finished: phaseFinished)
        feed.catchUp(requestsBefore: table.count, table: table, action: action)
        let audit = feed.finish(statusChanges: table.takeStatusChanges())
        report.events = audit.eventCount
        report.workers = audit.spawned.count
        report.timersKept = audit.timersKept
        report.windowsOpened = audit.windows.opened
        report.windowsClosed = audit.windows.closed
        report.appSceneWorkers = audit.appSceneSpawns
        report.appSceneKills = table.killedPids.count { audit.appScenePids.contains($0) }

        if quitFinished {
            for pid in audit.spawned where !audit.exited.contains(pid) {
                log.record("worker \(pid) was spawned but its exit is not in the trace")
            }
            for pid in audit.spawned where ProcessResources.isLiveChild(pid) {
                log.record("worker \(pid) is still alive after quit")
            }
            if let before = report.descriptorsBefore,
                let after = ProcessResources.openDescriptorCount(
                    workers: Set(audit.spawned),
                    files: tracePath.map { [$0] } ?? []
                )
            {
                report.descriptorsAfter = after
                if after > before {
                    log.record(
                        "the host holds \(after - before) more file descriptors after quit (\(before) before, \(after) after)"
                    )
                }
            }
        }
        report.peakResidentKB = ProcessResources.memoryKB().peak
        if let tracePath, let error = host.trace.fileError {
            reporting("hostctl stress: cannot write the trace to \(tracePath): \(error)")
        }
        report.violationCount = log.count
        report.violations = log.descriptions
        return report
    }

    // MARK: Phases

    /// The clients' phase, in `settles` rounds: the clients run a round's share of the plan
    /// together, then every scene is left alone until it owes no timer (`settle`), so that
    /// the audit sees each timer's event come, or not, after the last refusals of the round.
    private func runClients(
        _ plan: StressPlan,
        host: SceneHost,
        handles: [SceneHandle],
        trace: TraceRecorder,
        table: RequestTable,
        report: inout StressReport,
        log: ViolationLog,
        afterRound: @escaping @Sendable (_ end: Int) -> Void
    ) async -> Bool {
        let start = ContinuousClock.now
        let limit = options.replyTimeout
        let rounds = options.rounds
        let total = max(1, options.ops)
        let settleLimit = Duration.milliseconds(Int(timing.settleLimit * 1000))
        let finished = await StressWatchdog.run(
            within: nil,
            overdue: { !table.overdue(limit: limit).isEmpty },
            {
                for round in 0..<rounds {
                    let range = total * round / rounds..<total * (round + 1) / rounds
                    await withTaskGroup(of: Void.self) { group in
                        for actions in plan.clients {
                            let share = actions.filter { range.contains($0.id) }
                            group.addTask {
                                await Self.runClient(share, host: host, handles: handles, trace: trace, table: table)
                            }
                        }
                    }
                    await Self.settle(host, within: settleLimit)
                    // Every request of the round was answered: the audit reads its events.
                    afterRound(range.upperBound)
                }
            }
        )
        report.elapsed = ContinuousClock.now - start
        report.residentKB = ProcessResources.memoryKB().resident
        if !finished {
            for id in table.overdue(limit: limit) {
                log.record("request #\(id) got no reply within \(limit)")
            }
        }
        return finished
    }

    private static func runClient(
        _ actions: [StressAction],
        host: SceneHost,
        handles: [SceneHandle],
        trace: TraceRecorder,
        table: RequestTable
    ) async {
        for action in actions {
            switch action {
            case .request(let id, let scene, let op):
                // The status right before and after: a refusal must leave it as it was.
                let before = trace.elapsed
                let statusBefore = await handles[scene].status()
                table.start(id, at: trace.elapsed)
                let start = ContinuousClock.now
                let outcome: RequestOutcome
                do {
                    try await handles[scene].perform(op)
                    outcome = .accepted
                } catch {
                    outcome = RequestOutcome(error)
                }
                table.complete(id, outcome, latency: ContinuousClock.now - start, at: trace.elapsed)
                guard outcome == .refused else { continue }
                let statusAfter = await handles[scene].status()
                if statusAfter != statusBefore {
                    table.statusChanged(
                        .init(id: id, start: before, end: trace.elapsed, before: statusBefore, after: statusAfter)
                    )
                }
            case .kill(let id, let pick):
                // Every scene's, the windows the apps opened included.
                let live = await host.statuses().compactMap { status in status.pid.map { (status.scene, $0) } }
                guard !live.isEmpty else {
                    table.killed(id, pid: nil)
                    continue
                }
                let (scene, pid) = live[pick % live.count]
                // Held first, then checked: a worker reaped since the statuses were read may
                // have left its pid to a process the host does not own.
                guard let process = PidDescriptor(pid: pid),
                    await host.statuses().contains(where: { $0.scene == scene && $0.pid == pid })
                else {
                    table.killed(id, pid: nil)
                    continue
                }
                table.killed(id, pid: process.send(signal: SIGKILL) ? pid : nil)
            }
        }
    }

    /// Waits until no scene owes a timer's event (a background worker still running: the host
    /// suspends it, or expires its background task and then kills it, in time), at most
    /// `limit`. A background task in the foreground owes nothing: its clock runs in the
    /// background only. A host that lost a timer is left to the audit, which finds the event
    /// missing. The windows the apps opened are waited for too.
    private static func settle(_ host: SceneHost, within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        func owesTimer(_ status: SceneStatus) -> Bool {
            status.process == .running && status.activation == .background
        }
        while ContinuousClock.now < deadline, await host.statuses().contains(where: owesTimer) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The scale check: every scene connects at once; each must end `foregroundActive`.
    private func connectAll(
        _ handles: [SceneHandle],
        table: RequestTable,
        report: inout StressReport,
        log: ViolationLog
    ) async -> Bool {
        let start = ContinuousClock.now
        let finished = await StressWatchdog.run(within: options.replyTimeout) {
            await withTaskGroup(of: Void.self) { group in
                for (index, handle) in handles.enumerated() {
                    group.addTask {
                        table.start(index)
                        let start = ContinuousClock.now
                        do {
                            try await handle.connect()
                            table.complete(index, .accepted, latency: ContinuousClock.now - start)
                        } catch {
                            table.complete(index, RequestOutcome(error), latency: ContinuousClock.now - start)
                        }
                    }
                }
            }
        }
        report.elapsed = ContinuousClock.now - start
        report.residentKB = ProcessResources.memoryKB().resident
        if !finished { log.record("the scenes did not all connect within \(options.replyTimeout)") }
        for (index, handle) in handles.enumerated() {
            let status = await handle.status()
            if status.activation == .foregroundActive && status.process == .running {
                report.connected += 1
            } else {
                let outcome = table.entries(index..<index + 1)[0].outcome
                log.record(
                    "scene \(status.scene) is \(status.activation) (worker \(status.process)) after connect, expected foregroundActive"
                        + (outcome == .accepted ? "" : " (connect: \(outcome))")
                )
            }
        }
        return finished
    }

    // MARK: Figures

    /// Counts outcomes and latencies; every request must have completed exactly once, and
    /// only with an outcome a stress run may see.
    private func tally(
        _ table: RequestTable,
        _ action: (Int) -> StressAction,
        into report: inout StressReport,
        log: ViolationLog,
        finished: Bool
    ) {
        var latencies: [Int] = []
        latencies.reserveCapacity(table.count)
        // A share at a time: no copy of the whole table.
        var entries: [RequestTable.Entry] = []
        var first = 0
        for id in 0..<table.count {
            if id - first >= entries.count {
                first = id
                entries = table.entries(id..<min(table.count, id + 10_000))
            }
            let action = action(id)
            let entry = entries[id - first]
            guard case .request(let id, let scene, let op) = action else {
                if entry.killed != nil { report.kills += 1 }
                continue
            }
            let what = "request #\(id) (\(op.name) on \(StressPlan.sceneName(scene)))"
            if entry.completions > 1 {
                log.record("\(what) completed \(entry.completions) times")
            } else if entry.completions == 0 {
                // Overdue requests are reported by the phase that gave up on them.
                if finished { log.record("\(what) never completed") }
                continue
            }
            if case .openURL = op { report.openURLs += 1 }
            switch entry.outcome {
            case .accepted: report.accepted += 1
            case .refused: report.refused += 1
            case .failed, .pending: report.failed += 1
            case .unexpected(let message):
                report.failed += 1
                log.record("\(what) failed: \(message)")
            }
            latencies.append(StressUnits.microseconds(entry.latency))
        }
        latencies.sort()
        if !latencies.isEmpty {
            report.latencyP50 = latencies[(latencies.count - 1) * 50 / 100]
            report.latencyP99 = latencies[(latencies.count - 1) * 99 / 100]
        }
    }
}
