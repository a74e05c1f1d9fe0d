import CLISupport
import HostProcess

extension HostError {
    /// The exit status of a command that could not start its host for this error: 2 when
    /// what the user named is unusable (README: "a file named that cannot be opened"), else
    /// 3.
    var exitCode: ExitCode {
        switch self {
        case .traceFileNotOpened, .unsafeStateDirectory: .usage
        default: .runtimeFailure
        }
    }
}
