import CLISupport
import Glibc
import HostProcess
import HostTools
import Protocol

/// `hostctl <op> SCENE … --socket PATH`, `ps`, `events`, `quit`: one request to a serving host.
enum ClientCommands {
    /// Client commands besides the model's operations (each of which is one).
    static let inspectionCommands = ["ps", "events"]
    static let commands = Set(LifecycleOperation.allCases.map(\.rawValue) + inspectionCommands)

    static func run(_ arguments: inout Arguments) throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.client)
            return .success
        }
        if arguments.command == LifecycleOperation.discard.rawValue, let directory = try arguments.option("--state-dir")
        {
            return try discardOffline(&arguments, directory: directory)
        }
        let socket = try arguments.option("--socket")
        switch arguments.command {
        case "ps":
            let json = try arguments.flag("--json")
            try arguments.finish()
            let path = try Commands.socketPath(given: socket, command: "ps")
            return try perform(ControlRequest(id: .int(1), body: .ps), path: path) { reply in
                guard case .scenes(let rows) = reply.result else { return }
                var output = OutputBuffer(command: "ps")
                if json {
                    JSONWriter.write(.array(rows.map(\.json)), into: &output.bytes)
                    output.bytes.append(UInt8(ascii: "\n"))
                } else {
                    output.append(psTable(rows))
                }
                output.flush()
                if reply.omittedRows > 0 {
                    printError(
                        "hostctl ps: \(reply.omittedRows) more scenes not shown (the reply is limited to "
                            + "\(ControlServer.maximumPsReplyBytes >> 20) MiB)"
                    )
                }
            }
        case "events":
            let follow = try arguments.flag("--follow")
            let json = try arguments.flag("--json")
            let fromSeq = try arguments.intOption("--from-seq", in: 1...Int.max) ?? 1
            try arguments.finish()
            let path = try Commands.socketPath(given: socket, command: "events")
            return try events(fromSeq: fromSeq, follow: follow, json: json, path: path)
        default:
            let step = try parseStep(&arguments)
            let path = try Commands.socketPath(given: socket, command: arguments.command)
            return try perform(ControlRequest(id: .int(1), body: .step(step)), path: path) { reply in
                // `inspect`'s visible tree: one JSON document on stdout.
                guard case .value(let value) = reply.result else { return }
                var output = OutputBuffer(command: arguments.command)
                JSONWriter.write(value, into: &output.bytes)
                output.bytes.append(UInt8(ascii: "\n"))
                output.flush()
            }
        }
    }

    /// `hostctl discard SCENE --state-dir DIR`: with no host running on DIR, records the
    /// discard in the store; the next host started on DIR reports `didDiscardSceneSessions`
    /// right after its launch (LIFECYCLE.md §2) and deletes the session.
    private static func discardOffline(_ arguments: inout Arguments, directory: String) throws -> ExitCode {
        let scene = try arguments.positional("SCENE")
        try arguments.finish()
        guard SceneSession.isValidIdentifier(scene) else {
            throw UsageError("hostctl discard: invalid scene identifier \"\(scene)\"")
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            // The directory named is the command line's mistake (exit 2, CLI.md).
            throw UsageError("hostctl discard: \(directory) is not a state directory")
        }
        // Looked up before the store is opened: opening one lays out a directory (its lock,
        // `sessions/`, `discarded/`), and a failed discard must leave the directory as it was.
        guard stat(directory + "/sessions/" + scene + ".json", &status) == 0 else {
            printError("hostctl discard: no stored session \(scene) in \(directory)")
            return .runtimeFailure
        }
        do throws(HostError) {
            // Damaged files stay where they are: setting them aside is a starting host's
            // job, which reports it where its user looks (`serve`'s stderr, the trace).
            let store = try SessionStore(directory: directory, keepingDamagedFilesAside: false)
            defer { store.close() }
            let file = directory + "/sessions/" + scene + ".json"
            if let damaged = store.damagedFiles.first(where: { $0.path == file }) {
                printError(
                    Commands.oneLine(
                        "hostctl discard: sessions/\(scene).json in \(directory) is damaged (\(damaged.reason)); "
                            + "nothing recorded: move the file away to discard the session"
                    )
                )
                return .runtimeFailure
            }
            guard store.session(scene) != nil else {
                printError("hostctl discard: no stored session \(scene) in \(directory)")
                return .runtimeFailure
            }
            try store.markDiscarded(scene)
            for damaged in store.damagedFiles {
                printError(Commands.oneLine("hostctl discard: warning: \(damaged.message)"))
            }
        } catch .stateDirectoryInUse(let directory, let pid) {
            printError(
                "hostctl discard: state directory \(directory) is in use by a running host (pid \(pid.map(String.init) ?? "unknown")): "
                    + "discard through it with hostctl discard \(scene) --socket PATH"
            )
            return .runtimeFailure
        } catch {
            printError("hostctl discard: \(error)")
            return .runtimeFailure
        }
        return .success
    }

    /// The step for `hostctl <op> SCENE [--flags]`: each of the model's fields as a flag
    /// (`timeoutMs` as `--timeout-ms` or `--timeoutMs`), checked by the scenario parser.
    private static func parseStep(_ arguments: inout Arguments) throws(UsageError) -> Scenario.Step {
        let op = arguments.command
        guard let operation = LifecycleOperation(rawValue: op) else {
            throw UsageError("hostctl: unknown command \(op)")
        }
        var object: [String: JSONValue] = ["op": .string(op)]
        var missing: OperationField?
        // Options first: what remains before the scene name is then unambiguous.
        for field in operation.fields where field.value != .scene {
            if let value = try flagValue(field, &arguments) {
                object[field.name] = value
            } else if field.presence == .required, missing == nil {
                missing = field
            }
        }
        // A misspelt option explains a missing one: `push A --vcc Detail` names `--vcc`.
        try arguments.rejectUnknownOptions()
        if let missing {
            throw UsageError("hostctl \(op): needs \(flagName(missing)) \(missing.placeholder)")
        }
        if operation.takesScene {
            object["scene"] = .string(try arguments.positional("SCENE"))
        }
        try arguments.finish()
        do {
            return try Scenario.step(fromJSON: .object(object))
        } catch {
            // The parser names the step by its op, which the prefix already does.
            var message = Substring(error.message)
            if message.hasPrefix(op + ": ") { message = message.dropFirst(op.count + 2) }
            // It names the step's JSON fields; here they were typed as flags.
            // (Not where a value typed is itself a field's name: the message may quote it.)
            var text = String(message)
            let typed = Set(
                object.values.compactMap { value -> String? in
                    if case .string(let string) = value { string } else { nil }
                }
            )
            for field in operation.fields where field.value != .scene && !typed.contains(field.name) {
                text = text.replacing("\"\(field.name)\"", with: flagName(field))
            }
            throw UsageError("hostctl \(op): \(text)")
        }
    }

    /// `timeoutMs` → `--timeout-ms`.
    static func flagName(_ field: OperationField) -> String {
        var flag = "--"
        for character in field.name {
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
        return flag
    }

    /// A field's value from its flag (or from the field's own spelling, `--timeoutMs`), as
    /// the scenario step writes it; nil when absent.
    private static func flagValue(
        _ field: OperationField,
        _ arguments: inout Arguments
    ) throws(UsageError) -> JSONValue? {
        let flag = flagName(field)
        let alias = "--" + field.name
        func text() throws(UsageError) -> String? {
            if let value = try arguments.option(flag) { return value }
            return flag == alias ? nil : try arguments.option(alias)
        }
        func integer(_ range: ClosedRange<Int>) throws(UsageError) -> JSONValue? {
            if let value = try arguments.intOption(flag, in: range) { return .int(value) }
            guard flag != alias, let value = try arguments.intOption(alias, in: range) else { return nil }
            return .int(value)
        }
        switch field.value {
        case .scene:
            return nil
        case .bool:
            return try arguments.boolFlag(flag).map { .bool($0) }
        case .string, .signal, .activationState, .processState:
            return try text().map { .string($0) }
        case .positiveInt:
            return try integer(1...1_000_000)
        case .nonNegativeInt:
            return try integer(0...1_000_000)
        case .names:
            // `--tabs Inbox,Search`: the names, comma-separated, in order.
            return try text().map { text in
                .array(text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
            }
        case .milliseconds:
            return try integer(0...86_400_000)
        case .json:
            // JSON when it parses (42, true, {"a":1}, "quoted"), else the text itself. JSON
            // beyond the protocol's limits is refused, not sent as text: the user meant JSON.
            guard let text = try text() else { return nil }
            do throws(ProtocolError) {
                return try JSONParser.parse(Array(text.utf8))
            } catch  where error.code == .nestingTooDeep {
                throw UsageError("hostctl \(arguments.command): \(flag): \(error.message)")
            } catch {
                return .string(text)
            }
        case .argv:
            // `--worker PATH [--worker-arg ARG]...`: the argv, in order, its program resolved
            // against this client's directory and PATH (not the serving host's).
            return try WorkerFlags.parse(&arguments, flag: flag).map { .array($0.map { .string($0) }) }
        }
    }

    /// Sends `request`, hands a successful reply to `onSuccess`; errors become exit statuses.
    private static func perform(
        _ request: ControlRequest,
        path: String,
        onEvent: (TraceEvent) -> Void = { _ in },
        onSuccess: (ControlReply) -> Void
    ) throws -> ExitCode {
        let command = request.body.commandName
        let client: ControlClient
        do {
            client = try ControlClient(path: path)
        } catch {
            printError("hostctl \(command): \(error)")
            return error.kind == .badPath ? .usage : .runtimeFailure
        }
        let reply: ControlReply
        do {
            reply = try client.perform(request, onEvent: onEvent)
        } catch {
            printError("hostctl \(command): \(error)")
            return .runtimeFailure
        }
        if case .failure(let error) = reply.result {
            printError("hostctl \(command): \(error.message)")
            return .runtimeFailure
        }
        onSuccess(reply)
        return .success
    }

    // MARK: events

    private static func events(fromSeq: Int, follow: Bool, json: Bool, path: String) throws -> ExitCode {
        let client: ControlClient
        do {
            client = try ControlClient(path: path)
        } catch {
            printError("hostctl events: \(error)")
            return error.kind == .badPath ? .usage : .runtimeFailure
        }
        var output = OutputBuffer(command: "events")
        let request = ControlRequest(id: .int(1), body: .events(fromSeq: fromSeq, follow: follow))
        let reply: ControlReply
        var lastSeq: Int?
        do {
            reply = try client.perform(request) { event in
                lastSeq = event.seq
                if json {
                    event.appendJSONLine(to: &output.bytes)
                } else {
                    output.append(describe(event))
                }
                // Stream as it comes: flush whenever the next frame is not already here.
                if output.bytes.count >= 64 << 10 || !client.hasPendingFrames { output.flush() }
            }
        } catch {
            // Said first: a stdout that cannot take the events received ends the process.
            var message = "hostctl events: \(error)"
            if let lastSeq, "\(error)".contains("closed the connection") {
                // Mid-stream: the host drops a reader that takes nothing for its stall limit
                // (a pager left open, say). What was printed is whole; the rest is still held.
                message +=
                    " (the host disconnects a reader that takes nothing for \(Int(ControlConnection.defaultStallLimit.components.seconds)) s);"
                    + " go on with hostctl events --from-seq \(lastSeq + 1)"
            }
            printError(message)
            output.flush()
            return .runtimeFailure
        }
        output.flush()
        if case .failure(let error) = reply.result {
            printError("hostctl events: \(error.message)")
            return .runtimeFailure
        }
        return .success
    }

    /// `    12    0.131s  Notes        sceneDidBecomeActive`; names and messages from the trace
    /// with terminal controls escaped (they come from clients and workers).
    static func describe(_ event: TraceEvent) -> String {
        let milliseconds = Int((event.time * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        let time = "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
        return leftPad(String(event.seq), 6) + "  " + leftPad(time, 9) + "  "
            + rightPad(event.scene ?? "host", 12) + " " + escapingTerminalControls(TimelineFormatter.describe(event))
            + "\n"
    }

    // MARK: ps

    static func psTable(_ rows: [ControlSceneRow]) -> String {
        var table = [
            [
                "SCENE", "SESSION", "STATE", "PROCESS", "PID", "APP", "RSS", "UPTIME", "PRESENTED", "TAB", "LIFECYCLE",
                "WORKER",
            ]
        ]
        for row in rows {
            table.append([
                row.scene,
                row.hasSession ? "yes" : "no",
                row.activation.rawValue,
                row.process.rawValue,
                row.pid.map { String($0) } ?? "-",
                row.app.map(escapingTerminalControls) ?? "-",
                row.residentBytes.map { mebibytes($0) } ?? "-",
                row.uptimeSeconds.map { duration($0) } ?? "-",
                // An app names its controllers: what it names is escaped, as `events` and errors do.
                row.presented.map { "\(escapingTerminalControls($0)) (\(row.presentation?.rawValue ?? "?"))" } ?? "-",
                row.selectedTab.map { String($0) } ?? "-",
                row.lifecycle.rawValue,
                row.worker.map { escapingTerminalControls($0.joined(separator: " ")) } ?? "-",
            ])
        }
        var widths = [Int](repeating: 0, count: table[0].count)
        for line in table {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var text = ""
        for line in table {
            var cells: [String] = []
            for (index, cell) in line.enumerated() {
                // Numbers right-aligned, text left-aligned; no padding after the last column.
                let isNumber = (4...6).contains(index)
                if index == line.count - 1 {
                    cells.append(isNumber ? leftPad(cell, widths[index]) : cell)
                } else {
                    cells.append(isNumber ? leftPad(cell, widths[index]) : rightPad(cell, widths[index]))
                }
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        return text
    }

    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole < 60 {
            let tenths = Int((seconds * 10).rounded(.down))
            return "\(tenths / 10).\(tenths % 10)s"
        }
        if whole < 3600 { return "\(whole / 60)m" + leftPad(String(whole % 60), 2, "0") + "s" }
        return "\(whole / 3600)h" + leftPad(String(whole % 3600 / 60), 2, "0") + "m"
    }

    private static func leftPad(_ text: String, _ width: Int, _ fill: Character = " ") -> String {
        text.count >= width ? text : String(repeating: fill, count: width - text.count) + text
    }

    private static func rightPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

extension ControlRequest.Body {
    /// The command that sends this request, for error lines.
    fileprivate var commandName: String {
        switch self {
        case .step(let step): step.opName
        case .ps: "ps"
        case .events: "events"
        }
    }
}

/// Bytes for stdout, written with write(2) (no stdio buffer to forget to flush).
struct OutputBuffer {
    /// The command writing: its name begins the error when stdout cannot be written.
    let command: String
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes everything held to stdout. A reader that went away (`| head`) ends the process
    /// with success; any other failure (a full disk, a closed stdout) ends it with exit 3 and
    /// says so: what was asked for did not arrive (`ps --json > out.json` on a full disk is
    /// not an empty file and exit 0). Written with `write`, so stdio's own check at exit
    /// never sees these bytes.
    mutating func flush() {
        var offset = 0
        let command = command
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let count = write(1, raw.baseAddress! + offset, raw.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // A stdout inherited non-blocking, its pipe full: wait for the reader.
                    var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                } else if count < 0 && errno == EPIPE {
                    exit(ExitCode.success.rawValue)  // the reader is gone (`| head`): nothing left to do
                } else {
                    let reason = count < 0 ? String(cString: strerror(errno)) : "nothing was written"
                    printError("hostctl \(command): cannot write stdout: \(reason)")
                    exit(ExitCode.runtimeFailure.rawValue)
                }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
