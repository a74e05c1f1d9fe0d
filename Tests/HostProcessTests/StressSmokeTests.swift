import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// `hostctl stress` in small: the runner in this process, the command as a child process,
/// and the audit's own checks on doctored runs (a checker that never fires proves nothing).
@Suite struct StressSmokeTests {
    @Test func concurrentClientsWithKillsBreakNoInvariant() async throws {
        // Which suspensions come after a refusal depends on timing: on a loaded machine one
        // seed's run may have none, so up to three seeds run until the timer audit sees one.
        var timersKept = 0
        for seed: UInt64 in [7, 8, 9] where timersKept == 0 {
            var options = StressOptions.inTests(scenes: 4, ops: 300, clients: 4)
            options.killRate = 0.05
            options.seed = seed
            let report = try await options.run()
            #expect(report.violationCount == 0, "\(report.violations.joined(separator: "\n"))")
            #expect(report.accepted + report.refused + report.failed + report.kills <= 300)
            #expect(report.accepted > 50 && report.refused > 20, "\(report.detailLine)")
            #expect(report.kills > 0)
            #expect(report.summaryLine.contains("violations=0"))
            timersKept = report.timersKept
        }
        // The timer audit saw suspensions and background tasks' ends come after refusals.
        #expect(timersKept > 0)
    }

    @Test func scaleRunConnectsEveryScene() async throws {
        let report = try await StressOptions.inTests(scenes: 16, ops: 0).run()
        #expect(report.violationCount == 0, "\(report.violations.joined(separator: "\n"))")
        #expect(report.connected == 16)
        #expect(report.workers == 16)
        #expect(report.summaryLine.hasPrefix("ops=0 scenes=16 clients=16 seed=1 kills=0 violations=0 ops/s="))
        #expect(report.summaryLine.contains(" p50=") && report.summaryLine.contains(" p99="))
        #expect(report.summaryLine.contains(" connected=16 connect="))
    }

    @Test func theCommandEndsWithTheSummaryAndItsExitStatus() async throws {
        let run = try await Self.hostctl(
            [
                "stress", "--scenes", "3", "--ops", "120", "--clients", "3", "--seed", "5", "--kill-rate", "0.05",
            ] + StressOptions.flagsInTests
        )
        #expect(run.status == 0, "\(run.stderr)")
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("ops=120 scenes=3 clients=3 seed=5 kills="), "\(run.stdout)")
        #expect(last.contains(" violations=0 ") && last.contains(" ops/s=") && last.hasSuffix("us"), "\(last)")

        let json = try await Self.hostctl(
            ["stress", "--scenes", "2", "--ops", "40", "--json"] + StressOptions.flagsInTests
        )
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONParser.parse(Array((json.stdout.split(separator: "\n").last ?? "").utf8))
        guard case .object(let fields) = object else {
            Issue.record("--json did not print an object: \(json.stdout)")
            return
        }
        #expect(fields["violations"] == .int(0))
        #expect(fields["ops"] == .int(40))
        // The command itself reports growth as a violation; a sanitizer runtime may close a
        // descriptor of its own meanwhile, so fewer is fine.
        guard case .int(let before)? = fields["fdsBefore"], case .int(let after)? = fields["fdsAfter"] else {
            Issue.record("--json lacks fdsBefore/fdsAfter: \(json.stdout)")
            return
        }
        #expect(after <= before)

        #expect(try await Self.hostctl(["stress", "--kill-rate", "2"]).status == 2)
        #expect(try await Self.hostctl(["stress", "--timer-slack-ms", "0"]).status == 2)
        // Every operation a kill, no worker ever live: nothing was checked, which is no pass.
        let nothing = try await Self.hostctl(["stress", "--scenes", "2", "--ops", "30", "--kill-rate", "1"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("no operation reached a scene"), "\(nothing.stderr)")
        #expect(try await Self.hostctl(["stress", "--scale", "3", "--ops", "5"]).status == 2)
        #expect(try await Self.hostctl(["stress", "--frobnicate"]).status == 2)
    }

    // MARK: The audit catches what it should

