import CLISupport
import Glibc
import HostProcess
import HostTools
import Protocol

/// `hostctl fuzz --worker PATH [ARG...] [--seed S] [--runs N] [--steps M] [--seconds T]
/// [--instances N] [--root NAME] [--out FILE] [--json]`, and `--replay FILE`.
enum FuzzCommand {
    static func run(_ arguments: inout Arguments) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.fuzz)
            return .success
        }
        let replay = try arguments.option("--replay")
        var seed: UInt64 = 1
        if let text = try arguments.option("--seed") {
            guard let value = UInt64(text) else {
                throw UsageError("hostctl fuzz: --seed must be an integer in 0...\(UInt64.max), got \"\(text)\"")
            }
            seed = value
        }
        let runs = try arguments.intOption("--runs", in: 1...1_000_000) ?? 200
        let steps = try arguments.intOption("--steps", in: 1...10_000) ?? 20
        var seconds: Double?
        if let text = try arguments.option("--seconds") {
            guard let value = Double(text), value > 0, value <= 86_400 else {
                throw UsageError("hostctl fuzz: --seconds must be a number of seconds in (0, 86400], got \"\(text)\"")
            }
            seconds = value
        }
        let instances =
            try arguments.intOption("--instances", in: 1...64) ?? max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let root = try arguments.option("--root") ?? "Root"
        let out = try arguments.option("--out") ?? "fuzz-failure.json"
        let json = try arguments.flag("--json")
        guard let workerFlags = try WorkerFlags.parse(&arguments, mustBeRunnable: true, isRequired: true) else {
            throw UsageError("hostctl fuzz: needs --worker PATH, the app to fuzz (see hostctl fuzz --help)")
        }
        try arguments.rejectUnknownOptions()
        // `--worker PATH ARG...`: the words after the path are its first arguments, as typed;
        // `--worker-arg` values follow them.
        var worker = [workerFlags[0]]
        while true {
            do { worker.append(try arguments.positional("ARG")) } catch { break }
        }
        worker += workerFlags.dropFirst()
        try arguments.finish()
        // Before any fuzzing: a report that cannot be written would lose what hours found,
        // and one written over the app would replace it.
        if replay == nil {
            for (path, flag) in [(out, "--out"), (out + ".txt", "--out (its report, FILE.txt)")] {
                try OutputPaths.checkWritable(path, flag: flag, command: "fuzz")
                try OutputPaths.check(path, flag: flag, isNot: worker[0], what: "the app it fuzzes", command: "fuzz")
            }
        }

        var configuration = FuzzConfiguration(worker: worker)
        configuration.seed = seed
        configuration.runs = runs
        configuration.steps = steps
        configuration.seconds = seconds
        configuration.instances = instances
        configuration.root = root
        if let replay { return try await self.replay(replay, configuration, json: json) }

        let terminal = isatty(2) == 1 && !json
        let report = try await Fuzzer.run(configuration) { runs, steps in
            guard terminal else { return }
            let line = "\r\u{1B}[Kfuzz: \(runs) runs, \(steps) steps"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        if terminal { _ = "\r\u{1B}[K".withCString { write(2, $0, strlen($0)) } }
        if let failure = report.failure, failure.neverStarted {
            // Nothing was fuzzed: no failure file, and not the exit of a found failure.
            printError("hostctl fuzz: the app did not start, nothing was fuzzed: \(failure.message)")
            return .runtimeFailure
        }
        var written: String?
        if let failure = report.failure {
            let scenario = Fuzzer.scenario(failure, configuration)
            do {
                try writeAtomically(out, scenario)
                try writeText(out + ".txt", FuzzReportText.render(failure, report: report, seed: seed))
            } catch {
                // What was found is not lost with the file: its steps go to stderr.
                printError(
                    "hostctl fuzz: found \(failure); steps: \(failure.steps.map(\.description).joined(separator: ", "))"
                )
                throw error
            }
            written = out
        }
        if json {
            var object: [String: JSONValue] = [
                "runs": .int(report.runs), "steps": .int(report.steps), "seconds": .double(report.seconds),
                "stepsPerSecond": .double(report.stepsPerSecond), "instances": .int(instances),
                "seed": .string("\(seed)"),
            ]
            if let failure = report.failure {
                object["failure"] = .object([
                    "kind": .string(failure.kind.rawValue), "message": .string(failure.message),
                    "steps": .array(failure.steps.map { .string($0.description) }),
                    "originalSteps": .int(report.original?.steps.count ?? 0),
                    "shrinkSeconds": .double(report.shrinkSeconds), "shrinkRuns": .int(report.shrinkRuns),
                    "scenario": .string(written ?? ""),
                ])
            }
            print(JSONValue.object(object).description)
        } else {
            print(summary(report, instances: instances, written: written, worker: worker))
        }
        return report.failure == nil ? .success : .checkFailed
    }

    private static func replay(_ path: String, _ base: FuzzConfiguration, json: Bool) async throws -> ExitCode {
        let scenario: Scenario
        do {
            scenario = try Scenario(contentsOf: path)
        } catch {
            throw UsageError("hostctl fuzz: --replay \(path): \(error)")
        }
        guard let (root, steps) = Fuzzer.steps(of: scenario) else {
            throw UsageError("hostctl fuzz: --replay \(path): not a scenario hostctl fuzz wrote")
        }
        var configuration = base
        configuration.root = root
        let failure = try await Fuzzer.replay(steps, configuration)
        // The same failure as recorded, or another one the same steps now show.
        let same = failure.flatMap { failure in scenario.recordedFailure.map { failure.matches($0) } }
        if json {
            var object: [String: JSONValue] = ["steps": .int(steps.count), "failed": .bool(failure != nil)]
            if let failure {
                object["failure"] = .string(failure.description)
                object["kind"] = .string(failure.kind.rawValue)
                object["message"] = .string(failure.message)
                if let same { object["sameAsRecorded"] = .bool(same) }
            }
            print(JSONValue.object(object).description)
        } else if let failure {
            switch (same, scenario.recordedFailure) {
            case (true?, _): print("fails again: \(failure) (\(steps.count) steps)")
            case (false?, let recorded?):
                print(
                    "fails differently: \(failure) (\(steps.count) steps; recorded: \(recorded.kind): \(recorded.message))"
                )
            default: print("fails: \(failure) (\(steps.count) steps)")
            }
        } else {
            // The user's own invariants (`FuzzInvariant`) live in their tests, not here.
            print("holds: \(steps.count) steps replayed, every check of hostctl fuzz held")
        }
        return failure == nil ? .success : .checkFailed
    }

    /// The command that replays a written failure with the fuzzer's checks.
    private static func replayCommand(_ file: String, worker: [String]) -> String {
        func quoted(_ word: String) -> String {
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return plain ? word : "'" + word.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
        }
        return (["hostctl", "fuzz", "--replay", file, "--worker"] + worker).map(quoted).joined(separator: " ")
    }

    private static func summary(_ report: FuzzReport, instances: Int, written: String?, worker: [String]) -> String {
        let rate = Int(report.stepsPerSecond.rounded())
        let head =
            "\(report.runs) runs, \(report.steps) steps in \(format1(report.seconds)) s "
            + "(\(rate) steps/s, \(instances) instances)"
        guard let failure = report.failure else { return head + ": no failure" }
        return head + ": \(failure); shrunk from \(report.original?.steps.count ?? 0) to \(failure.steps.count) steps "
            + "in \(format1(report.shrinkSeconds)) s (\(report.shrinkRuns) runs); replay: "
            + replayCommand(written ?? "", worker: worker) + " (details: \(written ?? "").txt)"
    }

    static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Writes `value` to `path` through a temporary file and a rename: a reader never sees
    /// half a scenario.
    private static func writeAtomically(_ path: String, _ value: JSONValue) throws {
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        try writeBytes(path, bytes)
    }

    private static func writeText(_ path: String, _ text: String) throws {
        try writeBytes(path, Array(text.utf8))
    }

    private static func writeBytes(_ path: String, _ bytes: [UInt8]) throws {
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw FuzzOutputError(path: error.path, errno: error.errno)
        }
    }
}

/// A failure's report file could not be written.
struct FuzzOutputError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
