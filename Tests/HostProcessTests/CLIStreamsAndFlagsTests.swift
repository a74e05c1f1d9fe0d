import CLISupport
import Glibc
import HostProcess
import Protocol
import Testing

/// What `hostctl` does with its standard streams and its flags, as a user meets them: a
/// stream that is a file is that file, an output that cannot be written fails the command,
/// names from outside never reach the terminal raw, and flags take every documented form.
@Suite struct CLIStreamsAndFlagsTests {
    /// `hostctl` through `sh -c SCRIPT`, with `$0` the `hostctl` under test.
    static func shell(_ script: String, _ arguments: String...) async throws -> HostctlOutcome {
        try await shell(script, arguments)
    }

    static func shell(_ script: String, _ arguments: [String]) async throws -> HostctlOutcome {
        try await runCommand(["/bin/sh", "-c", script, TestWorker.hostctl] + arguments)
    }

    /// A trace read from stdin is still the trace: an output that is the same file is
    /// refused before anything is read, as naming it twice is. It used to be overwritten.
    @Test func anOutputThatIsTheFileOnStdinIsRefused() async throws {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/t.jsonl"
        let text = #"{"seq":1,"t":0,"type":"host","name":"started"}"# + "\n"
        #expect(writeFile(trace, text))
        for format in ["svg", "perfetto"] {
            let outcome = try await Self.shell(#"exec "$0" timeline - --format "$1" -o "$2" < "$2""#, format, trace)
            #expect(outcome.exit == .exited(status: 2), "\(format): \(outcome.stderr)")
            #expect(outcome.stderr.contains("is the trace it reads (on stdin)"), "\(outcome.stderr)")
            #expect(try readFileBytes(trace) == Array(text.utf8))
        }
        // Appending the picture to the trace it reads is refused too, `-o -` or no `-o`.
        let appended = try await Self.shell(#"exec "$0" timeline "$1" -o - >> "$1""#, trace)
        #expect(appended.exit == .exited(status: 2), "\(appended.stderr)")
        #expect(appended.stderr.contains("-o - (stdout) is the trace it reads"), "\(appended.stderr)")
        let unnamed = try await Self.shell(#"exec "$0" timeline "$1" >> "$1""#, trace)
        #expect(unnamed.exit == .exited(status: 2), "\(unnamed.stderr)")
        #expect(unnamed.stderr.contains("timeline: stdout is the trace it reads"), "\(unnamed.stderr)")
        #expect(try readFileBytes(trace) == Array(text.utf8))
        // `run -` and `--trace -` name a file called `-`, not a stream: stdout being the
        // timeline's file says nothing about them.
        let dashed = try await Self.shell(
            #"cd "$1" && exec "$0" demo --quiet --trace - --timeline x.svg > x.svg"#,
            directory
        )
        #expect(dashed.exit == .exited(status: 0), "\(dashed.stderr)")
        // Another file on stdin is fine.
        let other = directory + "/other.svg"
        let fine = try await Self.shell(#"exec "$0" timeline - -o "$2" < "$1""#, trace, other)
        #expect(fine.exit == .exited(status: 0), "\(fine.stderr)")
    }

    /// A demo's trace in a new directory, for the output-file tests.
    private static func demoTrace() async throws -> (directory: String, trace: String) {
        let directory = makeTemporaryDirectory()
        let trace = directory + "/t.jsonl"
        let demo = try await shell(#"exec "$0" demo --quiet --trace "$1""#, trace)
        #expect(demo.exit == .exited(status: 0), "\(demo.stderr)")
        return (directory, trace)
    }

    /// An output file is replaced whole or not at all: a write that fails (here the file size
    /// limit, as a full disk would) leaves the old file and no temporary beside it.
    /// `timeline -o` used to truncate first. (Not under a sanitizer, whose runtime dies of
    /// SIGBUS past the size limit.)
    @Test(.enabled(if: !TestLimit.sanitized)) func anOutputFileIsReplacedWholeOrNotAtAll() async throws {
        let (directory, trace) = try await Self.demoTrace()
        let old = directory + "/old.svg"
        #expect(writeFile(old, "old\n"))
        // `ulimit -f` counts 512-byte blocks in sh: the picture (about 35 KB) does not fit in 4 KiB.
        let cut = try await Self.shell(#"ulimit -f 8; exec "$0" timeline "$1" -o "$2""#, trace, old)
        #expect(cut.exit == .exited(status: 3), "\(cut.stderr)")
        #expect(cut.stderr.contains("File too large"), "\(cut.stderr)")
        #expect(try readFileBytes(old) == Array("old\n".utf8))
        #expect(Self.names(in: directory) == ["old.svg", "t.jsonl"])
    }

    /// A path that is not a regular file is written in place: `-o /dev/stdout` into a pipe
    /// (its link leads to a pipe, where nothing can be made beside it).
    @Test func anOutputThatIsAPipeIsWrittenInPlace() async throws {
        let (_, trace) = try await Self.demoTrace()
        let piped = try await Self.shell(#"exec "$0" timeline "$1" -o /dev/stdout | head -c 5"#, trace)
        #expect(piped.stdout == "<?xml", "\(piped.stderr)")
    }

    /// A symlink named as the output keeps pointing where it did: its target is replaced.
    @Test func anOutputSymlinkKeepsItsTarget() async throws {
        let (directory, trace) = try await Self.demoTrace()
        let old = directory + "/old.svg"
        #expect(writeFile(old, "old\n"))
        let link = directory + "/link.svg"
        #expect(symlink("old.svg", link) == 0)
        let drawn = try await Self.shell(#"exec "$0" timeline "$1" -o "$2""#, trace, link)
        #expect(drawn.exit == .exited(status: 0), "\(drawn.stderr)")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(try readFileBytes(old).starts(with: Array("<?xml".utf8)))
        #expect(Self.names(in: directory) == ["link.svg", "old.svg", "t.jsonl"])
    }

    /// The names in `directory`, sorted, without `.` and `..`.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return ["(cannot list \(directory): errno \(errno))"] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A client's output that cannot be written (a full disk) fails the command with exit 3
    /// and says so, as `demo` and `verify` do: it used to end with exit 0 and nothing said.
    @Test func aClientsUnwritableOutputFailsTheCommand() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        for command in [["ps", "--json"], ["events", "--json=true"], ["inspect", "A"]] {
            let outcome = try await Self.shell(
                #"exec "$0" "$@" > /dev/full"#,
                command + ["--socket", server.socket]
            )
            #expect(outcome.exit == .exited(status: 3), "\(command): \(outcome.stderr)")
            #expect(
                outcome.stderr == "hostctl \(command[0]): cannot write stdout: No space left on device\n",
                "\(command): \(outcome.stderr)"
            )
        }
        try await server.quit()
    }

    /// Names from scenarios, clients and workers are shown, never acted on by the terminal:
    /// `run`'s timeline escapes them as `events` does.
    @Test func runsTimelineEscapesTerminalControls() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/s.json"
        let name = #"D\u001b[31m\u2028x"#
        let steps = #"[{"op":"connect","scene":"A"},{"op":"push","scene":"A","vc":"\#(name)"}]"#
        #expect(writeFile(scenario, #"{"steps":\#(steps)}"#))
        let outcome = try await runHostctl(["run", scenario])
        #expect(outcome.exit == .exited(status: 0), "\(outcome.stderr)")
        #expect(outcome.stdout.contains(#"D\u001B[31m\u2028x"#), "\(outcome.stdout)")
        #expect(!outcome.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x2028 })
    }

    /// A scenario's `inspect` step prints the tree it got, as `hostctl inspect` does: it was
    /// asked for and dropped. `--quiet` prints nothing.
    @Test func runPrintsWhatAnInspectStepSees() async throws {
        let directory = makeTemporaryDirectory()
        let scenario = directory + "/s.json"
        let steps =
            #"[{"op":"connect","scene":"A"},{"op":"push","scene":"A","vc":"Detail"},"#
            + #"{"op":"inspect","scene":"A"}]"#
        #expect(writeFile(scenario, #"{"steps":\#(steps)}"#))
        let outcome = try await runHostctl(["run", scenario])
        #expect(outcome.exit == .exited(status: 0), "\(outcome.stderr)")
        let line = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("inspect A (step 3): ") })
        let tree = try JSONParser.parse(Array(line.dropFirst("inspect A (step 3): ".count).utf8))
        #expect("\(tree)".contains("Detail"), "\(tree)")
        let quiet = try await runHostctl(["run", scenario, "--quiet"])
        #expect(quiet.exit == .exited(status: 0) && quiet.stdout.isEmpty, "\(quiet.stdout)")
    }

    /// Every boolean flag takes `--flag`, `--flag true|false` and `--flag=true|false`
    /// (CLI.md): the command-level ones took the bare form only.
    @Test(arguments: [
        (["--quiet"], true), (["--quiet", "true"], true), (["--quiet", "false"], false),
        (["--quiet=true"], true), (["--quiet=false"], false), ([String](), false),
    ])
    func booleanFlagsTakeEveryDocumentedForm(words: [String], value: Bool) throws {
        var arguments = Arguments(command: "demo", words)
        #expect(try arguments.flag("--quiet") == value)
        try arguments.finish()
    }

    @Test func aBooleanFlagRefusesAnyOtherValue() {
        var arguments = Arguments(command: "demo", ["--quiet=maybe"])
        #expect(throws: UsageError.self) { try arguments.flag("--quiet") }
    }

    /// `verify` of nothing is no pass (a run that wrote no trace must not pass a CI step),
    /// and a directory named as the trace is the command line's mistake, as for `run`.
    @Test func verifyRefusesAnEmptyTraceAndADirectory() async throws {
        let directory = makeTemporaryDirectory()
        let empty = directory + "/empty.jsonl"
        #expect(writeFile(empty, ""))
        let outcome = try await runHostctl(["verify", empty])
        #expect(outcome.exit == .exited(status: 1), "\(outcome.stderr)")
        #expect(outcome.stderr == "invalid: \(empty) holds no events (a host's trace begins with started)\n")
        #expect(outcome.stdout.isEmpty)
        for command in ["verify", "timeline"] {
            let named = try await runHostctl([command, directory])
            #expect(named.exit == .exited(status: 2), "\(command): \(named.stderr)")
            #expect(named.stderr.contains("\(directory): is a directory"), "\(command): \(named.stderr)")
        }
    }

    /// A `--state-dir` that cannot be one is the command line's mistake (exit 2), said before
    /// any host starts: a file, or a directory with no parent to make it in.
    @Test func aStateDirectoryThatCannotBeOneIsAUsageError() async throws {
        let directory = makeTemporaryDirectory()
        let file = directory + "/file"
        #expect(writeFile(file, "x"))
        let cases: [(arguments: [String], words: String)] = [
            (
                ["serve", "--socket", directory + "/s.sock", "--state-dir", directory + "/missing/a"],
                "its parent \"\(directory)/missing\" is not a directory; create it first"
            ),
            (["demo", "--quiet", "--state-dir", file], "is not a directory; name a directory"),
            (["discard", "A", "--state-dir", directory + "/missing"], "is not a state directory"),
        ]
        for (arguments, words) in cases {
            let outcome = try await runHostctl(arguments)
            #expect(outcome.exit == .exited(status: 2), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
        }
        #expect(access(directory + "/missing", F_OK) != 0, "nothing was made")
        // A symlink to nothing is no directory either.
        #expect(symlink(directory + "/nowhere", directory + "/dangling") == 0)
        let dangling = try await runHostctl(["demo", "--quiet", "--state-dir", directory + "/dangling"])
        #expect(dangling.exit == .exited(status: 2), "\(dangling.stderr)")
        #expect(dangling.stderr.contains("is a symlink to nothing"), "\(dangling.stderr)")
        // A new directory named with a trailing slash is made as without one.
        let slashed = try await runHostctl(["demo", "--quiet", "--state-dir", directory + "/new/"])
        #expect(slashed.exit == .exited(status: 0), "\(slashed.stderr)")
    }

    /// A scenario over the size limit says the limit, not EFBIG's "File too large".
    @Test func anOversizedScenarioNamesTheLimit() async throws {
        let outcome = try await runHostctl(["run", "/dev/zero"])
        #expect(outcome.exit == .exited(status: 2), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot read /dev/zero: larger than 16 MiB"), "\(outcome.stderr)")
    }

    /// A client's step error names the flags typed, not the JSON fields they became.
    @Test func aStepErrorNamesFlags() async throws {
        let outcome = try await runHostctl([
            "waitFor", "A", "--state", "background", "--process", "running", "--socket", "/nonexistent/s",
        ])
        #expect(outcome.exit == .exited(status: 2), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--state or --process"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("\"state\""), "\(outcome.stderr)")
    }

    /// A worker that never says ready is a setup problem, not a failure the fuzzer found:
    /// exit 3, no failure file.
    @Test func fuzzOfAProgramThatIsNoWorkerIsASetupError() async throws {
        let directory = makeTemporaryDirectory()
        let out = directory + "/failure.json"
        let outcome = try await runHostctl([
            "fuzz", "--worker", "/bin/true", "--runs", "2", "--instances", "1", "--out", out,
        ])
        #expect(outcome.exit == .exited(status: 3), "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("hostctl fuzz: the app did not start, nothing was fuzzed: "))
        #expect(outcome.stderr.contains("is /bin/true a scenehost worker?"), "\(outcome.stderr)")
        #expect(access(out, F_OK) != 0)
    }

    /// `fuzz --worker PATH WORDS… --worker-arg A`: the words typed after PATH come first.
    @Test func fuzzKeepsTheWorkersArgumentsInTheOrderTyped() async throws {
        let directory = makeTemporaryDirectory()
        let out = directory + "/failure.json"
        let outcome = try await runHostctl([
            "fuzz", "--worker", TestWorker.hostctl, "worker", "--worker-arg", "--crash-in", "--worker-arg",
            "sceneDidBecomeActive", "--runs", "1", "--instances", "1", "--steps", "1", "--out", out,
        ])
        #expect(outcome.exit == .exited(status: 1), "\(outcome.stderr)")
        let scenario = try JSONParser.parse(try readFileBytes(out))
        let expected: JSONValue = .array(
            [TestWorker.hostctl, "worker", "--crash-in", "sceneDidBecomeActive"].map { .string($0) }
        )
        #expect(scenario["config"]?["worker"] == expected, "\(scenario)")
        // The summary says how to replay it with the fuzzer's own checks.
        #expect(outcome.stdout.contains("replay: hostctl fuzz --replay \(out) --worker \(TestWorker.hostctl)"))
    }

    /// `--out` is checked before anything is fuzzed: a directory that is not there, or the
    /// app itself, is a usage error at once (exit 2), not a lost failure hours later.
    @Test func fuzzRefusesAnOutputItCouldNotOrMustNotWriteBeforeFuzzing() async throws {
        let directory = makeTemporaryDirectory()
        for out in [directory + "/missing/failure.json", TestWorker.hostctl] {
            let outcome = try await runHostctl(["fuzz", "--worker", TestWorker.hostctl, "worker", "--out", out])
            #expect(outcome.exit == .exited(status: 2), "\(out): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("hostctl fuzz: --out"), "\(outcome.stderr)")
        }
    }
}
