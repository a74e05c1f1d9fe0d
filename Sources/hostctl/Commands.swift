import CLISupport
import Glibc
import HostProcess
import HostTools
import Protocol
import SceneWorker

enum Commands {
    /// `hostctl demo [--trace FILE]`
    static func demo(_ arguments: inout Arguments) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.demo)
            return .success
        }
        let tracePath = try arguments.option("--trace")
        let stateDirectory = try arguments.option("--state-dir")
        let timelinePath = try arguments.option("--timeline")
        let quiet = try arguments.flag("--quiet")
        var scenario = DemoScenario.scenario
        scenario.limits = try LimitFlags.parse(&arguments, over: scenario.limits)
        try arguments.finish()
        try OutputPaths.check(
            timelinePath,
            flag: "--timeline",
            isNot: tracePath,
            what: "the --trace file",
            command: "demo",
            // `--timeline -` is stdout; `--trace -` is a file named `-`, as the recorder opens it.
            outputStream: STDOUT_FILENO
        )
        try OutputPaths.checkWritable(timelinePath, flag: "--timeline", command: "demo")
        try OutputPaths.checkStateDirectory(stateDirectory, command: "demo")
        try OutputPaths.checkOutside(stateDirectory: stateDirectory, tracePath, flag: "--trace", command: "demo")
        try OutputPaths.checkOutside(stateDirectory: stateDirectory, timelinePath, flag: "--timeline", command: "demo")
        scenario.limits.stateDirectory = stateDirectory
        return await runScenario(
            scenario,
            command: "demo",
            tracePath: tracePath,
            quiet: quiet,
            timelinePath: timelinePath,
            banner:
                "scenehost demo: three windows (Mail, Notes, Music) and one Mail opens itself, one worker process each\n"
        )
    }

    /// `hostctl run SCENARIO.json [--trace FILE] [--quiet]`
    static func run(_ arguments: inout Arguments) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.run)
            return .success
        }
        let tracePath = try arguments.option("--trace")
        let quiet = try arguments.flag("--quiet")
        let limits = try LimitFlags.parse(&arguments)
        // Every option is known by now: a mistyped one (`run --tracee x S.json`) is the news,
        // not its value taken for the scenario's file name.
        try arguments.rejectUnknownOptions()
        let path = try arguments.positional("SCENARIO.json")
        try OutputPaths.check(tracePath, flag: "--trace", isNot: path, what: "the scenario it runs", command: "run")
        var scenario: Scenario
        do {
            scenario = try Scenario(contentsOf: path)
        } catch {
            throw UsageError("hostctl run: \(path): \(error)")
        }
        scenario.limits = try limits.applied(over: scenario.limits, command: "run")
        try arguments.finish()
        // A state directory the host could not make is the scenario's mistake (exit 2), as
        // `demo --state-dir`'s, not a failure of the run.
        try OutputPaths.checkStateDirectory(scenario.limits.stateDirectory, command: "run", given: "config.stateDir")
        try OutputPaths.checkOutside(
            stateDirectory: scenario.limits.stateDirectory,
            tracePath,
            flag: "--trace",
            command: "run"
        )
        return await runScenario(scenario, command: "run", tracePath: tracePath, quiet: quiet)
    }

    /// `timelinePath`: also draw the run as an SVG timeline there. `banner`: printed once the
    /// host has started (so a bad `--trace` path fails before anything is printed).
    private static func runScenario(
        _ scenario: Scenario,
        command: String,
        tracePath: String?,
        quiet: Bool,
        timelinePath: String? = nil,
        banner: String? = nil
    ) async -> ExitCode {
        let configuration = scenario.limits.applied(
            to: HostConfiguration(worker: [currentExecutablePath(), "worker"])
        )
        let host: SceneHost
        do {
            host = try SceneHost(configuration: configuration, tracePath: tracePath)
        } catch {
            printError("hostctl \(command): \(error)")
            return error.exitCode
        }
        // The trace records them too, but nobody may read it: as `serve`, a session lost to
        // damage is said where the run is watched.
        for file in host.sessions.damagedFiles {
            printError(oneLine("hostctl \(command): \(file.message)"))
        }
        ScenarioInterrupt.shared.attach(host)
        if let banner, !quiet { print(banner) }
        var exitCode = ExitCode.success
        do {
            var runner = ScenarioRunner(host: host)
            if !quiet {
                // An `inspect` step's tree, as it comes: one JSON line, before the timeline.
                runner.onInspect = { step, scene, tree in
                    let json: String = tree.description
                    print("inspect \(scene) (step \(step)): \(escapingTerminalControls(json))")
                }
            }
            try await runner.run(scenario)
        } catch {
            // After what the workers wrote before it failed, which often explains it.
            StderrForwarder.flushBeforeExit()
            if let signal = ScenarioInterrupt.shared.signal {
                printError(
                    "hostctl \(command): interrupted by \(ScenarioInterrupt.name(of: signal)) at step \(error.step) (\(error.op)): "
                        + "the host quit in order, every scene terminated"
                )
            } else {
                printError("hostctl \(command): \(error)")
            }
            exitCode = .runtimeFailure
        }
        if exitCode == .success, let signal = ScenarioInterrupt.shared.signal {
            // The signal came after the last step: the run is whole, but it did not end on its own.
            printError("hostctl \(command): interrupted by \(ScenarioInterrupt.name(of: signal)) as the host quit")
            exitCode = .runtimeFailure
        }
        if !quiet { print(TimelineFormatter.render(host.trace.history)) }
        if let error = host.trace.fileError {
            // The file ends at the last event written whole; the run itself is not trusted
            // to have been recorded.
            fflush(nil)
            printError("hostctl \(command): \(error)")
            exitCode = .runtimeFailure
        } else if let tracePath, !quiet {
            print("trace written to \(tracePath)")
        }
        if let timelinePath {
            do {
                try TimelineFiles.write(Array(SVGTimeline.render(host.trace.history).utf8), to: timelinePath)
                if !quiet && timelinePath != "-" { print("timeline written to \(timelinePath)") }
            } catch {
                printError("hostctl \(command): \(error)")
                exitCode = .runtimeFailure
            }
        }
        return exitCode
    }

    /// `hostctl verify TRACE.jsonl`
    static func verify(_ arguments: inout Arguments) throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.verify)
            return .success
        }
        let path = try arguments.positional("TRACE.jsonl")
        try arguments.finish()
        let result: TraceVerificationResult
        do {
            result = try TraceVerifier.verify(contentsOf: path)
        } catch {
            // A file named that cannot be opened is the command line's mistake, as for `run`.
            if case .cannotOpen = error { throw UsageError("hostctl verify: \(error)") }
            printError("hostctl verify: \(error)")
            return .runtimeFailure
        }
        if let failure = result.failure {
            printError("invalid: \(failure)")
            return .checkFailed
        }
        // Nothing to check is no proof: a run that wrote no trace (`demo --bogus --trace
        // /dev/stdout | hostctl verify -`) must not pass a CI step. A host's trace starts
        // with its `started` event.
        guard result.eventCount > 0 else {
            printError("invalid: \(path == "-" ? "stdin" : path) holds no events (a host's trace begins with started)")
            return .checkFailed
        }
        print("valid: \(result.eventCount) events")
        return .success
    }

    /// `hostctl worker [options]`: never returns.
    static func worker(_ arguments: [String]) -> Never {
        WorkerRuntime.runDefaultWorker(arguments: arguments)
    }
}
