import CLISupport
import Glibc
import HostProcess
import HostTools

/// SIGTERM, SIGINT and SIGHUP during `run` and `demo`: the host quits in order, as at the
/// scenario's end (every scene terminated, the trace ending with `quit` and `stopped`), and
/// the command exits 3 once it has. Without it a Ctrl-C killed hostctl with the workers' ends
/// unrecorded and no `applicationWillTerminate`. A second signal ends the process at once
/// (its workers die with it: each has hostctl as its parent-death signal's parent).
///
/// The signals are taken on the main thread in `sigwait` (`TerminationSignals`): the
/// command runs in a task, and the main thread waits there for them.
final class ScenarioInterrupt: Sendable {
    static let shared = ScenarioInterrupt()

    private struct State {
        var host: SceneHost?
        var command: Task<Never, Never>?
        /// The signal that interrupted the command.
        var signal: Int32?
        /// Terminating signals received, the ones that came as the run ended included.
        var received = 0
    }

    private let state = Locked(State())

    /// Runs `command` (a `run` or a `demo`) in a task and takes the terminating signals on
    /// the calling thread, the main thread before its first `await`, until the command exits.
    static func runOnMainThread(_ name: String, _ command: @escaping @Sendable () async -> ExitCode) -> Never {
        TerminationSignals.block()
        let task = Task.detached {
            StandardOutput.exit(await command(), command: name)
        }
        shared.state.withLock { $0.command = task }
        TerminationSignals.waitForever { signal in
            guard signal != TerminationSignals.deadline else { return }
            shared.interrupt(by: signal)
        }
    }

    /// The scenario's host: an interrupt quits it (one that came before it existed ended
    /// the process).
    func attach(_ host: SceneHost) {
        state.withLock { $0.host = host }
    }

    /// The signal that interrupted the command, if one did.
    var signal: Int32? { state.withLock { $0.signal } }

    private func interrupt(by signal: Int32) {
        let (first, interrupts, host, command) = state.withLock { state in
            state.received += 1
            // A run already quitting (its last step done) is ending on its own: nothing to
            // interrupt, and nothing to report.
            let interrupts = state.received == 1 && state.host?.isQuitting != true
            if interrupts { state.signal = signal }
            return (state.received == 1, interrupts, state.host, state.command)
        }
        guard first else {
            printError("hostctl: \(Self.name(of: signal)) again: stopping at once")
            exit(ExitCode.runtimeFailure.rawValue)
        }
        // No host yet: nothing ran, so there is nothing to quit in order, and the command may
        // be waiting where no quit reaches it (opening a `--trace` FIFO that has no reader).
        guard host != nil else {
            printError("hostctl: \(Self.name(of: signal)) before the host started: stopping, nothing ran")
            exit(ExitCode.runtimeFailure.rawValue)
        }
        guard interrupts else { return }
        // The quit runs in a task of its own: the command's is cancelled, so that a `sleep` or
        // `waitFor` step ends now; its failure then waits for this quit to end
        // (`SceneHost.quit` called again returns when the one under way has ended).
        if let host { Task.detached { await host.quit() } }
        command?.cancel()
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
