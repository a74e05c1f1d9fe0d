import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// `hostctl` as a user runs it: real processes, exit statuses, stdout and stderr.
@Suite struct CommandLineTests {
    struct Outcome {
        var exit: ChildExit
        var stdout: String
        var stderr: String
    }

    /// Runs `hostctl ARGUMENTS`, or with `direct` the program `arguments[0]` itself.
    static func run(_ arguments: [String], direct: Bool = false) async throws -> Outcome {
        let child = try await ChildProcess.spawn(argv: direct ? arguments : [TestWorker.hostctl] + arguments)
        child.closeStdin()
        let collected = Collected()
        let exit = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                child,
                onStdout: { collected.append(stdout: $0) },
                onStderr: { collected.append(stderr: $0) },
                onExit: { continuation.resume(returning: $0) }
            )
        }
        return Outcome(exit: exit, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// The sessions a demo leaves in its state directory are the next run's: Mail's app
    /// brings its second window back (restored, with its own worker) rather than opening
    /// another beside it, and the rerun passes as the first run did.
    @Test func theDemoRunsAgainOnTheSessionsItLeft() async throws {
        let state = makeTemporaryDirectory() + "/state"
        let first = try await Self.run(["demo", "--state-dir", state, "--quiet"])
        #expect(first.exit == .exited(status: 0), "\(first.stderr)")
        #expect(first.stdout.isEmpty, "--quiet printed \(first.stdout)")
        let trace = makeTemporaryDirectory() + "/rerun.jsonl"
        let second = try await Self.run(["demo", "--state-dir", state, "--trace", trace])
        #expect(second.exit == .exited(status: 0), "\(second.stderr)")
        let events = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        let mailWindows = Set(events.compactMap(\.scene).filter { $0.hasPrefix("Mail-") })
        #expect(mailWindows == ["Mail-1"])
        #expect(
            events.contains { $0.scene == "Mail-1" && $0.restoration != nil },
            "Mail-1 connected without the state its first run saved"
        )
        #expect(try await Self.run(["verify", trace]).exit == .exited(status: 0))
        // Notes starts the rerun from the stack the first run began with: reruns do not
        // stack up an Editor each (they used to, up to the stack's limit).
        let notesConnect = events.first { $0.scene == "Notes" && $0.name == "willConnectTo" }
        guard case .object(let state)? = notesConnect?.restoration else {
            Issue.record("Notes connected without its saved state: \(String(describing: notesConnect))")
            return
        }
        #expect(state["stack"] == ["Root"])
    }

    /// An empty `stateDir` is refused with the scenario's other errors (exit 2, naming the
    /// field), not when the host fails to create "".
    @Test func anEmptyStateDirIsRefusedAsTheScenariosError() throws {
        do {
            _ = try Scenario(json: Array(#"{"config":{"stateDir":""},"steps":[]}"#.utf8))
            Issue.record("an empty stateDir was accepted")
        } catch {
            #expect(error.message.contains(#""stateDir" must be a directory path"#), "\(error.message)")
        }
    }

    /// `--quiet` leaves stdout to the trace: every line is an event.
    @Test func aQuietDemoWritesOnlyTheTraceToStdout() async throws {
        let demo = try await Self.run(["demo", "--trace", "/dev/stdout", "--quiet"])
        #expect(demo.exit == .exited(status: 0), "\(demo.stderr)")
        let lines = demo.stdout.split(separator: "\n")
        #expect(lines.count > 100)
        for line in lines { _ = try TraceEvent(jsonLine: Array(line.utf8)) }
    }

    @Test func verifyAcceptsTheDemoTraceAndRejectsASwappedPair() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/demo.jsonl"
        let demo = try await Self.run(["demo", "--trace", trace])
        #expect(demo.exit == .exited(status: 0))
        #expect(demo.stdout.contains("scene Notes"))
        // §3a in the demo: a sheet swiped away, a full-screen modal, a cancelled swipe back.
        #expect(demo.stdout.contains("presentationControllerDidDismiss"))
        #expect(demo.stdout.contains("Preview"))
        // §3a containment: Notes' Editor has a Toolbar child.
        #expect(demo.stdout.contains("didMoveToParent") && demo.stdout.contains("Toolbar"))
        // §3d: an app-based app beside the scene-based ones.
        #expect(demo.stdout.contains("scene Clock") && demo.stdout.contains("applicationDidEnterBackground"))
        #expect(demo.stdout.contains("performActionFor"))
        let valid = try await Self.run(["verify", trace])
        #expect(valid.exit == .exited(status: 0))
        // `-` is stdin, as for `timeline`.
        let piped = try await Self.run(
            ["/bin/sh", "-c", #"exec "$0" verify - < "$1""#, TestWorker.hostctl, trace],
            direct: true
        )
        #expect(piped.exit == .exited(status: 0), "\(piped.stderr)")
        #expect(piped.stdout == valid.stdout && valid.stdout.hasPrefix("valid: "), "\(piped.stdout)")

        // Swap the payloads of two different callbacks of one scene, keeping seq order.
        var events = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        let callbacks = events.indices.filter { events[$0].scene == "Mail" && events[$0].kind == .callback }
        let (first, second) = (callbacks[4], callbacks[5])
        #expect(events[first].name != events[second].name)
        (events[first].name, events[second].name) = (events[second].name, events[first].name)
        (events[first].viewController, events[second].viewController) =
            (events[second].viewController, events[first].viewController)
        var bytes: [UInt8] = []
        for event in events { event.appendJSONLine(to: &bytes) }
        #expect(writeFile(trace, String(decoding: bytes, as: UTF8.self)))
        let swapped = try await Self.run(["verify", trace])
        #expect(swapped.exit == .exited(status: 1))
        #expect(swapped.stderr.contains("seq \(events[first].seq), scene Mail: expected"))
        let swappedPiped = try await Self.run(
            ["/bin/sh", "-c", #"exec "$0" verify - < "$1""#, TestWorker.hostctl, trace],
            direct: true
        )
        #expect(swappedPiped.exit == .exited(status: 1) && swappedPiped.stderr == swapped.stderr)
    }

    /// A trace with an event missing is invalid even when what remains would pass the
    /// model: the host writes every event it numbers, so a gap in `seq` is an event lost.
    @Test func verifyRejectsAGapInSeq() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/demo.jsonl"
        #expect(try await Self.run(["demo", "--trace", trace, "--quiet"]).exit == .exited(status: 0))
        let lines = try readLines(trace)
        let events = try lines.map { try TraceEvent(jsonLine: Array($0.utf8)) }
        // An error event takes part in nothing but the seq order: without it, only the gap is wrong.
        let removed = try #require(events.indices.dropFirst().first { events[$0].kind == .error })
        var kept = lines
        kept.remove(at: removed)
        #expect(writeFile(trace, kept.joined(separator: "\n") + "\n"))
        let gap = try await Self.run(["verify", trace])
        #expect(gap.exit == .exited(status: 1))
        let after = events[removed].seq
        #expect(
            gap.stderr.contains("seq \(after + 1)") && gap.stderr.contains("expected seq \(after)"),
            "\(gap.stderr)"
        )
    }

    /// The demo switches Music's tabs; `verify` rejects the switch with the new tab's
    /// `viewWillAppear` and the old tab's `viewWillDisappear` swapped (a push's order).
    @Test func verifyRejectsATabSwitchWithItsWillsSwapped() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/demo.jsonl"
        let demo = try await Self.run(["demo", "--trace", trace])
        #expect(demo.exit == .exited(status: 0))
        var events = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        let switched = events.indices.filter { events[$0].scene == "Music" && events[$0].op == "selectTab" }
        #expect(
            switched.map { events[$0].compact }.prefix(3) == [
                "cb loadView Radio", "cb viewDidLoad Radio", "cb viewWillAppear Radio",
            ]
        )
        let willAppear = try #require(switched.first { events[$0].name == CallbackName.viewWillAppear.rawValue })
        let willDisappear = try #require(switched.first { events[$0].name == CallbackName.viewWillDisappear.rawValue })
        #expect(events[willDisappear].viewController == "Library")
        (events[willAppear].name, events[willDisappear].name) = (events[willDisappear].name, events[willAppear].name)
        (events[willAppear].viewController, events[willDisappear].viewController) =
            (events[willDisappear].viewController, events[willAppear].viewController)
        var bytes: [UInt8] = []
        for event in events { event.appendJSONLine(to: &bytes) }
        #expect(writeFile(trace, String(decoding: bytes, as: UTF8.self)))
        let swapped = try await Self.run(["verify", trace])
        #expect(swapped.exit == .exited(status: 1))
        #expect(swapped.stderr.contains("seq \(events[willAppear].seq), scene Music: expected"), "\(swapped.stderr)")
    }

    /// The demo's Editor has a Toolbar child; `verify` rejects a memory warning that reaches
    /// the child before its parent (§3a: parent first).
    @Test func verifyRejectsAChildHeardBeforeItsParent() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/demo.jsonl"
        let demo = try await Self.run(["demo", "--trace", trace])
        #expect(demo.exit == .exited(status: 0))
        var events = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        let warning = CallbackName.didReceiveMemoryWarning.rawValue
        let parent = try #require(
            events.indices.first { events[$0].name == warning && events[$0].viewController == "Editor" }
        )
        let child = try #require(
            events.indices.first { events[$0].name == warning && events[$0].viewController == "Toolbar" }
        )
        #expect(child == parent + 1)
        (events[parent].viewController, events[child].viewController) = ("Toolbar", "Editor")
        var bytes: [UInt8] = []
        for event in events { event.appendJSONLine(to: &bytes) }
        #expect(writeFile(trace, String(decoding: bytes, as: UTF8.self)))
        let swapped = try await Self.run(["verify", trace])
        #expect(swapped.exit == .exited(status: 1))
        #expect(swapped.stderr.contains("seq \(events[parent].seq), scene Notes: expected"), "\(swapped.stderr)")
    }

    @Test func aDiscardRecordedWithNoHostRunningIsReportedByTheNextHost() async throws {
        let directory = makeTemporaryDirectory()
        let state = directory + "/state"
        let store = directory + "/store.json"
        #expect(writeFile(store, #"{"config":{"stateDir":"\#(state)"},"steps":[{"op":"connect","scene":"A"}]}"#))
        #expect(try await Self.run(["run", store, "--quiet"]).exit == .exited(status: 0))

        let discard = try await Self.run(["discard", "A", "--state-dir", state])
        #expect(discard.exit == .exited(status: 0), "\(discard.stderr)")
        let unknown = try await Self.run(["discard", "B", "--state-dir", state])
        #expect(unknown.exit == .exited(status: 3))
        #expect(unknown.stderr == "hostctl discard: no stored session B in \(state)\n")
        // A failed discard changes nothing on disk: an empty directory stays empty.
        let empty = directory + "/empty"
        #expect(mkdir(empty, 0o700) == 0)
        let nothing = try await Self.run(["discard", "B", "--state-dir", empty])
        #expect(nothing.exit == .exited(status: 3))
        #expect(LifecycleDocsTests.walk(empty).isEmpty, "\(LifecycleDocsTests.walk(empty))")
        #expect(access(empty + "/sessions", F_OK) != 0 && access(empty + "/discarded", F_OK) != 0)

        let next = directory + "/next.json"
        let trace = directory + "/next.jsonl"
        #expect(writeFile(next, #"{"config":{"stateDir":"\#(state)"},"steps":[]}"#))
        #expect(try await Self.run(["run", next, "--quiet", "--trace", trace]).exit == .exited(status: 0))
        let events = try readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        #expect(events.contains { $0.scene == "A" && $0.name == "didDiscardSceneSessions" })
    }

    @Test func aCustomWorkerRunsWithItsOwnDelegatesAndRestoresItsDraft() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("Notes")
            try await scene.connect(worker: [TestWorker.customWorker])
            try await scene.push("Editor")
            try await scene.background()
            try await scene.kill()
            try await scene.connect(worker: [TestWorker.customWorker])
            let willConnect = host.trace.history.last { $0.name == "willConnectTo" }
            #expect(willConnect?.restoration == .object(["draft": .string("loaded at Editor")]))
        }
    }

    /// The app a session ran comes back with it after a host restart: a connect that names
    /// no worker runs the session's, not the host's default (which would overwrite its state).
    @Test func aStoredSessionRunsItsOwnWorkerAfterAHostRestart() async throws {
        let state = try makePrivateDirectory()
        var configuration = TestWorker.configuration()
        configuration.stateDirectory = state
        try await withSceneHost(configuration: configuration) { first in
            let scene = try first.scene("Notes")
            try await scene.connect(worker: [TestWorker.customWorker])
            try await scene.push("Editor")
        }
        try await withSceneHost(configuration: configuration) { second in
            try await second.scene("Notes").connect()
            let spawned = second.trace.history.last { $0.scene == "Notes" && $0.processEvent == .spawned }
            #expect(spawned?.argv == [TestWorker.customWorker])
            // The custom app restores its draft: its state was not overwritten by the default app.
            let willConnect = second.trace.history.last { $0.name == "willConnectTo" }
            #expect(willConnect?.restoration == .object(["draft": .string("loaded at Editor")]))
        }
        // The default worker is not written into a session: a host whose path changed still
        // starts its own.
        let third = try await withSceneHost(configuration: configuration) { third in
            try await third.scene("Plain").connect()
            return third
        }
        #expect(third.sessions.session("Plain")?.worker == nil)
        #expect(third.sessions.session("Notes")?.worker == [TestWorker.customWorker])
    }

    /// A limit flag may come before the scenario's file, and overrides its `config`.
    @Test func aLimitFlagBeforeTheFileOverridesTheScenariosConfig() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/slow.json"
        #expect(
            writeFile(
                scenario,
                #"{"config":{"suspendDelayMs":600000},"steps":[{"op":"connect","scene":"A"},"#
                    + #"{"op":"background","scene":"A"},"#
                    + #"{"op":"waitFor","scene":"A","process":"suspended","timeoutMs":60000}]}"#
            )
        )
        let run = try await Self.run(["run", "--suspend-delay-ms", "1", scenario, "--quiet"])
        #expect(run.exit == .exited(status: 0), "\(run.stderr)")
    }

    @Test func aTraceThatCannotBeWrittenFailsTheRunWithExit3() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/one.json"
        #expect(writeFile(scenario, #"{"steps":[{"op":"connect","scene":"A"},{"op":"push","scene":"A","vc":"D"}]}"#))
        let full = try await Self.run(["run", scenario, "--quiet", "--trace", "/dev/full"])
        #expect(full.exit == .exited(status: 3), "\(full.stderr)")
        #expect(
            full.stderr == "hostctl run: cannot write trace file /dev/full: No space left on device\n",
            "\(full.stderr)"
        )
        let demo = try await Self.run(["demo", "--trace", "/dev/full"])
        #expect(demo.exit == .exited(status: 3), "\(demo.stderr)")
        #expect(demo.stderr.contains("cannot write trace file /dev/full"), "\(demo.stderr)")
    }

    /// What a command prints must arrive: `hostctl verify T > /dev/full` is a failure (exit 3,
    /// saying why), not exit 0 with nothing written.
    @Test func outputThatCannotBeWrittenFailsTheCommandWithExit3() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/one.json"
        #expect(writeFile(scenario, #"{"steps":[{"op":"connect","scene":"A"}]}"#))
        let run = try await Self.run(
            ["/bin/sh", "-c", "exec \"$0\" run \"$1\" > /dev/full", TestWorker.hostctl, scenario],
            direct: true
        )
        #expect(run.exit == .exited(status: 3), "\(run.stderr)")
        #expect(run.stderr == "hostctl run: cannot write stdout: No space left on device\n", "\(run.stderr)")
        // Written somewhere it fits, the same run succeeds.
        let fits = try await Self.run(
            ["/bin/sh", "-c", "exec \"$0\" run \"$1\" > /dev/null", TestWorker.hostctl, scenario],
            direct: true
        )
        #expect(fits.exit == .exited(status: 0), "\(fits.stderr)")
    }

    /// Not under ThreadSanitizer: its runtime in the `hostctl` of that build dies of SIGBUS
    /// under a 1 KiB file size limit, before hostctl runs.
    @Test(.enabled(if: !runsUnderThreadSanitizer, "TSan's runtime cannot start under ulimit -f 2"))
    func aTraceCutByTheFileSizeLimitEndsAtItsLastWholeLine() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/one.json"
        let trace = directory + "/cut.jsonl"
        #expect(writeFile(scenario, #"{"steps":[{"op":"connect","scene":"A"},{"op":"push","scene":"A","vc":"D"}]}"#))
        // A 1 KiB file size limit (ulimit -f counts 512- or 1024-byte blocks), SIGXFSZ left at
        // its default (which ends a process): hostctl ignores it, so the write that crosses the
        // limit is cut short and the next fails with EFBIG.
        let outcome = try await Self.run(
            [
                "/bin/sh", "-c", #"trap - XFSZ; ulimit -f 2 && exec "$0" "$@""#, TestWorker.hostctl,
                "run", scenario, "--quiet", "--trace", trace,
            ],
            direct: true
        )
        #expect(outcome.exit == .exited(status: 3), "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("hostctl run: cannot write trace file \(trace): "), "\(outcome.stderr)")
        #expect(try !readLines(trace).isEmpty)
        // What is there is whole lines only: every one an event.
        let text = try String(decoding: readFileBytes(trace), as: UTF8.self)
        #expect(text.hasSuffix("\n"), "the trace ends with a whole line: \(text.suffix(80))")
        for line in try readLines(trace) { #expect((try? TraceEvent(jsonLine: Array(line.utf8))) != nil, "\(line)") }
    }

    @Test(arguments: [
        ["run"], ["verify"], ["demo", "--bogus"], ["frobnicate"], ["run", "/nonexistent/scenario.json"],
        ["verify", "/nonexistent/trace.jsonl"], ["timeline", "/nonexistent/trace.jsonl"],
        ["demo", "--suspend-delay-ms", "abc"], ["demo", "--trace"],
    ])
    func badArgumentsGiveOneLineAndExit2(_ arguments: [String]) async throws {
        let outcome = try await Self.run(arguments)
        #expect(outcome.exit == .exited(status: 2), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(arguments): \(outcome.stderr)")
    }
}

