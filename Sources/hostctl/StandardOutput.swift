import CSceneHostSys
import Glibc

/// The process's buffered standard output, which `print` writes through.
enum StandardOutput {
    /// Flushes stdout; the reason a write to it failed (now or earlier, as stdio remembers),
    /// or nil when everything printed arrived.
    static func flushFailure() -> String? {
        let error = csh_stdout_flush_error()
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
