import CLISupport
import CSceneHostSys
import Glibc
import HostProcess

/// The process's buffered standard output, which `print` writes through.
enum StandardOutput {
    /// Flushes stdout; the reason a write to it failed (now or earlier, as stdio remembers),
    /// or nil when everything printed arrived.
    /// A reader that went away (`hostctl demo | head`) is no failure: EPIPE is nil too, as
    /// the SIGPIPE a shell pipeline expects would have ended the process quietly.
    static func flushFailure() -> String? {
        let error = csh_stdout_flush_error()
        return error == 0 || error == EPIPE ? nil : String(cString: strerror(error))
    }

    /// Ends the process with `code`, once worker stderr still held is written and stdout is
    /// flushed: what went to stdout must have arrived (`ps --json > out.json` on a full disk
    /// is a failure, not an empty file and exit 0).
    static func exit(_ code: ExitCode, command: String) -> Never {
        // Worker stderr goes out on a thread of its own: what it still holds must not be lost.
        StderrForwarder.flushBeforeExit()
        var code = code
        if let failure = flushFailure(), code == .success || code == .checkFailed {
            printError("hostctl \(command): cannot write stdout: \(failure)")
            code = .runtimeFailure
        }
        Glibc.exit(code.rawValue)
    }
}