/// Output collected on the event loop thread.
final class Collected: Sendable {
    // Written on the event loop thread, read by the test: locked, so that output a process
    // that inherited the pipes writes late cannot race the read.
    private let text = Locked<(stdout: String, stderr: String)>(("", ""))
    var stdout: String { text.withLock { $0.stdout } }
    var stderr: String { text.withLock { $0.stderr } }
    func append(stdout bytes: UnsafeRawBufferPointer) {
        let chunk = String(decoding: bytes, as: UTF8.self)
        text.withLock { $0.stdout += chunk }
    }
    func append(stderr bytes: UnsafeRawBufferPointer) {
        let chunk = String(decoding: bytes, as: UTF8.self)
        text.withLock { $0.stderr += chunk }
    }
}

func readFileBytes(_ path: String) throws -> [UInt8] {
    guard let bytes = readWholeFile(path, limit: 1 << 30) else { throw HostError.io("cannot read \(path)") }
    return bytes
}

func readLines(_ path: String) throws -> [String] {
    guard let file = fopen(path, "r") else { throw HostError.io("cannot open \(path)") }
    defer { fclose(file) }
    var lines: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, file) > 0 {
        lines.append(String(cString: line!).trimmingCharacters(in: "\n"))
    }
    free(line)
    return lines
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var result = self
        while result.last == character { result.removeLast() }
        return result
    }
}
