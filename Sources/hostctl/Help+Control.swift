import Protocol

extension Help {
    /// One usage line per operation of the model, its fields as flags, with a note where
    /// the flags do not say it all.
    static var clientOperations: String {
        var lines: [String] = []
        var plain: [String] = []
        func flushPlain() {
            if !plain.isEmpty { lines.append("  " + plain.joined(separator: " | ")) }
            plain = []
        }
        for operation in LifecycleOperation.allCases {
            let usage = operation.rawValue + (operation.takesScene ? " A" : "") + flagUsage(operation)
            guard let note = clientNote(operation) else {
                if usage.count + plain.joined(separator: " | ").count > 60 { flushPlain() }
                plain.append(usage)
                continue
            }
            flushPlain()
            let line = "  " + usage
            let column = String(repeating: " ", count: 38)
            lines.append(
                line.count < 37 ? line + String(column.dropFirst(line.count)) + note : line + "\n" + column + note
            )
        }
        flushPlain()
        lines.append("  discard A --state-dir DIR           with no host running on DIR: record the discard; the")
        lines.append("                                      next host there reports didDiscardSceneSessions")
        return lines.joined(separator: "\n")
    }

    /// ` --vc NAME`, ` [--background]`, ` --state STATE|--process PROCESS`: an operation's flags.
    private static func flagUsage(_ operation: LifecycleOperation) -> String {
        var usage = ""
        var alternatives: [String] = []
        for field in operation.fields where field.value != .scene {
            let flag = ClientCommands.flagName(field)
            let shown: String =
                switch field.value {
                case .bool: flag
                case .argv: "\(flag) \(field.placeholder)] [\(flag)-arg ARG]..."
                default: "\(flag) \(field.placeholder)"
                }
            switch field.presence {
            case .required: usage += " " + shown
            case .optional: usage += " [" + shown + (field.value == .argv ? "" : "]")
            case .exactlyOneOf: alternatives.append(shown)
            }
            if field.presence != .exactlyOneOf && !alternatives.isEmpty {
                usage = " " + alternatives.joined(separator: "|") + usage
                alternatives = []
            }
        }
        if !alternatives.isEmpty { usage += " " + alternatives.joined(separator: "|") }
        return usage
    }

    private static func clientNote(_ operation: LifecycleOperation) -> String? {
        switch operation {
        case .connect: "start A's worker (default: A's last one)"
        case .push, .pop: "navigation (foreground only)"
        case .notify: "a --value that is not JSON is sent as a string"
        case .kill: "signal the worker (reason killed), wait for its death (≤ terminate limit; STOP, CONT: none)"
        case .memoryPressure: "LIFECYCLE.md §4's order, host-wide"
        case .sleep: "the host waits MS ms before its reply (scripts)"
        case .waitFor: "default timeout 10000 ms (--timeoutMs too)"
        case .quit: "terminate every scene and stop the host"
        case .present: "--style pageSheet (default), fullScreen, overFullScreen or alert"
        case .dismiss: "dismiss the presented controller"
        case .swipeDismiss, .swipeBack: "--completes false: the user lets go (cancelled)"
        case .tap: "touches to the frontmost controller (foregroundActive only)"
        case .openURL: "no worker: launch with the URL; else openURLContexts (from background: on the way)"
        case .continueUserActivity: "a universal link; no worker: launch with it; a --user-info not JSON is a string"
        case .quickAction: "home-screen quick action; no worker: launch with it as the shortcut item"
        case .openNotification: "tap a notification; no worker: launch with it (callback while inactive)"
        case .remoteNotification: "silent push: didReceiveRemoteNotification in the app's state"
        case .popToRoot: "pop the stack to its root (the middle controllers are released silently)"
        case .selectTab: "tab switch of a tab bar root (connect --tabs A,B), index from 0"
        case .addChild: "a child of the frontmost controller (foreground only)"
        case .removeChild: "remove a child of the frontmost controller"
        case .selectRow: "tap a row of the frontmost table (foregroundActive only)"
        case .typeText: "type into a field found by identifier or placeholder (foregroundActive only)"
        case .tapControl: "tap a button or bar button item by title or identifier (foregroundActive only)"
        case .alertAction: "choose an action of the presented alert (foregroundActive only)"
        case .moveRow: "drag a row of the frontmost table, which is editing, to another place (foregroundActive only)"
        case .swipeRow: "swipe a row of the frontmost table and tap a swipe action (foregroundActive only)"
        case .inspect: "print the visible tree as JSON (controllers, titles, labels, fields, rows)"
        case .activate, .deactivate, .background, .foreground, .disconnect, .discard, .resize, .memoryWarning,
            .beginBackgroundTask, .endBackgroundTask, .terminate:
            nil
        }
    }

