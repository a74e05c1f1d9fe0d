import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// Issue 16, errors that say what to do: a worker that dies or breaks the protocol during a
/// request fails it with how it ended (status or signal), what it sent, its last stderr lines
/// and, for a program that never said ready, what to check. The same line reaches the API,
/// `hostctl run` and the control client.
@Suite struct WorkerExitErrorTests {
    /// The error `connect` fails with when the worker is `argv`.
    private func connectError(_ argv: [String]) async throws -> HostError? {
        // The workers here break the protocol, which the helper's check refuses; the host's own
        // events must still verify.
        let configuration = TestWorker.configuration()
        let (host, failure) = try await withSceneHost(configuration: configuration, verifiesTrace: false) { host in
            let scene = try host.scene("A")
            var failure: HostError?
            do {
                try await within(TestLimit.launch, "connect") { try await scene.connect(worker: argv) }
                Issue.record("connect succeeded with \(argv)")
            } catch let error as HostError {
                failure = error
            }
            return (host, failure)
        }
        #expect(host.verifyTrace() == nil)
        return failure
    }

    @Test func hostctlWithoutWorkerSaysWhatCameAndWhatToCheck() async throws {
        let error = try #require(try await connectError([TestWorker.hostctl]))
        guard case .workerExited("A", "connect", .protocolViolation, let detail) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(detail.beforeReady)
        #expect(detail.violation?.contains("unexpected character 'h'") == true, "\(error)")
        // The first bytes of what came: hostctl's own usage text.
        #expect(detail.violation?.contains(#"it began "hostctl: "#) == true, "\(error)")
        let text = error.description
        #expect(text.hasPrefix("scene A: worker broke the protocol during connect (protocol-violation): "), "\(text)")
        #expect(text.contains("is \(TestWorker.hostctl) a scenehost worker?"), "\(text)")
        #expect(text.contains("did you forget the worker subcommand?"), "\(text)")
        #expect(!text.contains("\n"))
    }

    @Test func aProgramThatPrintsSomethingElseIsNamed() async throws {
        let error = try #require(try await connectError(["/bin/echo", "hi"]))
        let text = error.description
        #expect(text.contains(#"it began "hi""#), "\(text)")
        #expect(text.contains("is /bin/echo a scenehost worker?"), "\(text)")
        #expect(!text.contains("worker subcommand"), "\(text)")
    }

    @Test func anExitWithStatusZeroSaysSoWithItsLastStderrLines() async throws {
        // Twelve lines, the last long: the error keeps the last five, within 2 KiB.
        let script =
            #"i=1; while [ $i -le 11 ]; do echo "line $i" >&2; i=$((i+1)); done; "#
            + #"printf 'x%.0s' $(seq 1 3000) >&2; echo >&2; exit 0"#
        let error = try #require(try await connectError(["/bin/sh", "-c", script]))
        guard case .workerExited("A", "connect", .crashed, let detail) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(detail.status == 0)
        #expect(detail.signal == nil)
        #expect(detail.beforeReady)
        #expect(detail.stderrTail.count <= WorkerExitDetail.stderrLineLimit)
        #expect(detail.stderrTail.reduce(0) { $0 + $1.utf8.count } <= WorkerExitDetail.stderrByteLimit)
        #expect(detail.stderrTail.last?.allSatisfy { $0 == "x" } == true, "\(detail.stderrTail)")
        let text = error.description
        #expect(text.hasPrefix("scene A: worker exited with status 0 during connect (crashed)"), "\(text)")
        #expect(text.contains("it never said ready: is /bin/sh a scenehost worker?"), "\(text)")
        #expect(text.contains("its last stderr lines: "), "\(text)")
    }

