import Protocol

#if canImport(Glibc)
import Glibc
#endif

extension SceneHost {
    /// Every known scene as `ps` shows it, sorted by identifier: status, whether a session is
    /// stored, and the live worker's resident memory and uptime.
    ///
    /// A stored session without a scene in this host (a host started on a state directory
    /// that an earlier one filled) is a row too, `unattached` with no process: that is what
    /// its scene is until it connects, and otherwise a restarted host would look empty.
    public func controlRows() async -> [ControlSceneRow] {
        var rows: [ControlSceneRow] = []
        let controllers = allControllers
        let attached = Set(controllers.map(\.id))
        for session in sessions.allSessions where !attached.contains(session.identifier) {
            // A stored session shows what its next connect will run: its app's lifecycle, its
            // worker, its app process (a row said `scene` for an app-lifecycle session).
            var row = ControlSceneRow(
                scene: session.identifier,
                hasSession: true,
                activation: .unattached,
                process: .none
            )
            row.lifecycle = session.lifecycle ?? .scene
            row.worker = session.worker
            row.app = session.app
            rows.append(row)
        }
        var statuses: [SceneStatus] = []
        statuses.reserveCapacity(controllers.count)
        for controller in controllers { statuses.append(await controller.status) }
        let measured = await Self.measure(pids: statuses.compactMap(\.pid))
        for status in statuses {
            var row = ControlSceneRow(
                scene: status.scene,
                hasSession: sessions.session(status.scene) != nil,
                activation: status.activation,
                process: status.process,
                pid: status.pid,
                stack: status.stack
            )
            row.worker = status.workerArgv
            row.presented = status.presented
            row.presentation = status.presentation
            row.lifecycle = status.lifecycle
            row.selectedTab = status.selectedTab
            row.children = status.children
            row.app = status.app
            if let pid = status.pid {
                row.residentBytes = measured[pid]?.residentBytes
                row.uptimeSeconds = measured[pid]?.uptimeSeconds
            }
            rows.append(row)
        }
        return rows.sorted { $0.scene < $1.scene }
    }

    /// Each process's tree's resident memory and uptime, read from `/proc` on the sweeps
    /// thread: a scan of every process there takes milliseconds to tens of them, too long for
    /// the cooperative pool (2 threads), where it would hold up every scene.
    private static func measure(pids: [Int32]) async -> [Int32: (residentBytes: Int?, uptimeSeconds: Double?)] {
        await withCheckedContinuationFromAnyThread { continuation in
            BlockingWorkThread.sweeps.submit {
                let table = ProcessTable.snapshot()
                var measured: [Int32: (residentBytes: Int?, uptimeSeconds: Double?)] = [:]
                for pid in pids {
                    measured[pid] = (table.residentBytes(ofTreeAt: pid), ProcessClock.uptimeSeconds(of: pid))
                }
                continuation.resume(returning: measured)
            }
        }
    }
}

/// How long a process has run, from /proc (clock-tick resolution).
package enum ProcessClock {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    package static func uptimeSeconds(of pid: Int32) -> Double? {
        // Field 22 of /proc/PID/stat is the start time in ticks since boot; the fields are
        // counted after the command name, which is in parentheses and may contain anything.
        guard let stat = ProcFile.bytes("/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")),
            let uptime = ProcFile.bytes("/proc/uptime")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state), so field 22 is fields[19].
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)),
            let first = uptime.split(separator: UInt8(ascii: " ")).first,
            let now = Double(String(decoding: first, as: UTF8.self)), ticksPerSecond > 0
        else { return nil }
        return max(0, now - ticks / ticksPerSecond)
    }
}
