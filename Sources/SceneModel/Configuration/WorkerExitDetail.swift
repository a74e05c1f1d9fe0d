import Protocol

/// How a worker ended, as a person needs it to act: how it ended (exit status or signal),
/// what it broke, what it last wrote on stderr, and whether it ever got as far as `ready`
/// (a program that is not a worker never does). Carried by `HostError.workerExited`.
public struct WorkerExitDetail: Sendable, Hashable {
    /// Its exit status, when it exited.
    public var status: Int32?
    /// The name of the signal that ended it (`SEGV`, `KILL`), when one did.
    public var signal: String?
    /// What it sent that the host could not accept, when it broke the protocol.
    public var violation: String?
    /// Its last lines on stderr, oldest first (at most `stderrLineLimit` lines and
    /// `stderrByteLimit` bytes).
    public var stderrTail: [String]
    /// It ended before it said `ready`.
    public var beforeReady: Bool
    /// The argv it was started with.
    public var argv: [String]
    /// The limit whose watchdog killed it, as a person looks for it: `the launch limit of
    /// 500 ms (HostConfiguration.launchLimit)`.
    public var watchdogLimit: String?

    /// Lines of a dead worker's stderr kept for its error.
    public static let stderrLineLimit = 5
    /// Bytes of a dead worker's stderr kept for its error.
    public static let stderrByteLimit = 2048

    public init(
        status: Int32? = nil,
        signal: String? = nil,
        violation: String? = nil,
        stderrTail: [String] = [],
        beforeReady: Bool = false,
        argv: [String] = [],
        watchdogLimit: String? = nil
    ) {
        self.status = status
        self.signal = signal
        self.violation = violation
        self.stderrTail = stderrTail
        self.beforeReady = beforeReady
        self.argv = argv
        self.watchdogLimit = watchdogLimit
    }

    /// `scene A: worker exited with status 0 during connect (crashed), before it was ready: is
    /// /bin/true a scenehost worker?; its last stderr lines: "…" "…"`.
    package func describe(scene: String, op: String, reason: TerminationReason) -> String {
        var text = "scene \(scene): worker "
        switch reason {
        case .crashed, .killed:
            // It ended on its own or by someone else's signal: how is the news.
            if let status {
                text += "exited with status \(status)"
            } else if let signal {
                text += "was killed by signal \(signal)"
            } else {
                text += "exited"
            }
            text += " during \(op) (\(reason))"
        case .protocolViolation:
            text += "broke the protocol during \(op) (\(reason))"
            if let violation { text += ": \(violation)" }
        case .watchdog:
            text += "exited (watchdog) during \(op)"
            if let watchdogLimit { text += ": it did not answer within \(watchdogLimit)" }
        default:
            text += "exited (\(reason)) during \(op)"
        }
        if let hint { text += "; \(hint)" }
        if !stderrTail.isEmpty {
            text += "; its last stderr lines: " + stderrTail.map(Self.quoted).joined(separator: " ")
        }
        return text
    }

    /// `text` in double quotes, with quotes, backslashes and control characters escaped
    /// (the message stays one line).
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// What to check when a program ended or broke the protocol before it was ever ready:
    /// most likely it is not a worker at all, or `hostctl` without `worker`.
    private var hint: String? {
        guard beforeReady, let program = argv.first else { return nil }
        let ownExit = status != nil && signal == nil
        guard ownExit || violation != nil || watchdogLimit != nil else { return nil }
        var hint = "it never said ready: is \(program) a scenehost worker?"
        let name = program.split(separator: "/").last.map(String.init) ?? program
        if name == "hostctl" && !argv.dropFirst().contains("worker") {
            hint += " (hostctl is one only as hostctl worker: did you forget the worker subcommand?)"
        }
        return hint
    }
}
