import CSceneHostSys
import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

@Suite struct RestartAndCleanupTests {
    @Test func restartIntensityAllowsNWithinTheWindow() {
        var intensity = RestartIntensity()
        let policy = RestartPolicy(maximumRestarts: 2, window: .seconds(10))
        let start = ContinuousClock.now
        let answers = [0, 1, 2, 12].map { second in
            intensity.allowsRestart(at: start + .seconds(second), policy: policy)
        }
        #expect(answers == [true, true, false, true])
    }

    @Test func aKilledSceneIsRestartedWithItsStateUntilTheIntensityLimit() async throws {
        var configuration = TestWorker.configuration()
        configuration.restartPolicy = RestartPolicy(maximumRestarts: 1, window: .seconds(60))
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.background()
            try await scene.foreground()
            let firstPid = try #require(await scene.status().pid)
            var mark = host.lastSeq
            #expect(Glibc.kill(firstPid, SIGKILL) == 0)
            // The restart shows up as a second launch reaching foregroundActive again.
            _ = try await host.trace.firstEvent(
                fromSeq: mark + 1,
                within: TestLimit.launch,
                "the restarted scene active"
            ) {
                $0.scene == "A" && $0.to == .foregroundActive
            }
            let restarted = try #require(await scene.status().pid)
            #expect(restarted != firstPid)
            let willConnect = host.trace.history.last { $0.scene == "A" && $0.name == "willConnectTo" }
            // The restart restores what the app saved: the stack it had, Detail on top.
            #expect(
                willConnect?.restoration?["stack"] == .array([.string("Root"), .string("Detail")]),
                "\(String(describing: willConnect?.restoration))"
            )
            #expect(await scene.status().stack == ["Root", "Detail"])

            mark = host.lastSeq
            #expect(Glibc.kill(restarted, SIGKILL) == 0)
            _ = try await host.trace.firstEvent(fromSeq: mark + 1, "the restart given up") {
                $0.scene == "A" && $0.kind == .error && $0.op == "restart"
            }
            #expect(await scene.status().process == .terminated)
        }
    }

    @Test func quitLeavesNoWorkerBehind() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        try await host.scene("A").connect()
        try await host.scene("B").connect(background: true)
        try await host.scene("B").waitFor(process: .suspended, timeout: TestLimit.event)
        try await host.scene("C").connect()
        await host.quit()
        #expect(host.livingWorkerPids().isEmpty)
        #expect(host.verifyTrace() == nil)
    }

    @Test func requestsAfterQuitAreRefusedNotLost() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let scene = try host.scene("A")
        try await scene.connect()
        await host.quit()
        await #expect(throws: HostError.shuttingDown) { try await scene.deactivate() }
        #expect(throws: HostError.shuttingDown) { try host.scene("B") }
    }

    @Test func aKilledHostLeavesNoWorkerBehindSuspendedOnesIncluded() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/hold.json"
        let text = """
            { "config": { "suspendDelayMs": 20 },
              "steps": [ { "op": "connect", "scene": "A" },
                         { "op": "connect", "scene": "B", "background": true },
                         { "op": "waitFor", "scene": "B", "process": "suspended", "timeoutMs": 60000 },
                         { "op": "sleep", "ms": 60000 } ] }
            """
        #expect(writeFile(scenario, text))
        let host = try await ChildProcess.spawn(argv: [
            TestWorker.hostctl, "run", scenario, "--quiet", "--trace", "/dev/stdout",
        ])
        // Killed below anyway; this ends a host that never shows the suspension (two launches
        // and a suspension: twice a launch's limit).
        let deadline = killAfter(TestLimit.launch * 2, host)
        defer { deadline.cancel() }
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let buffer = LineBuffer()
        EventLoop.shared.watch(
            host,
            onStdout: { bytes in for line in buffer.append(bytes) { continuation.yield(line) } },
            onStderr: { _ in },
            onExit: { _ in continuation.finish() }
        )
        var workers: [Int32] = []
        var suspended = false
        for await line in lines {
            let event = try TraceEvent(jsonLine: Array(line.utf8))
            if event.processEvent == .spawned, let pid = event.pid { workers.append(pid) }
            if event.processEvent == .suspended {
                suspended = true
                break
            }
        }
        #expect(suspended, "the host ended before B was suspended")
        #expect(workers.count == 2)
        let pidfds = workers.map { csh_pidfd_open($0, 0) }
        try host.send(signal: SIGKILL)
        for pidfd in pidfds {
            var poller = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&poller, 1, 1000) == 1, "a worker outlived its host by more than a second")
            close(pidfd)
        }
    }

    @Test func scenarioErrorsNameTheStepAndField() throws {
        func error(_ text: String) -> String? {
            do {
                _ = try Scenario(json: Array(text.utf8))
                return nil
            } catch let failure {
                return failure.message
            }
        }
        #expect(
            error(#"{"steps":[{"op":"frobnicate","scene":"A"}]}"#)?.contains("step 1: unknown op \"frobnicate\"")
                == true
        )
        #expect(error(#"{"steps":[{"op":"push","scene":"A","vcc":"B"}]}"#)?.contains("unknown field \"vcc\"") == true)
        #expect(error(#"{"config":{"suspendDelay":5},"steps":[]}"#)?.contains("unknown field \"suspendDelay\"") == true)
        #expect(error(#"{"steps":[{"op":"connect","scene":"../x"}]}"#)?.contains("invalid scene identifier") == true)
        #expect(error(#"{"steps":[{"op":"kill","scene":"A","signal":"NOPE"}]}"#)?.contains("unknown signal") == true)
        #expect(error(#"{"steps":[{"op":"connect","scene":"A"}"#)?.contains("not valid JSON") == true)
        // The wrong type is not "missing"; a limit is named; a size the host refuses at the
        // step is refused with the file's errors, naming the step.
        #expect(error(#"{"steps":{}}"#) == #""steps" must be an array of steps"#)
        let width = error(#"{"steps":[{"op":"resize","scene":"A","width":9007199254740992,"height":1}]}"#)
        #expect(
            width?.contains(#""width" must be an integer in 1...1099511627776"#) == true,
            "\(String(describing: width))"
        )
        let name = String(repeating: "V", count: 300)
        let push = error(#"{"steps":[{"op":"connect","scene":"A"},{"op":"push","scene":"A","vc":"\#(name)"}]}"#)
        #expect(
            push?.hasPrefix("step 2 (push): a view controller name may take at most 256 bytes") == true,
            "\(String(describing: push))"
        )
        let url = error(#"{"steps":[{"op":"connect","scene":"A"},{"op":"openURL","scene":"A","url":"notes://a b"}]}"#)
        #expect(
            url?.hasPrefix(#"step 2 (openURL): "notes://a b" is no URL: it holds a character a URL cannot"#) == true,
            "\(String(describing: url))"
        )
        #expect(
            error(#"{"steps":[{"op":"connect","scene":"A"},{"op":"waitFor","scene":"A","state":"foregroundActive"}]}"#)
                == nil
        )
    }
}

/// Splits a byte stream into lines (for a child's stdout).
final class LineBuffer: @unchecked Sendable {
    // Only touched on the event loop thread.
    private var pending: [UInt8] = []

    func append(_ bytes: UnsafeRawBufferPointer) -> [String] {
        pending.append(contentsOf: bytes)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }
}

func writeFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    defer { fclose(file) }
    return fputs(text, file) >= 0
}
