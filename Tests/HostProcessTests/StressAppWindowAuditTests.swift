import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The stress audit accounts for what the host did for an app (docs/LIFECYCLE.md §3c): the
/// windows it opened and closed have no client request behind them, only the app's
/// notification, and an `openURL` spawns or delivers `openURLContexts`.
@Suite struct StressAppWindowAuditTests {
    /// A stress run mixes `openURL` and the apps' own windows with kills, and the audit finds
    /// nothing wrong: the windows opened had their own workers, some of them killed.
    ///
    /// Whether a window's worker is one no request went to depends on the interleaving: the
    /// clients send requests to the windows too, and a host that opens them sooner has them
    /// asked sooner (seed 1 measured 0 to 11 such workers a run). So the next seed runs, up to
    /// three, until one run has such a worker; every run must break nothing.
    @Test func aStressRunWithURLsAndAppOpenedWindowsAndKillsBreaksNoInvariant() async throws {
        var details: [String] = []
        for seed in 1...3 {
            var options = StressOptions.inTests(scenes: 3, ops: 600, clients: 3)
            options.killRate = 0.05
            options.seed = UInt64(seed)
            let report = try await options.run()
            details.append(report.detailLine)
            #expect(report.violationCount == 0, "\(report.violations.joined(separator: "\n"))")
            #expect(report.openURLs > 0, "\(report.detailLine)")
            // Each seed sends 20-odd openWindow notifications; runs open 6 to 13 windows.
            #expect(report.windowsOpened > 0, "\(report.detailLine)")
            #expect(report.kills > 0)
            if report.appSceneWorkers > 0 { return }
        }
        Issue.record("no run had a window whose worker no request went to: \(details.joined(separator: "; "))")
    }

