import CSceneHostSys
import Glibc
import HostProcess

/// Where the scheduler may run the host and its children during a round-trip benchmark.
///
/// On a small VM the scheduler moves between two moods: the host's threads and the worker
/// sharing one CPU (a round trip is a few context switches) or spread over two (each side
/// wakes the other across CPUs, with idle-state exits on the way). Either can last minutes,
/// so an unpinned run reports whichever mood the run happened to meet. Pinning measures both,
/// every run: the host process (every thread) on CPU 0, its children on CPU 0 (`sameCPU`) or
/// on CPU 1 (`splitCPUs`).
enum BenchPlacement: String, CaseIterable, Sendable {
    case sameCPU = "same-cpu"
    case splitCPUs = "split-cpu"

    static let hostCPU = 0

    /// The CPU the host's children run on.
    var childCPU: Int { self == .sameCPU ? 0 : 1 }

    /// Whether this machine has the CPUs the placement needs (and lets us use them).
    var isAvailable: Bool {
        let allowed = Self.allowedCPUs(of: 0)
        return allowed.contains(Self.hostCPU) && allowed.contains(childCPU)
    }

    /// Pins every thread of the running process to the host CPU. Threads started later inherit
    /// the mask of the thread that starts them, so the cooperative pool and the event loop stay
    /// pinned too.
    static func pinHost() -> Bool {
        pin(process: getpid(), to: [hostCPU])
    }

    /// Lets every thread of the running process run anywhere again.
    static func unpinHost() {
        _ = pin(process: getpid(), to: Array(0..<MemoryLayout<cpu_set_t>.size * 8))
    }

    /// Pins a child (every one of its threads) to the placement's child CPU.
    func pinChild(_ pid: pid_t) -> Bool {
        Self.pin(process: pid, to: [childCPU])
    }

    /// `taskset` arguments that start a program on `cpu` (for children spawned by others).
    static func tasksetPrefix(cpu: Int) -> [String] {
        ["/usr/bin/taskset", "-c", String(cpu)]
    }

    // MARK: sched_setaffinity

    /// Sets the mask of every thread of `process` (its tasks in /proc); false if any failed.
    private static func pin(process: pid_t, to cpus: [Int]) -> Bool {
        var mask = cpu_set_t()
        withUnsafeMutableBytes(of: &mask) { raw in
            let words = raw.bindMemory(to: UInt.self)
            let bits = UInt.bitWidth
            for cpu in cpus where cpu >= 0 && cpu / bits < words.count {
                words[cpu / bits] |= 1 << UInt(cpu % bits)
            }
        }
        let tasks = threadIDs(of: process)
        guard !tasks.isEmpty else { return false }
        var pinnedAll = true
        for task in tasks {
            let rc = withUnsafeMutableBytes(of: &mask) { csh_sched_setaffinity(task, $0.count, $0.baseAddress!) }
            // A thread that ended meanwhile (ESRCH) is fine.
            if rc != 0 && errno != ESRCH { pinnedAll = false }
        }
        return pinnedAll
    }

    private static func allowedCPUs(of pid: pid_t) -> Set<Int> {
        var mask = cpu_set_t()
        let rc = withUnsafeMutableBytes(of: &mask) { csh_sched_getaffinity(pid, $0.count, $0.baseAddress!) }
        guard rc == 0 else { return [] }
        return withUnsafeBytes(of: &mask) { raw in
            var cpus = Set<Int>()
            let words = raw.bindMemory(to: UInt.self)
            for (index, word) in words.enumerated() where word != 0 {
                for bit in 0..<UInt.bitWidth where word & (1 << UInt(bit)) != 0 {
                    cpus.insert(index * UInt.bitWidth + bit)
                }
            }
            return cpus
        }
    }

    /// The thread ids of `process` (`/proc/PID/task`).
    private static func threadIDs(of process: pid_t) -> [pid_t] {
        guard let directory = opendir("/proc/\(process)/task") else { return [] }
        defer { closedir(directory) }
        var tasks: [pid_t] = []
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            if let task = pid_t(name) { tasks.append(task) }
        }
        return tasks
    }
}