    static let serve = """
        hostctl serve [--socket PATH] [--state-dir DIR] [--trace FILE] [--history-limit-mb N]
                      [--worker PATH [--worker-arg ARG]...] [limit flags]

        Runs a host until a `quit` request, SIGTERM, SIGINT or SIGHUP, controlled over a Unix
        socket (mode 0600). Then every scene is terminated as at the end of a scenario
        (suspended workers killed silently, running ones get applicationWillTerminate) and it
        exits 0. SIGUSR1 and SIGUSR2 are ignored.
        When ready it prints one line: serving on PATH (pid N). Before it, stderr names each
        damaged session file in --state-dir (kept aside as FILE.damaged), one a line.

          --socket PATH     the socket (default: $SCENEHOST_SOCKET). Its directory must be
                            yours and not writable by group or others ($XDG_RUNTIME_DIR, or
                            mkdir -m 700 DIR); /tmp itself is refused. A stale socket is
                            replaced; a live one (a host answers there) never is.
          --state-dir DIR   keep scene sessions in DIR (they survive the host). One host
                            at a time: a second one on DIR exits 3 naming the first's pid.
          --trace FILE      also write the trace as JSON Lines (every event)
          --history-limit-mb N
                            keep the newest N MiB of trace in memory for `events`
                            (default 64; older events only in the --trace file)
          --worker PATH     the worker a scene runs when its connect names none (default:
                            this hostctl with worker); --worker-arg ARG adds an argument,
                            repeat it for more. A scene reconnects with its last worker.
        \(LimitFlags.help)

        EXAMPLE
          dir="${XDG_RUNTIME_DIR:-/tmp}/scenehost-$(id -u)"; mkdir -m 700 -p "$dir"
          export SCENEHOST_SOCKET="$dir/host.sock"
          hostctl serve &
          hostctl connect A && hostctl push A --vc Detail && hostctl ps
          hostctl quit

        Client commands: hostctl ps --help. Wire format: docs/CONTROL.md.
        """

    static let client = """
        hostctl <op> SCENE [--flags] [--socket PATH]
        hostctl ps [--json] | events [--follow] [--json] [--from-seq N] | quit

        One request to a host started with hostctl serve; the socket comes from --socket or
        $SCENEHOST_SOCKET. Exit 0 when the host did it, 3 when it refused or failed (its
        error on stderr), 2 for a usage error. A --worker PATH is resolved here (relative
        to this directory, a bare name through this PATH), not where the host runs.

        SCENE OPERATIONS (the scenario ops; fields as flags)
        \(clientOperations)

        HOST
          ps [--json]        scene, session stored, state, process, pid, app, resident
                             memory, worker uptime, presented, tab, lifecycle, worker argv
                             (--json: a JSON array on one line)
          events [--follow] [--json] [--from-seq N]
                             the trace from seq N (default 1): readable lines, or the
                             trace's JSON Lines with --json; --follow keeps streaming
                             until the host quits (or Ctrl-C). A reader that takes
                             nothing for 10 s (a paused pager) is disconnected: go on
                             with --from-seq, one past the last seq printed

        EXAMPLES
          export SCENEHOST_SOCKET="${XDG_RUNTIME_DIR:-/tmp}/scenehost-$(id -u)/host.sock"
          hostctl connect Mail && hostctl push Mail --vc Message
          hostctl notify Mail --name unread --value 3
          hostctl events --follow --json | grep '"exited"'
          hostctl kill Mail --signal TERM; hostctl ps --json
        """
}