    /// A real run: S0's app opens S0-1 and closes it again, S0 gets a URL while connected, S1
    /// (no worker) connects with one, and S0's app asks for a window past the host's limit.
    private func recordedRun() async throws -> (history: [TraceEvent], requests: [StressAudit.Request?]) {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let opener = try host.scene("S0")
            try await opener.connect()
            try await opener.notify(StressPlan.openWindow, value: .int(1))
            try await host.scene("S0-1").waitFor(.foregroundActive, timeout: TestLimit.launch)
            try await opener.openURL(StressPlan.url(request: 2))
            try await host.scene("S1").openURL(StressPlan.url(request: 3))
            let mark = host.lastSeq
            try await opener.notify(StressPlan.closeWindow, value: .string("S0-1"))
            _ = try await host.trace.firstEvent(fromSeq: mark + 1, "the opened window's exit") {
                $0.scene == "S0-1" && $0.processEvent == .exited
            }
            // As if apps had opened the most windows already.
            host.reservedWindowNames.withLock { names in
                for number in 0..<SceneHost.maximumAppOpenedWindows { names.insert("W\(number)") }
            }
            let limit = host.lastSeq
            try await opener.notify(StressPlan.openWindow, value: .int(5))
            _ = try await host.trace.firstEvent(fromSeq: limit + 1, "the refusal past the limit") {
                $0.kind == .error && $0.op == AppWindowAudit.activation
            }
            return host
        }
        let requests: [StressAudit.Request?] = [
            .init(scene: "S0", op: .connect(), outcome: .accepted),
            .init(scene: "S0", op: .notify(name: StressPlan.openWindow, value: .int(1)), outcome: .accepted),
            .init(scene: "S0", op: .openURL(url: StressPlan.url(request: 2)), outcome: .accepted),
            .init(scene: "S1", op: .openURL(url: StressPlan.url(request: 3)), outcome: .accepted),
            .init(scene: "S0", op: .notify(name: StressPlan.closeWindow, value: .string("S0-1")), outcome: .accepted),
            .init(scene: "S0", op: .notify(name: StressPlan.openWindow, value: .int(5)), outcome: .accepted),
        ]
        return (host.trace.history, requests)
    }

    private func audit(_ history: [TraceEvent], _ requests: [StressAudit.Request?]) -> (StressAudit, [String]) {
        let log = ViolationLog { _ in }
        var audit = StressAudit(history: history, requests: requests, log: log)
        audit.run()
        return (audit, log.descriptions)
    }

    /// Renumbers a doctored history, as the host would have recorded it.
    private func renumbered(_ history: [TraceEvent]) -> [TraceEvent] {
        var history = history
        for index in history.indices { history[index].seq = index + 1 }
        return history
    }

    @Test func anAppOpenedWindowAndURLsAreAccountedFor() async throws {
        let run = try await recordedRun()
        let (audit, found) = audit(run.history, run.requests)
        #expect(found == [])
        #expect(audit.windows.opened == 1 && audit.windows.closed == 1)
        #expect(audit.appSceneSpawns == 1)
    }

    @Test func aSpawnNoAppAskedForIsCaught() async throws {
        let run = try await recordedRun()
        let history = renumbered(
            run.history.filter { !($0.kind == .host && $0.name == AppWindowAudit.activation) }
        )
        let (_, found) = audit(history, run.requests)
        #expect(
            found.contains {
                $0.hasPrefix(
                    "scene S0-1: 1 connect transitions in the trace for 0 accepted and 0 failed connect requests"
                )
            },
            "\(found)"
        )
    }

    @Test func aWindowTheAppDidNotAskForIsCaught() async throws {
        let run = try await recordedRun()
        // The first openWindow never reached the app: the host opened S0-1 on its own.
        let notification = try #require(
            run.history.firstIndex { $0.notification == StressPlan.openWindow && $0.value == .int(1) }
        )
        var history = run.history
        history.remove(at: notification)
        let (_, found) = audit(renumbered(history), run.requests)
        #expect(
            found.contains {
                $0
                    == "scene S0: the host opened 1 windows and refused 1 for its app, which got 1 openWindow notifications"
            },
            "\(found)"
        )
    }

    /// A refusal on a window may be the host's on its opener's behalf (a client's request got
    /// there first), as many as the app asked for there, and no more.
    @Test func refusalsOnAWindowAreBoundedByTheAppsRequests() async throws {
        let run = try await recordedRun()
        // While S0-1 is active and idle: right before the app asks to close it.
        let closing = try #require(
            run.history.firstIndex { $0.kind == .host && $0.name == AppWindowAudit.destruction }
        )
        var refusal = TraceEvent(
            kind: .error,
            scene: "S0-1",
            op: LifecycleOperation.connect.rawValue,
            code: ProtocolError.Code.illegalTransition.rawValue,
            message: "already connected"
        )
        refusal.time = run.history[closing - 1].time
        var once = run.history
        once.insert(refusal, at: closing)
        #expect(audit(renumbered(once), run.requests).1 == [])
        var twice = once
        twice.insert(refusal, at: closing)
        let found = audit(renumbered(twice), run.requests).1
        #expect(
            found == ["scene S0-1: 0 connect requests refused but 2 refusals in the trace (and 1 app window requests)"],
            "\(found)"
        )
    }

    @Test func aRefusedOpenURLThatSpawnedIsCaught() async throws {
        var run = try await recordedRun()
        run.requests[3]?.outcome = .refused
        let (_, found) = audit(run.history, run.requests)
        #expect(
            found.contains { $0.hasPrefix("scene S1: 1 connect transitions in the trace for 0 accepted") },
            "\(found)"
        )
        #expect(found.contains { $0.contains("1 openURL requests refused but 0 refusals") }, "\(found)")
    }

    @Test func anAcceptedOpenURLThatDidNothingIsCaught() async throws {
        let run = try await recordedRun()
        let history = renumbered(run.history.filter { $0.name != CallbackName.openURLContexts.rawValue })
        let (_, found) = audit(history, run.requests)
        #expect(
            found.contains { $0.hasPrefix("scene S0: 1 accepted connect requests but 1 connect transitions") },
            "\(found)"
        )
    }
}
