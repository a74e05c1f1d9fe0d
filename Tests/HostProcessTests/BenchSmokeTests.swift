import Glibc
import HostBench
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// `hostctl bench --quick --json` as a real process: it must finish, exit 0, print JSON that
/// parses and name every benchmark. No timing is asserted (tests run on busy machines).
@Suite struct BenchSmokeTests {
    /// Every row `--quick` reports (the full run adds the 1,000-scene scale rows).
    static let expectedNames: [String] =
        [
            "codec.callback", "codec.request",
            "pipe-echo.eventloop", "pipe-echo.blocking", "transition",
            "kinds.push", "kinds.present-sheet", "kinds.present-full", "kinds.swipe-dismiss",
            "kinds.swipe-back", "kinds.select-tab", "kinds.child",
            "spawn-ready", "connect",
            "kill.raw", "kill",
            "throughput-floor.1", "throughput-floor.8", "throughput-floor.64",
            "throughput.1", "throughput.8", "throughput.64",
            "memory.worker-pss", "memory.host-per-scene",
            "suspend-resume", "terminate",
        ]
        + [1, 10, 100].flatMap { size in
            ["connect", "roundtrip", "worker-pss", "host-per-scene"].map { "scale.\(size).\($0)" }
        }

    @Test(.timeLimit(.minutes(5)))
    func quickBenchPrintsJSONNamingEveryBenchmark() async throws {
        let run = try await CapturedRun.run([TestWorker.hostctl, "bench", "--quick", "--json"])
        let stderr = String(decoding: run.stderr, as: UTF8.self)
        #expect(run.exit == .exited(status: 0), "hostctl bench failed: \(stderr)")

        let json = try JSONParser.parse(run.stdout)
        guard case .object(let root) = json, case .array(let rows)? = root["benchmarks"] else {
            Issue.record("no benchmarks array in: \(String(decoding: run.stdout, as: UTF8.self))")
            return
        }
        #expect(root["quick"] == .bool(true))
        var names: [String] = []
        for row in rows {
            guard case .object(let fields) = row, case .string(let name)? = fields["name"] else {
                Issue.record("a row without a name: \(row)")
                continue
            }
            names.append(name)
            // Every row carries its figures (null only if a figure could not be measured).
            #expect(fields["median"] != nil && fields["p99"] != nil && fields["unit"] != nil, "\(name)")
            // The round trips say whose CPU they took: the echo's two sides, the transition's,
            // and what the transition's take above the echo's.
            let cpuDetails: [String: [String]] = [
                "pipe-echo.eventloop": ["hostCPUUs", "childCPUUs"],
                "transition": ["hostCPUUs", "workerCPUUs", "hostCPUOverEchoUs", "workerCPUOverEchoUs"],
            ]
            // Throughput stands next to its floor from the same run; tuned for throughput, it
            // has the absolute target, and plain reports its rate beside it.
            if name == "throughput.8" || name == "throughput.64" {
                let scenes = name.dropFirst("throughput.".count)
                #expect(fields["floorName"] == .string("throughput-floor.\(scenes)"), "\(row)")
                #expect(fields["targetKind"] == nil, "\(row)")
            }
            if name == "throughput.8.throughput" || name == "throughput.64.throughput" {
                let scenes = name.dropFirst("throughput.".count).dropLast(".throughput".count)
                #expect(fields["floorName"] == .string("throughput-floor.\(scenes).throughput"), "\(row)")
                #expect(fields["targetKind"] == .string("medianAtLeast"), "\(row)")
                #expect(fields["targetLimit"] == .int(150_000) || fields["targetLimit"] == .double(150_000), "\(row)")
            }
            if let keys = cpuDetails[name] {
                guard case .object(let details)? = fields["details"] else {
                    Issue.record("\(name) has no details: \(row)")
                    continue
                }
                for key in keys {
                    switch details[key] {
                    case .double?, .int?: break
                    default: Issue.record("\(name) has no number \(key): \(details)")
                    }
                }
            }
        }
        for name in Self.expectedNames {
            #expect(names.contains(name), "missing benchmark \(name); got \(names)")
        }
        // Both tunings side by side: the rows of the groups the tuning moves come twice.
        for name in ["transition", "throughput.8", "connect"] {
            #expect(names.contains(name + ".throughput"), "missing \(name).throughput; got \(names)")
        }
    }

    @Test func unknownBenchmarkIsAUsageError() async throws {
        let run = try await CapturedRun.run([TestWorker.hostctl, "bench", "--only", "nosuch"])
        #expect(run.exit == .exited(status: 2))
        #expect(String(decoding: run.stderr, as: UTF8.self).contains("nosuch"))
    }

    @Test func jsonAndMarkdownTogetherAreAUsageError() async throws {
        let run = try await CapturedRun.run([TestWorker.hostctl, "bench", "--json", "--markdown"])
        #expect(run.exit == .exited(status: 2))
        #expect(String(decoding: run.stderr, as: UTF8.self).contains("pick one"))
        #expect(run.stdout.isEmpty)
    }
}

/// A child run to completion with its stdout and stderr collected by the host's event loop.
final class CapturedRun: Sendable {
    private let output = Locked<(stdout: [UInt8], stderr: [UInt8])>(([], []))
    private let ended = Locked<(exit: ChildExit?, waiter: CheckedContinuation<ChildExit, Never>?)>((nil, nil))

    static func run(_ argv: [String]) async throws -> (exit: ChildExit, stdout: [UInt8], stderr: [UInt8]) {
        let capture = CapturedRun()
        let child = try await ChildProcess.spawn(argv: argv)
        EventLoop.shared.watch(
            child,
            onStdout: { bytes in capture.output.withLock { $0.stdout.append(contentsOf: bytes) } },
            onStderr: { bytes in capture.output.withLock { $0.stderr.append(contentsOf: bytes) } },
            onExit: { exit in capture.finished(exit) }
        )
        child.closeStdin()
        // Past the test's own time limit: a hung bench then fails (killed) instead of hanging.
        // Not a `TestLimit`: this bounds a whole `hostctl bench` run (every benchmark's
        // launches and rounds), not one event it waits for.
        let deadline = killAfter(.seconds(330), child)
        defer { deadline.cancel() }
        let exit = await capture.exit()
        let output = capture.output.withLock { $0 }
        return (exit, output.stdout, output.stderr)
    }

    private func finished(_ exit: ChildExit) {
        let waiter = ended.withLock { state in
            state.exit = exit
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: exit)
    }

    private func exit() async -> ChildExit {
        await withCheckedContinuationFromAnyThread { continuation in
            let exit: ChildExit? = ended.withLock { state in
                if let exit = state.exit { return exit }
                state.waiter = continuation
                return nil
            }
            if let exit { continuation.resume(returning: exit) }
        }
    }
}
