import Protocol

/// Errors the host's public API throws. Each names what went wrong in one line.
public enum HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation is not legal in the scene's current state; nothing changed.
    case refused(scene: String, op: String, reason: String)
    /// The scene identifier is not acceptable (empty, too long, or unsafe as a file name).
    case invalidSceneIdentifier(String)
    /// The worker could not be started.
    case spawnFailed(scene: String, message: String)
    /// The worker died or was killed before the operation completed. `detail`: how it
    /// ended (status or signal), what it broke, its last stderr lines.
    ///
    /// The two indirect cases are the largest: boxed, an error is small enough to carry
    /// through the scene machine's hot path without copying a hundred bytes at every step.
    indirect case workerExited(scene: String, op: String, reason: TerminationReason, detail: WorkerExitDetail = .init())
    /// The worker answered the operation with an error.
    indirect case workerError(scene: String, op: String, ProtocolError)
    /// Waiting for a state did not succeed within the timeout.
    case timedOut(scene: String, waitingFor: String)
    /// A file or descriptor operation failed.
    case io(String)
    /// The trace file named could not be opened for writing (a directory that does not
    /// exist, no permission): nothing was started.
    case traceFileNotOpened(path: String, reason: String)
    /// The host is shutting down.
    case shuttingDown
    /// Another host (or session store) holds the state directory; `pid` is its process if
    /// the lock file names one.
    case stateDirectoryInUse(directory: String, pid: Int32?)
    /// The state directory, or a directory or file in it, is not safe to use: not owned by
    /// the current user, writable by group or others, or a symbolic link or special file
    /// where a directory or regular file belongs. Nothing was read or written there.
    case unsafeStateDirectory(path: String, reason: String)
    /// A session (or an offline discard) could not be stored durably: a full disk, an I/O
    /// error. Nothing changed, in memory or on disk.
    case sessionNotStored(scene: String, reason: String)
    /// A request larger than the host and its worker can exchange: accepted, it would make
    /// a frame to or from the worker pass the frame limit (docs/HARDENING.md lists the
    /// limits). Nothing was done.
    case requestTooLarge(scene: String, op: String, reason: String)
    /// A request whose parameter no app could be handed as it is: a URL that is not one
    /// (`reason` says what to change). Nothing was done.
    case invalidParameter(scene: String, op: String, reason: String)

    public var description: String {
        switch self {
        case .refused(let scene, let op, let reason):
            "scene \(scene): \(op) refused: \(reason)"
        case .invalidSceneIdentifier(let id):
            "invalid scene identifier \(quoted(id)): use 1-64 characters from A-Z a-z 0-9 . _ - not starting with '.'"
        case .spawnFailed(let scene, let message):
            "scene \(scene): cannot start worker: \(message)"
        case .workerExited(let scene, let op, let reason, let detail):
            detail.describe(scene: scene, op: op, reason: reason)
        case .workerError(let scene, let op, let error):
            "scene \(scene): worker failed \(op): \(error)"
        case .timedOut(let scene, let what):
            "scene \(scene): timed out waiting for \(what)"
        case .io(let message):
            message
        case .traceFileNotOpened(let path, let reason):
            "cannot open trace file \(path): \(reason)"
        case .shuttingDown:
            "the host is shutting down"
        case .stateDirectoryInUse(let directory, let pid):
            "state directory \(directory) is in use by another host (pid \(pid.map(String.init) ?? "unknown")): "
                + "stop that host first, or use another state directory"
        case .unsafeStateDirectory(let path, let reason):
            "refusing to use \(path): \(reason); the state directory and its files must be your own: "
                + "use a directory made with mkdir -m 700"
        case .sessionNotStored(let scene, let reason):
            "scene \(scene): session not stored: \(reason)"
        case .requestTooLarge(let scene, let op, let reason), .invalidParameter(let scene, let op, let reason):
            "scene \(scene): \(op) refused: \(reason)"
        }
    }

    /// The protocol error code that stands for this error in traces and replies.
    public var code: ProtocolError.Code {
        switch self {
        case .refused, .invalidSceneIdentifier: .illegalTransition
        case .requestTooLarge, .invalidParameter: .invalidParameters
        case .workerError(_, _, let error): error.code
        default: .operationFailed
        }
    }
}
