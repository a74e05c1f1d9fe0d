import CLISupport
import Glibc
import HostBench
import HostProcess

// `hostctl worker` must start fast and stay small: dispatch it before anything else.
let argv = Array(CommandLine.arguments.dropFirst())
if argv.first == "worker" {
    Commands.worker(Array(argv.dropFirst()))
}
// The hidden helpers `hostctl bench` measures its floors with: just as early, for the same reason.
if argv.first == "bench-echo" { BenchHelpers.echo() }
if argv.first == "bench-ready" { BenchHelpers.ready() }
// `hostctl serve` keeps the main thread to take its signals (TerminationSignals): it must start before the first `await`.
if argv.first == "serve" { Commands.serveOnMainThread(Array(argv.dropFirst())) }

// `run` and `demo` quit their host in order on SIGTERM, SIGINT and SIGHUP: the main thread
// takes the signals, and must do so before the first `await` (TerminationSignals).
if argv.first == "run" || argv.first == "demo" {
    ScenarioInterrupt.runOnMainThread(argv[0]) { await main() }
}

func main() async -> ExitCode {
    guard let command = argv.first else {
        print(Help.main)
        return .usage
    }
    var arguments = Arguments(command: command, Array(argv.dropFirst()))
    do {
        switch command {
        case "demo": return try await Commands.demo(&arguments)
        case "run": return try await Commands.run(&arguments)
        case "verify": return try Commands.verify(&arguments)
        case "bench": return try await BenchCommand.run(&arguments)
        case "stress": return try await StressCommand.run(&arguments)
        case "fuzz": return try await FuzzCommand.run(&arguments)
        case "timeline": return try Commands.timeline(&arguments)
        case "control-bench": return try ControlBenchCommand.run(&arguments)
        case _ where ClientCommands.commands.contains(command): return try ClientCommands.run(&arguments)
        case "help", "--help", "-h":
            print(Help.main)
            return .success
        default:
            printError(
                "hostctl: unknown command \"\(command)\" (commands: demo, run, verify, timeline, serve, stress, fuzz, bench, "
                    + "worker; with a serving host: ps, events, quit, sleep and every scenario op, such as connect "
                    + "or push; see hostctl --help)"
            )
            return .usage
        }
    } catch let error as UsageError {
        printError(error.description)
        return .usage
    } catch {
        printError("hostctl \(command): \(error)")
        return .runtimeFailure
    }
}

StandardOutput.exit(await main(), command: argv.first ?? "")
