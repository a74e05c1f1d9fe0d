import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

extension ProcessStat {
    /// A dead group leader: a worker's own child that led a group of its own.
    var isZombieOfOwnGroup: Bool { state == UInt8(ascii: "Z") && processGroup == pid }
}

extension DescendantReaper {
    /// What /proc says about one child of the host's main thread.
    typealias Child = ProcessStat

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

    static func child(_ pid: Int32) -> Child? {
        ProcessStat.read(pid)
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
