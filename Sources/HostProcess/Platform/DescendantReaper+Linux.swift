import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

extension DescendantReaper {
    /// What /proc says about one child of the host's main thread.
    struct Child {
        var pid: Int32
        var state: UInt8
        var processGroup: Int32
        var session: Int32

        /// A dead group leader: a worker's own child that led a group of its own.
        var isZombieOfOwnGroup: Bool { state == UInt8(ascii: "Z") && processGroup == pid }
    }

    /// Makes the host a child subreaper (idempotent); false where the kernel refuses.
    @discardableResult
    static func becomeSubreaper() -> Bool {
        csh_set_child_subreaper(1) == 0
    }

    static var hostSession: Int32 { getsid(0) }

    /// The children of the host's main thread, which is where the kernel re-parents orphans
    /// (the first live thread of the subreaper). Workers are children of the blocking-work
    /// thread and never listed here.
    static func adoptedChildren() -> [Child] {
        let pid = getpid()
        guard let text = ProcFile.text("/proc/\(pid)/task/\(pid)/children") else { return [] }
        return text.split(separator: " ").compactMap { Int32($0) }.compactMap(child(_:))
    }

    /// Parses /proc/PID/stat: `pid (comm) state ppid pgrp session …`; comm may hold spaces
    /// and parentheses, so the fields are counted after the last `)`.
    static func child(_ pid: Int32) -> Child? {
        guard let text = ProcFile.text("/proc/\(pid)/stat"),
            let close = text.utf8.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let fields = text.utf8[text.utf8.index(after: close)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 4, let state = fields[0].first,
            let group = Int32(String(decoding: fields[2], as: UTF8.self)),
            let session = Int32(String(decoding: fields[3], as: UTF8.self))
        else { return nil }
        return Child(pid: pid, state: state, processGroup: group, session: session)
    }

    /// Whether `pid`'s environment holds `SCENEHOST_HOST_PID=<this host>` (what every worker
    /// gets and its descendants usually inherit). A zombie has no environment left.
    static func carriesHostMarker(_ pid: Int32) -> Bool {
        guard let environment = ProcFile.text("/proc/\(pid)/environ", limit: 256 << 10) else { return false }
        let marker = "SCENEHOST_HOST_PID=\(getpid())"
        return environment.split(separator: "\0").contains { $0 == marker }
    }

    /// SIGKILL, then wait for it: it dies promptly (stopped or not), and it is our child.
    static func killAndReap(_ pid: Int32) {
        kill(pid, SIGKILL)
        _ = csh_reap_pid(pid)
    }
}
