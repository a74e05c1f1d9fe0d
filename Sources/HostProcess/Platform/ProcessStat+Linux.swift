/// The fields of /proc/PID/stat the host reads: `pid (comm) state ppid pgrp session tty
/// tpgid flags …`. comm may hold spaces and parentheses, so the fields are counted after the
/// last `)`.
package struct ProcessStat: Sendable, Equatable {
    package var pid: Int32
    package var state: UInt8
    package var processGroup: Int32
    package var session: Int32
    /// The kernel's per-task flags (`PF_*`).
    package var flags: UInt

    /// Set first thing in the kernel's `do_exit`.
    package static let exitingFlag: UInt = 0x4

    /// Whether the process has begun to exit (`PF_EXITING`) or is a zombie or dead.
    package var isExiting: Bool {
        state == UInt8(ascii: "Z") || state == UInt8(ascii: "X") || state == UInt8(ascii: "x")
            || flags & Self.exitingFlag != 0
    }

    package init(pid: Int32, state: UInt8, processGroup: Int32, session: Int32, flags: UInt = 0) {
        self.pid = pid
        self.state = state
        self.processGroup = processGroup
        self.session = session
        self.flags = flags
    }

    /// Parses the file's text; nil if it is not in that form.
    package init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard let close = utf8.lastIndex(of: UInt8(ascii: ")")),
            let open = utf8.firstIndex(of: UInt8(ascii: "(")),
            let pid = String(decoding: utf8[..<open], as: UTF8.self).split(separator: " ").first.flatMap({ Int32($0) })
        else { return nil }
        let fields = utf8[(close + 1)...].split(separator: UInt8(ascii: " "))
        func number<Value: FixedWidthInteger>(_ index: Int, as _: Value.Type) -> Value? {
            Value(String(decoding: fields[index], as: UTF8.self))
        }
        guard fields.count > 6, let state = fields[0].first,
            let group = number(2, as: Int32.self),
            let session = number(3, as: Int32.self),
            let flags = number(6, as: UInt.self)
        else { return nil }
        self.init(pid: pid, state: state, processGroup: group, session: session, flags: flags)
    }

    /// Reads /proc/`pid`/stat; nil when it cannot be read (`errno` says why) or parsed.
    package static func read(_ pid: Int32) -> ProcessStat? {
        ProcFile.text("/proc/\(pid)/stat", limit: 4096).flatMap { ProcessStat($0) }
    }
}
