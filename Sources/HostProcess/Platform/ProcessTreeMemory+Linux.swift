#if canImport(Glibc)
import Glibc
#endif

/// Every process's parent, process group and resident memory, read from `/proc/*/stat` in
/// one pass, to charge a worker for its whole process tree.
///
/// A worker's memory is not only its own: a launcher that does not exec (`sh -c 'worker;
/// true'`) holds the real worker as a child, and a worker may start helpers. Counting only
/// the spawned process let such a tree hold 830 MiB under a 300 MiB limit. A scene's tree
/// is the spawned process, its descendants (by parent pid, to any depth), and every process
/// still in its process group (the worker leads its own group, so a helper whose parent
/// exited and that was reparented still counts, unless it also left the group).
///
/// `/proc/PID/task/TID/children` would list children without a scan, but it only exists
/// with `CONFIG_PROC_CHILDREN`; one scan serves every scene of a check instead.
package struct ProcessTable: Sendable {
    private struct Entry: Sendable {
        package var parent: Int32
        package var group: Int32
        package var residentPages: Int
        /// The worker runtime's group sentinel (`scenehost-guard`): a child of the worker that
        /// shares its memory (`CLONE_VM`) and only waits; its RSS would count the worker twice.
        package var isGuard: Bool
    }

    private static let guardName = Array("scenehost-guard".utf8)

    private var entries: [Int32: Entry] = [:]
    private var children: [Int32: [Int32]] = [:]

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `snapshot()` on the sweeps thread, for a caller on the cooperative pool or the loop:
    /// the scan reads every `/proc/PID/stat`, milliseconds to tens of them with hundreds of
    /// processes on the machine, which would hold up every scene on a 2-thread pool.
    package static func snapshotOffThePool() async -> ProcessTable {
        await withCheckedContinuationFromAnyThread { continuation in
            BlockingWorkThread.sweeps.submit { continuation.resume(returning: snapshot()) }
        }
    }

    /// Reads every process now. Processes that end during the scan are left out.
    package static func snapshot() -> ProcessTable {
        var table = ProcessTable()
        guard let directory = opendir("/proc") else { return table }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let pid = Int32(directoryEntryName(entry))
            guard let pid, pid > 0, let stat = readStat(pid) else { continue }
            table.entries[pid] = stat
            table.children[stat.parent, default: []].append(pid)
        }
        return table
    }

    /// The resident memory of `root`'s tree (itself, its descendants, its process group's
    /// members) in bytes; nil if `root` is not running.
    package func residentBytes(ofTreeAt root: Int32) -> Int? {
        guard let members = members(ofTreeAt: root) else { return nil }
        return members.reduce(0) { total, pid in
            guard let entry = entries[pid], !entry.isGuard else { return total }
            return total + entry.residentPages
        } * Self.pageSize
    }

    /// The processes of `root`'s tree: itself, its descendants, its process group's members;
    /// nil if `root` is not running.
    package func members(ofTreeAt root: Int32) -> Set<Int32>? {
        guard entries[root] != nil else { return nil }
        var members: Set<Int32> = [root]
        var pending = [root]
        while let pid = pending.popLast() {
            for child in children[pid] ?? [] where members.insert(child).inserted {
                pending.append(child)
            }
        }
        for (pid, entry) in entries where entry.group == root { members.insert(pid) }
        return members
    }

    /// Fields 4 (ppid), 5 (pgrp) and 24 (rss, pages) of `/proc/PID/stat`. The command name
    /// (field 2) is in parentheses and may hold spaces and parentheses, so the fields are
    /// counted from its last `)`.
    private static func readStat(_ pid: Int32) -> Entry? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let nameEnd = buffer[..<count].lastIndex(of: UInt8(ascii: ")")),
            let nameStart = buffer[..<count].firstIndex(of: UInt8(ascii: "("))
        else { return nil }
        let isGuard = buffer[(nameStart + 1)..<nameEnd].elementsEqual(Self.guardName)
        let fields = buffer[(nameEnd + 1)..<count].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state).
        guard fields.count > 21,
            let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
            let group = Int32(String(decoding: fields[2], as: UTF8.self)),
            let pages = Int(String(decoding: fields[21], as: UTF8.self))
        else { return nil }
        return Entry(parent: parent, group: group, residentPages: max(0, pages), isGuard: isGuard)
    }
}

extension ChildProcess {
    /// The resident memory of this process's whole tree (see `ProcessTable`), in bytes; nil
    /// once the process has exited. Each call scans `/proc`: to measure several processes,
    /// take one `ProcessTable.snapshot()`.
    package func processTreeResidentMemoryBytes() -> Int? {
        ProcessTable.snapshot().residentBytes(ofTreeAt: pid)
    }
}
