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
package enum BenchPlacement: String, CaseIterable, Sendable {
    case sameCPU = "same-cpu"
    case splitCPUs = "split-cpu"

    package static let hostCPU = 0

    /// The CPU the host's children run on.
    package var childCPU: Int { self == .sameCPU ? 0 : 1 }

    /// Whether this machine has the CPUs the placement needs (and lets us use them).
    package var isAvailable: Bool {
        guard let allowed = CPUMask.ofThread(0) else { return false }
        return allowed.contains(Int32(Self.hostCPU)) && allowed.contains(Int32(childCPU))
    }

    /// Pins every thread of the running process to the host CPU. Threads started later inherit
    /// the mask of the thread that starts them, so the cooperative pool and the event loop stay
    /// pinned too.
    package static func pinHost() -> Bool {
        pin(process: getpid(), to: .only(Int32(hostCPU)))
    }

    /// Lets every thread of the running process run anywhere again.
    package static func unpinHost() {
        _ = pin(process: getpid(), to: .all)
    }

    /// Pins a child (every one of its threads) to the placement's child CPU.
    package func pinChild(_ pid: pid_t) -> Bool {
        Self.pin(process: pid, to: .only(Int32(childCPU)))
    }

    /// `taskset` arguments that start a program on `cpu` (for children spawned by others).
    package static func tasksetPrefix(cpu: Int) -> [String] {
        ["/usr/bin/taskset", "-c", String(cpu)]
    }

    /// Sets the mask of every thread of `process`; false if it is gone or a thread refused.
    private static func pin(process: pid_t, to mask: CPUMask) -> Bool {
        !CPUMask.threads(ofProcess: process).isEmpty && mask.apply(toProcess: process)
    }
}
