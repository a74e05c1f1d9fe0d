import CSceneHostSys
import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Every `hostctl` command given missing, unknown or malformed arguments: exit status 2 and
/// exactly one line on stderr (CLI.md), before anything runs.
@Suite struct HardeningCLITests {
    struct Outcome {
        var exit: ChildExit
        var stdout: String
        var stderr: String
    }

    /// Runs the real `hostctl` with `arguments` (`$OK`, `$UNKNOWN_OP`, `$BROKEN`, `$DIR` name
    /// scenario files and a directory made for the run), without `SCENEHOST_SOCKET`.
    static func hostctl(_ arguments: [String]) async throws -> Outcome {
        let directory = makeTemporaryDirectory()
        let files = [
            "$OK": (directory + "/ok.json", #"{"steps":[]}"#),
            "$UNKNOWN_OP": (directory + "/unknown-op.json", #"{"steps":[{"op":"fly","scene":"A"}]}"#),
            "$BROKEN": (directory + "/broken.json", #"{"steps":[{"op":"connect","#),
            "$BROKEN_LINES": (directory + "/broken-lines.json", "{ \"steps\": [\n  {\"op\": \"connect\"}\n  {} ] }"),
            "$UNKNOWN_FIELD": (directory + "/unknown-field.json", #"{"config":{"suspendDelay":1},"steps":[]}"#),
            "$UNKNOWN_STEP_FIELD": (
                directory + "/unknown-step-field.json", #"{"steps":[{"op":"push","scene":"A","vcc":"B"}]}"#
            ),
            "$BAD_SCENE": (directory + "/bad-scene.json", #"{"steps":[{"op":"connect","scene":"../x"}]}"#),
            "$AFTER_QUIT": (directory + "/after-quit.json", #"{"steps":[{"op":"quit"},{"op":"pop","scene":"A"}]}"#),
            "$ZERO_LAUNCH": (directory + "/zero-launch.json", #"{"config":{"launchLimitMs":0},"steps":[]}"#),
            "$ZERO_CHECK": (directory + "/zero-check.json", #"{"config":{"memoryCheckIntervalMs":0},"steps":[]}"#),
            "$ZERO_WINDOW": (
                directory + "/zero-window.json", #"{"config":{"restartLimit":1,"restartWindowMs":0},"steps":[]}"#
            ),
            "$NO_PARENT_STATE": (
                directory + "/no-parent-state.json", #"{"config":{"stateDir":"/nonexistent/dir/st"},"steps":[]}"#
            ),
            "$NUL_ARGV": (
                directory + "/nul-argv.json", #"{"steps":[{"op":"connect","scene":"A","worker":["/bin/true\u0000x"]}]}"#
            ),
            "$HUGE_MEMORY": (
                directory + "/huge-memory.json", #"{"config":{"memoryLimitMB":1099511627776},"steps":[]}"#
            ),
        ]
        for (path, text) in files.values { _ = writeFile(path, text) }
        let argv = arguments.map { argument in
            if argument == "$DIR" { return directory }
            return files[argument]?.0 ?? argument.replacingSocketPlaceholder(with: directory + "/none.sock")
        }
        let child = try await ChildProcess.spawn(argv: [TestWorker.hostctl] + argv, environment: environment)
        child.closeStdin()
        let output = CLIOutput()
        let exit = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                child,
                onStdout: { output.append(stdout: $0) },
                onStderr: { output.append(stderr: $0) },
                onExit: { continuation.resume(returning: $0) }
            )
        }
        return Outcome(exit: exit, stdout: output.stdout, stderr: output.stderr)
    }

    /// This process's environment without `SCENEHOST_SOCKET` (sanitizer options stay).
    static let environment: [String: String] = {
        var result: [String: String] = [:]
        guard var entry = csh_environ() else { return result }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        result["SCENEHOST_SOCKET"] = nil
        return result
    }()

    /// (arguments, a word the one stderr line must contain)
    static let usageErrors: [([String], String)] = [
        // Unknown commands.
        (["frobnicate"], "unknown command"),
        (["--version"], "unknown command"),
        (["-x"], "unknown command"),
        // run
        (["run"], "missing SCENARIO.json"),
        (["run", "--quiet"], "missing SCENARIO.json"),
        (["run", "/nonexistent/scenario.json"], "No such file"),
        (["run", "$DIR"], "Is a directory"),
        (["run", "$BROKEN"], "not valid JSON"),
        // A document of several lines: where an editor shows it.
        (["run", "$BROKEN_LINES"], "invalid JSON at line 3, column 3 (byte 35): unexpected character '{'"),
        (["run", "$UNKNOWN_OP"], "unknown op \"fly\""),
        (["run", "$UNKNOWN_FIELD"], "unknown field \"suspendDelay\""),
        (
            ["run", "$UNKNOWN_STEP_FIELD"],
            "step 1 (push): unknown field \"vcc\" (known: payload, scene, vc, expectError)"
        ),
        (["run", "$BAD_SCENE"], "invalid scene identifier"),
        (["run", "$AFTER_QUIT"], "step 2 (pop): comes after quit"),
        // The scenario's config and the flags share one validation (the flags refuse 0 too).
        (["run", "$ZERO_LAUNCH"], "config: \"launchLimitMs\" must be an integer in 1...86400000"),
        (["run", "$ZERO_CHECK"], "config: \"memoryCheckIntervalMs\" must be an integer in 1...86400000"),
        (["run", "$ZERO_WINDOW"], "config: \"restartWindowMs\" must be an integer in 1...86400000"),
        (["run", "$HUGE_MEMORY"], "config: \"memoryLimitMB\" must be an integer in 1...1073741824"),
        (
            ["run", "$OK", "--memory-check-interval-ms", "0"],
            "--memory-check-interval-ms must be an integer in 1...86400000"
        ),
        (["run", "$OK", "--suspend-delay-ms", "abc"], "--suspend-delay-ms"),
        (["run", "$OK", "--suspend-delay-ms", "-5"], "--suspend-delay-ms"),
        (["run", "$OK", "--launch-limit-ms", "0"], "--launch-limit-ms"),
        (["run", "$OK", "--memory-limit-mb", "99999999999999999999"], "--memory-limit-mb"),
        (["run", "$OK", "--restart-limit", "-1"], "--restart-limit"),
        (["run", "$OK", "--restart-window-ms", "5"], "--restart-limit (or the scenario's config.restartLimit)"),
        (["serve", "--socket", "$SOCKET", "--restart-window-ms", "5"], "--restart-window-ms needs --restart-limit"),
        // A state directory with no parent to make it in is the scenario's mistake, as the flag's.
        // execve would cut the argument at the NUL: another program than the one shown would run.
        (["run", "$NUL_ARGV"], "argument 0 contains a NUL character"),
        (["run", "$NO_PARENT_STATE"], "config.stateDir \"/nonexistent/dir/st\": its parent"),
        (["run", "$OK", "--prewarm", "17"], "--prewarm must be an integer in 0...16"),
        (["run", "$OK", "--trace"], "--trace needs a value"),
        (["run", "$OK", "--trace="], "--trace needs a value"),
        (["run", "$OK", "$OK"], "unknown argument"),
        (["run", "$OK", "--bogus"], "unknown option --bogus"),
        // verify
        (["verify"], "missing TRACE.jsonl"),
        (["verify", "a.jsonl", "b.jsonl"], "unknown argument \"b.jsonl\""),
        // demo
        (["demo", "--bogus"], "unknown option --bogus"),
        (["demo", "extra"], "unknown argument \"extra\""),
        (["demo", "--trace"], "--trace needs a value"),
        (["demo", "--timeline"], "--timeline needs a value"),
        (["demo", "--suspend-delay-ms", "abc"], "--suspend-delay-ms"),
        (["demo", "--transition-limit-ms", "1.5"], "--transition-limit-ms"),
        // timeline
        (["timeline"], "missing TRACE.jsonl"),
        (["timeline", "$OK", "--format", "png"], "--format"),
        (["timeline", "$OK", "-o", "a", "-o", "b"], "-o given more than once"),
        (["timeline", "$OK", "--bogus"], "unknown option --bogus"),
        // worker
        (["worker", "--bogus"], "--bogus"),
        // serve and the client operations (CLI.md), checked before any socket is touched.
        (["serve"], "--socket"),
        (["serve", "--socket"], "--socket needs a value"),
        // An empty value is no path (it used to be tried as a directory named "", exit 3).
        (["serve", "--socket", "$SOCKET", "--state-dir", ""], "--state-dir needs a value"),
        (["run", "$OK", "--trace", ""], "--trace needs a value"),
        (["serve", "--socket", "$SOCKET", "--bogus"], "unknown option --bogus"),
        (["ps"], "--socket"),
        (["ps", "--socket", "$SOCKET", "--bogus"], "unknown option --bogus"),
        (["push", "A", "--socket", "$SOCKET"], "--vc"),
        (["push", "A", "B", "--socket", "$SOCKET", "--vc", "D"], "unknown argument \"B\""),
        (["push", "A", "--vc", "X", "--vc=Y", "--socket", "$SOCKET"], "--vc given more than once"),
        (["sleep", "--socket", "$SOCKET"], "--ms"),
        (["connect", "--socket", "$SOCKET"], "missing SCENE"),
        (["kill", "A", "--signal", "NOPE", "--socket", "$SOCKET"], "unknown signal"),
        // The known signals are listed.
        (["kill", "A", "--signal", "NOPE", "--socket", "$SOCKET"], "(known: HUP INT QUIT"),
        // A misspelt option is named, with the known one it is nearest to, before the
        // required option it misspelt is reported missing or the socket is looked for.
        (["push", "A", "--vcc", "Detail", "--socket", "$SOCKET"], "unknown option --vcc (did you mean --vc?)"),
        (["push", "A", "--vcc", "Detail"], "unknown option --vcc (did you mean --vc?); known: --socket --vc"),
        (["ps", "--jsno"], "unknown option --jsno (did you mean --json?)"),
        (["serve", "--bogus"], "unknown option --bogus"),
        (["demo", "--trase", "t.jsonl"], "unknown option --trase (did you mean --trace?)"),
        (["events", "--follwo"], "unknown option --follwo (did you mean --follow?)"),
        // Before the file: its value is not taken for the scenario's name.
        (["run", "--tracee", "x", "$OK"], "unknown option --tracee (did you mean --trace?)"),
        // A second value is not read as the scenario's file.
        (["run", "--trace", "a.jsonl", "--trace", "b.jsonl", "$OK"], "--trace given more than once"),
        // A boolean flag is known too, and named.
        (["connect", "A", "--backgroud"], "unknown option --backgroud (did you mean --background?)"),
        (["swipeBack", "A", "--complets"], "unknown option --complets (did you mean --completes?)"),
        (["resize", "A", "--width", "abc", "--height", "1", "--socket", "$SOCKET"], "--width"),
        (["events", "--socket", "$SOCKET", "--bogus"], "unknown option --bogus"),
        (["quit"], "--socket"),
        // A file that is not a socket: no host can serve there, so no advice to start one.
        (["ps", "--socket", "$OK"], "is not a socket, so no host serves there"),
        // stress and bench
        (["stress", "--bogus"], "unknown option --bogus"),
        // A boolean flag's value, mistyped, is named as that flag's (not "unknown argument").
        (
            ["swipeBack", "A", "--completes", "maybe", "--socket", "$SOCKET"],
            "--completes takes true or false, not maybe"
        ),
        // JSON beyond the protocol's nesting limit is refused, not sent as a string.
        (
            [
                "notify", "A", "--name", "x", "--value",
                String(repeating: "[", count: 63) + String(repeating: "]", count: 63),
            ],
            "nests deeper than 62 levels"
        ),
        // A worker that cannot run is refused before any host starts.
        (
            ["stress", "--worker", "/nonexistent/w", "--scenes", "2", "--ops", "20"],
            "--worker /nonexistent/w: no such file"
        ),
        (["serve", "--socket", "$SOCKET", "--worker", "no-such-worker-xyz"], "no-such-worker-xyz: not found in PATH"),
        (["serve", "--socket", "$SOCKET", "--worker", "/etc"], "--worker /etc: not a regular file"),
        (["bench", "--bogus"], "unknown option --bogus"),
    ]

    @Test(arguments: usageErrors)
    func aUsageErrorIsOneLineAndExit2(_ arguments: [String], _ word: String) async throws {
        let outcome = try await Self.hostctl(arguments)
        #expect(outcome.exit == .exited(status: 2), "\(arguments): \(outcome.exit) \(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && outcome.stderr.hasSuffix("\n"), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("hostctl"), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains(word), "\(arguments): \(outcome.stderr)")
        // An unknown op's line lists every known op (32 of them, containment's included).
        #expect(outcome.stderr.utf8.count < 600, "\(arguments): not one short line")
    }

    /// One prefix style: `hostctl COMMAND: ` on every error line of a command, `hostctl: `
    /// only when there is no command to name.
    @Test(arguments: usageErrors)
    func everyUsageErrorNamesItsCommand(_ arguments: [String], _ word: String) async throws {
        let outcome = try await Self.hostctl(arguments)
        let prefix = word == "unknown command" ? "hostctl: " : "hostctl \(arguments[0]): "
        #expect(outcome.stderr.hasPrefix(prefix), "\(arguments): \(outcome.stderr)")
    }

    /// A trace file or state directory named that cannot be used is a usage error (exit 2,
    /// README), before anything is printed or started.
    @Test(arguments: [
        (["demo", "--trace", "/nonexistent/dir/trace.jsonl"], "cannot open trace file"),
        // Written only at the end, and checked first all the same (it used to fail after the run).
        (
            ["demo", "--timeline", "/nonexistent/dir/demo.svg"],
            "--timeline \"/nonexistent/dir/demo.svg\": cannot write there"
        ),
        (["run", "$OK", "--trace", "/nonexistent/dir/trace.jsonl"], "cannot open trace file"),
        (["serve", "--socket", "$SOCKET", "--trace", "/nonexistent/dir/trace.jsonl"], "cannot open trace file"),
        (["serve", "--socket", "$SOCKET", "--state-dir", "/tmp"], "writable by others"),
        (["stress", "--ops", "10", "--trace", "/nonexistent/dir/trace.jsonl"], "cannot open trace file"),
    ])
    func anUnusableFileNamedFailsWithExit2BeforePrintingAnything(_ arguments: [String], _ words: String) async throws {
        let outcome = try await Self.hostctl(arguments)
        #expect(outcome.exit == .exited(status: 2), "\(arguments): \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(arguments): \(outcome.stdout)")
        #expect(outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
    }

    /// An output that is the command's input, or its other output, is refused before
    /// anything is read or written: it used to be overwritten, with exit 0.
    @Test func anOutputThatIsAnInputIsRefusedAndLeftAlone() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/s.json"
        let text = #"{"steps":[]}"#
        #expect(writeFile(scenario, text))
        let cases: [(arguments: [String], words: String)] = [
            (["run", scenario, "--trace", scenario], "--trace \"\(scenario)\" is the scenario it runs"),
            (
                [
                    "timeline", scenario, "-o",
                    directory + "/../" + String(directory.split(separator: "/").last!) + "/s.json",
                ], "is the trace it reads"
            ),
            (
                ["demo", "--quiet", "--trace", directory + "/d", "--timeline", directory + "/./d"],
                "is the --trace file"
            ),
        ]
        for (arguments, words) in cases {
            let outcome = try await Self.hostctl(arguments)
            #expect(outcome.exit == .exited(status: 2), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.hasSuffix("name another file\n"), "\(arguments): \(outcome.stderr)")
        }
        #expect(try readFileBytes(scenario) == Array(text.utf8))
        #expect(access(directory + "/d", F_OK) != 0, "the demo did not run")
        // A device takes both outputs.
        let both = try await Self.hostctl(["demo", "--quiet", "--trace", "/dev/null", "--timeline", "/dev/null"])
        #expect(both.exit == .exited(status: 0), "\(both.stderr)")
    }

    /// `verify` streams a trace of any length but holds at most one line, of at most 4 MiB;
    /// `timeline` reads at most 16 MiB. Beyond either: one line on stderr, exit 3.
    @Test func verifyAndTimelineReadWithinTheirLimits() async throws {
        let directory = makeTemporaryDirectory()
        let longLine = directory + "/long-line.jsonl"
        #expect(writeFile(longLine, String(repeating: "x", count: (4 << 20) + 1)))
        let verify = try await Self.hostctl(["verify", longLine])
        #expect(verify.exit == .exited(status: 3), "\(verify.stderr)")
        #expect(
            verify.stderr == "hostctl verify: cannot check trace file \(longLine): line 1 is longer than 4 MiB\n",
            "\(verify.stderr)"
        )
        let zeros = try await Self.hostctl(["verify", "/dev/zero"])
        #expect(zeros.exit == .exited(status: 3))
        #expect(zeros.stderr.hasSuffix("/dev/zero: line 1 is longer than 4 MiB\n"), "\(zeros.stderr)")

        let large = directory + "/large.jsonl"
        let line = #"{"seq":1,"t":0,"type":"host","name":"started"}"# + "\n"
        #expect(writeFile(large, String(repeating: line, count: (16 << 20) / line.utf8.count + 1)))
        for path in [large, "/dev/zero"] {
            let timeline = try await Self.hostctl(["timeline", path, "-o", directory + "/out.svg"])
            #expect(timeline.exit == .exited(status: 3), "\(timeline.stderr)")
            #expect(
                timeline.stderr == "hostctl timeline: cannot read trace file \(path): larger than 16 MiB\n",
                "\(timeline.stderr)"
            )
        }
    }

    /// DEL, C1 controls (U+009B is a one-byte CSI on many terminals) and bidi overrides in
    /// hostile input reach stderr escaped, never as themselves.
    @Test func terminalControlsInErrorsAreEscaped() async throws {
        let hostile = "X\u{202E}Y\u{7F}\u{9B}31mZ\u{2066}"
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/hostile.json"
        var bytes: [UInt8] = []
        JSONWriter.write(.object(["steps": .array([.object(["op": .string(hostile)])])]), into: &bytes)
        #expect(writeFile(scenario, String(decoding: bytes, as: UTF8.self)))
        let trace = directory + "/hostile.jsonl"
        var line: [UInt8] = []
        JSONWriter.write(.object(["seq": .int(2), "t": .int(0), "type": .string(hostile)]), into: &line)
        #expect(
            writeFile(
                trace,
                #"{"seq":1,"t":0,"type":"host","name":"started"}"# + "\n" + String(decoding: line, as: UTF8.self) + "\n"
            )
        )
        let outcomes = [
            try await Self.hostctl(["kill", "A", "--signal", hostile, "--socket", "$SOCKET"]),
            try await Self.hostctl(["run", scenario]),
            try await Self.hostctl(["verify", trace]),
            try await Self.hostctl(["timeline", trace]),
            try await Self.hostctl(["frobnicate" + hostile]),
        ]
        for outcome in outcomes {
            #expect(outcome.exit != .exited(status: 0), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("X\\u202EY\\u007F\\u009B31mZ\\u2066"), "\(outcome.stderr.debugDescription)")
            let controls = outcome.stderr.unicodeScalars.dropLast().filter {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            }
            #expect(controls.isEmpty, "\(outcome.stderr.debugDescription)")
        }
    }

    @Test func terminalControlsAreEscapedAsJSONEscapes() throws {
        #expect(escapingTerminalControls("plain é ✓") == "plain é ✓")
        #expect(escapingTerminalControls("a\u{7F}b\u{85}c\u{9B}d") == #"a\u007Fb\u0085c\u009Bd"#)
        #expect(
            escapingTerminalControls("\u{202E}\u{2066}\u{200F}\u{061C}\u{2028}") == #"\u202E\u2066\u200F\u061C\u2028"#
        )
        #expect(escapingTerminalControls("\n\t") == #"\u000A\u0009"#)
        // A quoted name stays valid JSON that reads back as the name.
        let name = "x\u{202E}\u{7F}\u{9B}y\n"
        let quotedName = quoted(name)
        #expect(try JSONParser.parse(Array(quotedName.utf8)) == .string(name))
        #expect(!quotedName.unicodeScalars.contains { $0.isTerminalControl })
    }

    @Test func noCommandPrintsTheUsageAndExits2() async throws {
        let outcome = try await Self.hostctl([])
        #expect(outcome.exit == .exited(status: 2))
        #expect(outcome.stdout.contains("USAGE"))
    }
}

/// Output collected on the event loop thread.
private final class CLIOutput: Sendable {
    // Written on the event loop thread, read by the test after the exit: locked, so that the
    // hand-over is one TSan can see (it does not see the continuation's).
    private let text = Locked((stdout: "", stderr: ""))
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

extension String {
    fileprivate func replacingSocketPlaceholder(with path: String) -> String {
        self == "$SOCKET" ? path : self
    }
}