    /// A real little run: connect, push V1, a refused pop, a refused activate.
    private func recordedRun() async throws -> (history: [TraceEvent], requests: [StressAudit.Request?]) {
        // Its quit's terminate must not time out, or the honest run is not honest: under ASan,
        // at the suite's start, a healthy worker's exit has passed the suite's 10 s.
        var configuration = TestWorker.configuration()
        configuration.terminateLimit = .seconds(30)
        let host = try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("S0")
            try await scene.connect()
            try await scene.push(StressPlan.viewControllerName(request: 1))
            await #expect(throws: HostError.self) { try await scene.activate() }
            try await scene.deactivate()
            return host
        }
        let requests: [StressAudit.Request?] = [
            .init(scene: "S0", op: .connect(), outcome: .accepted),
            .init(scene: "S0", op: .push(viewController: "V1"), outcome: .accepted),
            .init(scene: "S0", op: .activate, outcome: .refused),
            .init(scene: "S0", op: .deactivate, outcome: .accepted),
        ]
        return (host.trace.history, requests)
    }

    private func audit(_ history: [TraceEvent], _ requests: [StressAudit.Request?]) -> [String] {
        let log = ViolationLog { _ in }
        var audit = StressAudit(history: history, requests: requests, log: log)
        audit.run()
        return log.descriptions
    }

    @Test func theAuditPassesAnHonestRun() async throws {
        let run = try await recordedRun()
        #expect(audit(run.history, run.requests) == [])
    }

    @Test func theAuditCatchesARefusedRequestThatRan() async throws {
        var run = try await recordedRun()
        run.requests[1]?.outcome = .refused
        let found = audit(run.history, run.requests)
        #expect(found.contains { $0.contains("request #1 (push) was refused, yet its loadView ran") }, "\(found)")
        #expect(found.contains { $0.contains("1 push requests refused but 0 refusals in the trace") }, "\(found)")
    }

    @Test func theAuditCatchesARefusalOfALegalOperation() async throws {
        let run = try await recordedRun()
        // Move the refusal of `activate` after the deactivate: the model allows it there.
        var history = run.history
        let refusal = try #require(history.firstIndex { $0.kind == .error && $0.op == "activate" })
        let moved = history.remove(at: refusal)
        let resigned = try #require(history.lastIndex { $0.kind == .state && $0.to == .foregroundInactive })
        history.insert(moved, at: resigned + 1)
        for index in history.indices {
            history[index].seq = index + 1
            history[index].time = Double(index) * 1e-6
        }
        let found = audit(history, run.requests)
        #expect(
            found.contains { $0.contains("activate was refused") && $0.contains("the model allows it") },
            "\(found)"
        )
    }

    @Test func theAuditCatchesARefusalInTheMiddleOfATransition() async throws {
        let run = try await recordedRun()
        var history = run.history
        let refusal = try #require(history.firstIndex { $0.kind == .error && $0.op == "activate" })
        let moved = history.remove(at: refusal)
        let push = try #require(
            history.firstIndex { $0.name == CallbackName.loadView.rawValue && $0.viewController == "V1" }
        )
        history.insert(moved, at: push + 1)
        for index in history.indices {
            history[index].seq = index + 1
            history[index].time = Double(index) * 1e-6
        }
        let found = audit(history, run.requests)
        #expect(found.contains { $0.contains("refused in the middle of a transition") }, "\(found)")
    }

    /// An app's scene request refused by the host for its full line (-32005) inside a
    /// transition of the asking scene: the audit reports it, as it does a refused request.
    @Test func theAuditCatchesAnAppRequestRefusedInTheMiddleOfATransition() async throws {
        let run = try await recordedRun()
        var history = run.history
        let push = try #require(
            history.firstIndex { $0.name == CallbackName.loadView.rawValue && $0.viewController == "V1" }
        )
        let scene = try #require(history[push].scene)
        history.insert(
            TraceEvent(
                kind: .error,
                scene: scene,
                op: "requestSceneSessionActivation",
                code: ProtocolError.Code.resourceExhausted.rawValue,
                message: "line full"
            ),
            at: push + 1
        )
        for index in history.indices {
            history[index].seq = index + 1
            history[index].time = Double(index) * 1e-6
        }
        let found = audit(history, run.requests)
        #expect(
            found.contains { $0.contains("requestSceneSessionActivation was refused in the middle of a transition") },
            "\(found)"
        )
    }

    @Test func theAuditCatchesMoreTransitionsThanRequests() async throws {
        var run = try await recordedRun()
        run.requests[0] = .init(scene: "S0", op: .connect(), outcome: .refused)
        let found = audit(run.history, run.requests)
        #expect(
            found.contains { $0.contains("1 connect transitions in the trace for 0 accepted and 0 failed") },
            "\(found)"
        )
    }

    // MARK: Running hostctl

    struct Run: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs this build's hostctl with `arguments` and collects its output and exit status.
    static func hostctl(_ arguments: [String]) async throws -> Run {
        let child = try await ChildProcess.spawn(argv: [TestWorker.hostctl] + arguments)
        child.closeStdin()
        let collected = Collected()
        // A hung run is killed (status 137) rather than left to hang the suite. Not a
        // `TestLimit`: this bounds a whole `hostctl stress` run (thousands of operations and
        // many launches, sanitized on two busy cores), not one event it waits for.
        let deadline = killAfter(.seconds(300), child)
        defer { deadline.cancel() }
        return await withCheckedContinuationFromAnyThread { continuation in
            EventLoop.shared.watch(
                child,
                onStdout: { bytes in collected.append(bytes, error: false) },
                onStderr: { bytes in collected.append(bytes, error: true) },
                onExit: { exit in
                    let status: Int32
                    switch exit {
                    case .exited(let code): status = code
                    case .signaled(let signal): status = 128 + signal
                    }
                    let (stdout, stderr) = collected.text
                    continuation.resume(returning: Run(status: status, stdout: stdout, stderr: stderr))
                }
            )
        }
    }

    private final class Collected: Sendable {
        private let bytes = Locked<(stdout: [UInt8], stderr: [UInt8])>(([], []))

        func append(_ chunk: UnsafeRawBufferPointer, error: Bool) {
            bytes.withLock { bytes in
                if error { bytes.stderr.append(contentsOf: chunk) } else { bytes.stdout.append(contentsOf: chunk) }
            }
        }

        var text: (String, String) {
            bytes.withLock { (String(decoding: $0.stdout, as: UTF8.self), String(decoding: $0.stderr, as: UTF8.self)) }
        }
    }
}
