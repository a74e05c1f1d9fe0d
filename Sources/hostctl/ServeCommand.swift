import CLISupport
import Glibc
import HostProcess
import HostTools

extension Commands {
    /// `hostctl serve …`, entered from main.swift's top level on the main thread, before the
    /// first `await`. The main thread stays here taking SIGTERM, SIGINT and SIGHUP in `sigwait` (see
    /// `TerminationSignals` for why it must be the main thread); the host runs in a task.
    static func serveOnMainThread(_ argv: [String]) -> Never {
        TerminationSignals.block()
        let relay = ShutdownRelay()
        Task.detached {
            var arguments = Arguments(command: "serve", argv)
            let code: ExitCode
            do {
                code = try await serve(&arguments, relay: relay)
            } catch let error as UsageError {
                printError(error.description)
                code = .usage
            } catch {
                printError("hostctl serve: \(error)")
                code = .runtimeFailure
            }
            StandardOutput.exit(code, command: "serve")
        }
        TerminationSignals.waitForever { signal in
            if signal == TerminationSignals.deadline {
                relay.deadlinePassed()
            } else {
                relay.terminate()
            }
        }
    }

    /// `hostctl serve [--socket PATH] [--state-dir DIR] [--trace FILE] [limit flags]`
    private static func serve(_ arguments: inout Arguments, relay: ShutdownRelay) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.serve)
            return .success
        }
        let socket = try arguments.option("--socket")
        let tracePath = try arguments.option("--trace")
        let historyMegabytes =
            try arguments.intOption("--history-limit-mb", in: 1...(1 << 20))
            ?? HostConfiguration.defaultTraceHistoryLimitBytes >> 20
        let worker = try WorkerFlags.parse(&arguments, mustBeRunnable: true) ?? [currentExecutablePath(), "worker"]
        var limits = Scenario.Limits()
        limits.stateDirectory = try arguments.option("--state-dir")
        limits = try LimitFlags.parse(&arguments, over: limits)
        try arguments.finish()
        try OutputPaths.checkStateDirectory(limits.stateDirectory, command: "serve")
        try OutputPaths.checkOutside(
            stateDirectory: limits.stateDirectory,
            tracePath,
            flag: "--trace",
            command: "serve"
        )
        let path = try socketPath(given: socket, command: "serve")

        let listener: ControlListener
        do {
            listener = try ControlSocket.listen(path: path)
        } catch {
            printError("hostctl serve: \(error)")
            return error.kind == .badPath ? .usage : .runtimeFailure
        }
        let server: ControlServer
        do {
            var configuration = limits.applied(to: HostConfiguration(worker: worker))
            configuration.traceHistoryLimitBytes = historyMegabytes << 20
            let host = try SceneHost(configuration: configuration, tracePath: tracePath)
            // The trace records them too, but nobody may be reading it: a session lost to
            // damage should be seen by whoever started the host.
            for file in host.sessions.damagedFiles {
                printError(oneLine("hostctl serve: \(file.message)"))
            }
            server = try ControlServer(host: host, listener: listener)
        } catch {
            ControlSocket.close(listener)
            printError("hostctl serve: \(error)")
            return (error as? HostError)?.exitCode ?? .runtimeFailure
        }
        do {
            try server.start()
        } catch {
            printError("hostctl serve: \(error)")
            await server.host.quit()
            return .runtimeFailure
        }
        relay.attach(server)
        print("serving on \(path) (pid \(getpid()))")
        fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name
        await server.finished()
        if let error = server.host.trace.fileError {
            printError("hostctl serve: \(error)")
            return .runtimeFailure
        }
        return .success
    }

    /// `text` with control characters (a newline from a parser message, say) as spaces, so
    /// that one damaged file stays one line on stderr.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// `--socket PATH`, else `$SCENEHOST_SOCKET`.
    static func socketPath(_ arguments: inout Arguments) throws(UsageError) -> String {
        try socketPath(given: try arguments.option("--socket"), command: arguments.command)
    }

    /// `given` (the `--socket` value, read with the other options so that an unknown option
    /// is reported before a missing socket), else `$SCENEHOST_SOCKET`.
    static func socketPath(given: String?, command: String) throws(UsageError) -> String {
        if let given { return given }
        if let value = getenv(ControlSocket.environmentVariable), value.pointee != 0 {
            return String(cString: value)
        }
        throw UsageError(
            "hostctl \(command): needs --socket PATH (or \(ControlSocket.environmentVariable) in the environment)"
        )
    }
}

/// Hands a signal to the server, or remembers it until the server exists.
private final class ShutdownRelay: Sendable {
    private let state = Locked<(server: ControlServer?, requested: Bool)>((nil, false))

    func attach(_ server: ControlServer) {
        let requested = state.withLock { state in
            state.server = server
            return state.requested
        }
        if requested { server.shutdown() }
    }

    /// The server shuts down in order; one that is not serving yet gets a few seconds to
    /// start (a second signal, or the deadline, then ends the process): at the process or
    /// thread limit the host may never get that far, and a stop must still stop it.
    func terminate() {
        let (server, again) = state.withLock { state in
            defer { state.requested = true }
            return (state.server, state.requested)
        }
        if let server {
            server.shutdown()
        } else if again {
            giveUp()
        } else {
            alarm(3)
        }
    }

    /// The deadline `terminate` set passed.
    func deadlinePassed() {
        let attached = state.withLock { $0.server != nil }
        if !attached { giveUp() }
    }

    private func giveUp() {
        printError("hostctl serve: stopped before it was serving (it could not start in time)")
        exit(ExitCode.runtimeFailure.rawValue)
    }
}
