import Glibc
import HostProcess

// `hostctl worker` must start fast and stay small: dispatch it before anything else.
let argv = Array(CommandLine.arguments.dropFirst())
if argv.first == "worker" {
    Commands.worker(Array(argv.dropFirst()))
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
        case "timeline": return try Commands.timeline(&arguments)
        case "help", "--help", "-h":
            print(Help.main)
            return .success
        default:
            printError("hostctl: unknown command \"\(command)\" (commands: demo, run, verify, worker; see hostctl --help)")
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

exit(await main().rawValue)
