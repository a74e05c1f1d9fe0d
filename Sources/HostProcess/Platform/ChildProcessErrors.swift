#if canImport(Glibc)
import Glibc
#endif

/// Why `ChildProcess.spawn` failed. Nothing is left behind: no descriptor, no process.
package struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    package enum Stage: Sendable, Hashable {
        /// `argv` was empty.
        case emptyArgumentList
        /// An argument holds a NUL character, which no C string can.
        case nulInArgument
        /// `argv[0]` has no `/` and no `PATH` entry holds an executable of that name.
        case notFoundInPath
        case createPipe
        /// posix_spawn itself, including the `execve` failure it reports (ENOENT, EACCES, …).
        case spawn
        case openPidfd
        /// The host's spawning thread was not running and could not be started (process or
        /// thread limit); `errno` is `pthread_create`'s error.
        case startThread
    }

    package var stage: Stage
    /// `argv[0]` as the caller gave it.
    package var executable: String
    /// The errno value behind the failure (ENOENT for `notFoundInPath`, EINVAL for an empty `argv`).
    package var errno: Int32

    /// `cannot spawn "/nope": No such file or directory`.
    package var description: String {
        let reason = String(cString: strerror(errno))
        switch stage {
        case .emptyArgumentList: return "cannot spawn: empty argument list"
        case .nulInArgument:
            return
                "cannot spawn \"\(executable.split(separator: "\u{0}").first ?? "")…\": an argument holds a NUL character"
        case .notFoundInPath: return "cannot spawn \"\(executable)\": not found in PATH"
        case .spawn: return "cannot spawn \"\(executable)\": \(reason)"
        case .createPipe: return "cannot spawn \"\(executable)\": cannot create pipe: \(reason)"
        case .openPidfd: return "cannot spawn \"\(executable)\": cannot open pidfd: \(reason)"
        case .startThread: return "cannot spawn \"\(executable)\": cannot start the host's spawning thread: \(reason)"
        }
    }
}

/// Why a write to a worker's stdin failed.
package enum ChildIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The worker has left `queued` bytes unread, more than the host keeps for it; nothing of
    /// the rejected write went out, so the stream stays whole.
    case backlogFull(queued: Int)
    /// The worker closed its stdin or has exited.
    case brokenPipe
    /// The host closed stdin itself (`closeStdin()`).
    case closed
    /// Any other `write(2)` failure.
    case failed(errno: Int32)

    package var description: String {
        switch self {
        case .backlogFull(let queued): "worker is not reading its stdin (\(queued) bytes unread)"
        case .brokenPipe: "worker stdin is closed (broken pipe)"
        case .closed: "stdin was already closed by the host"
        case .failed(let code): "write to worker stdin failed: \(String(cString: strerror(code)))"
        }
    }
}

/// Why a signal could not be sent to a worker.
package enum SignalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The worker (or, for a group signal, every process of its group) is gone.
    case processExited
    /// Any other failure (EPERM, EINVAL for a bad signal number).
    case failed(errno: Int32)

    package var description: String {
        switch self {
        case .processExited: "the process has exited"
        case .failed(let code): "cannot send signal: \(String(cString: strerror(code)))"
        }
    }
}