    /// App code that calls `exit()` in a callback ends the worker, and what the request
    /// recorded before it reaches the trace: the callback that ran, then the exit with its
    /// status. (It was lost: only what a request finished was written.)
    @Test func anExitInAppCodeKeepsTheCallbackThatRan() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let mark = host.lastSeq
            do {
                try await within(TestLimit.event, "notify exit") { try await scene.notify("exit", value: .int(3)) }
                Issue.record("notify exit succeeded")
            } catch let error as HostError {
                guard case .workerExited("A", _, _, let detail) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(detail.status == 3)
            }
            let events = host.trace.history.filter { $0.seq > mark && $0.scene == "A" }
            let callback = events.firstIndex { $0.kind == .callback && $0.notification == "exit" }
            let exited = events.firstIndex { $0.processEvent == .exited }
            #expect(callback != nil && exited != nil && callback! < exited!, "\(events.map(\.violationSummary))")
            #expect(exited.map { events[$0].status } == 3)
        }
    }

    @Test func aCrashAtLaunchNamesItsSignalAndStderr() async throws {
        let error = try #require(
            try await connectError(["/bin/sh", "-c", #"echo "about to fail" >&2; kill -SEGV $$"#])
        )
        guard case .workerExited("A", "connect", .crashed, let detail) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(detail.signal == "SEGV")
        #expect(detail.stderrTail == ["about to fail"])
        #expect(
            error.description
                == #"scene A: worker was killed by signal SEGV during connect (crashed); its last stderr lines: "about to fail""#
        )
    }

    /// A Swift crash's error quotes the lines before the backtracer's banner (the `Fatal
    /// error:` line), not the register dump and image list after it.
    @Test func aSwiftCrashQuotesItsFatalErrorNotTheBacktrace() async throws {
        let script =
            #"printf 'App.swift:58: Fatal error: boom\n\n💣 Program crashed: Illegal instruction at 0x1\n' >&2; "#
            + #"i=0; while [ $i -lt 200 ]; do echo "rax 0x0000 rbx 0x0000 cs 0x0033 fs 0x0000" >&2; i=$((i+1)); done; "#
            + #"echo "Backtrace took 0.09s" >&2; kill -ILL $$"#
        let error = try #require(try await connectError(["/bin/sh", "-c", script]))
        guard case .workerExited("A", "connect", .crashed, let detail) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(
            detail.stderrTail == ["App.swift:58: Fatal error: boom", "💣 Program crashed: Illegal instruction at 0x1"],
            "\(detail.stderrTail)"
        )
    }

    /// The banner split across two reads is found too; after it nothing is kept.
    @Test func theCrashBannerIsFoundAcrossReads() {
        var tail = StderrTail()
        for chunk in ["Fatal error: boom\nProgram cra", "shed: Illegal instruction\nrax 0x0\n", "more\n"] {
            Array(chunk.utf8).withUnsafeBytes { tail.append($0) }
        }
        #expect(
            String(decoding: tail.bytes, as: UTF8.self) == "Fatal error: boom\nProgram crashed: Illegal instruction"
        )
        #expect(tail.endedAtCrash)
    }

    /// With Swift's backtracer off (`SWIFT_BACKTRACE=enable=no`) the runtime prints `Current
    /// stack trace:` and a frame per line instead: the tail stops there too, the fatal error
    /// kept, split across reads or not.
    @Test(arguments: [
        ["Fatal error: boom\nCurrent stack trace:\n0 libswiftCore.so\n1 app\n"],
        ["Fatal error: boom\nCurrent stack trac", "e:\n0 libswiftCore.so\n"],
        ["Fatal error: boom\n", "Current stack trace:\n0 libswiftCore.so\n"],
    ])
    func theStackTraceBannerEndsTheTailToo(_ chunks: [String]) {
        var tail = StderrTail()
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { tail.append($0) }
        }
        #expect(String(decoding: tail.bytes, as: UTF8.self) == "Fatal error: boom\nCurrent stack trace:")
        #expect(tail.endedAtCrash)
    }

    @Test func hostctlRunPrintsTheSameLine() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/not-a-worker.json"
        var bytes: [UInt8] = []
        let step: JSONValue = [
            "op": "connect", "scene": "A", "worker": .array([.string(TestWorker.hostctl)]),
        ]
        JSONWriter.write(["steps": [step]], into: &bytes)
        #expect(writeFile(scenario, String(decoding: bytes, as: UTF8.self)))
        let outcome = try await runHostctl(["run", scenario, "--quiet"])
        #expect(outcome.exit == .exited(status: 3), "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix("hostctl run: step 1 (connect): scene A: worker broke the protocol"),
            "\(outcome.stderr)"
        )
        #expect(outcome.stderr.contains("did you forget the worker subcommand?"), "\(outcome.stderr)")
    }

    /// Worker stderr reaches the host's with a `[scene pid] ` prefix on every line, however
    /// the worker's writes were cut into reads (here a line is split across two writes).
    @Test func workerStderrIsPrefixedPerLineNotPerRead() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/split.json"
        let script = #"printf 'one\ntw' >&2; sleep 0.2; printf 'o\nthree\n' >&2; exit 3"#
        var bytes: [UInt8] = []
        let step: JSONValue = ["op": "connect", "scene": "A", "worker": ["/bin/sh", "-c", .string(script)]]
        JSONWriter.write(["steps": [step]], into: &bytes)
        #expect(writeFile(scenario, String(decoding: bytes, as: UTF8.self)))
        let outcome = try await runHostctl(["run", scenario, "--quiet"])
        #expect(outcome.exit == .exited(status: 3), "\(outcome.stderr)")
        let forwarded = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("hostctl run: ") }
        #expect(forwarded.count == 3, "\(outcome.stderr)")
        // What the worker wrote comes first: the error after it, as the last line.
        #expect(outcome.stderr.split(separator: "\n").last?.hasPrefix("hostctl run: ") == true, "\(outcome.stderr)")
        for (line, text) in zip(forwarded, ["one", "two", "three"]) {
            #expect(line.hasPrefix("[A ") && line.hasSuffix("] \(text)"), "\(outcome.stderr)")
        }
        #expect(outcome.stderr.contains(#"exited with status 3 during connect (crashed)"#), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"its last stderr lines: "one" "two" "three""#), "\(outcome.stderr)")
    }

    @Test func theControlClientPrintsTheSameLine() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let result = try await server.run("connect", "A", "--worker", "/bin/echo", "--worker-arg", "hi")
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("hostctl connect: scene A: worker broke the protocol"), "\(result.stderr)")
        #expect(result.stderr.contains(#"it began "hi""#), "\(result.stderr)")
        #expect(result.stderr.contains("is /bin/echo a scenehost worker?"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        try await server.quit()
    }
}
