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

    /// The placement the kernel chose for an unpinned child, as it is now: whether the child
    /// last ran on the CPU the calling thread (the host's loop, or the blocking echo's thread)
    /// is running on. nil when either cannot be read.
    package static func observed(child pid: pid_t) -> BenchPlacement? {
        let cpu = csh_sched_getcpu()
        guard cpu >= 0, let childCPU = lastCPU(of: pid) else { return nil }
        return childCPU == cpu ? .sameCPU : .splitCPUs
    }

    /// Of the kernel's two placements, the one every series of unpinned samples met most (the
    /// fewest samples any series has in it, highest); nil when some series has fewer than
    /// `atLeast` samples in either (too few to judge on).
    package static func mostMet(by series: [[BenchPlacement: Samples]], atLeast: Int = 1) -> BenchPlacement? {
        let met = allCases.map { placement in
            (placement, series.map { $0[placement]?.count ?? 0 }.min() ?? 0)
        }
        guard let best = met.max(by: { $0.1 < $1.1 }), best.1 >= max(1, atLeast) else { return nil }
        return best.0
    }

    /// Field 39 of /proc/PID/stat: the CPU the process's main thread last ran on.
    private static func lastCPU(of pid: pid_t) -> Int32? {
        ProcFile.text("/proc/\(pid)/stat", limit: 4096).flatMap(lastCPU(inStat:))
    }

    /// Field 39 of a /proc/PID/stat line, counted after the last `)` (the command name may
    /// hold spaces and parentheses).
    package static func lastCPU(inStat stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 36 ? Int32(fields[36]) : nil
    }

    /// Sets the mask of every thread of `process`; false if it is gone or a thread refused.
    private static func pin(process: pid_t, to mask: CPUMask) -> Bool {
        !CPUMask.threads(ofProcess: process).isEmpty && mask.apply(toProcess: process)
    }
}

/// Unpinned round trips filed by the kernel's draw: whether host and child shared a CPU.
///
/// The kernel places each new child on the host's CPU or on the other and mostly keeps it
/// there, but it may move it within a round. So the draw is read between batches of round
/// trips (untimed), and a batch is filed under its draw only when the readings before and
/// after it agree: one in which the kernel moved the child is left out.
package struct DrawLog: Sendable {
    /// Round trips per batch: a /proc read per this many costs nothing measured, and a move
    /// costs the log only the batch it fell in.
    package static let batch = 20

    private let child: pid_t?
    /// The reading before the batch being measured.
    private var drawBefore: BenchPlacement?
    package private(set) var draws: [BenchPlacement: Samples] = [:]

    /// A log for `child`'s round trips, the first batch starting now; one that files nothing
    /// when `placement` is pinned.
    package init(child: pid_t?, placement: BenchPlacement?) {
        self.child = placement == nil ? child : nil
        drawBefore = self.child.flatMap(BenchPlacement.observed(child:))
    }

    /// A log of round trips whose draws another program read (`add(_:drawAfter:)`), the
    /// first batch starting at `drawBefore`.
    package init(drawBefore: BenchPlacement?) {
        child = nil
        self.drawBefore = drawBefore
    }

    /// Files a batch of `child`'s just measured under its draw, if the kernel kept to one
    /// throughout.
    package mutating func add(_ batch: Samples) {
        guard let child else { return }
        add(batch, drawAfter: BenchPlacement.observed(child: child))
    }

    /// Files `batch` under its draw if the reading after it, `drawAfter`, agrees with the
    /// one before.
    package mutating func add(_ batch: Samples, drawAfter: BenchPlacement?) {
        defer { drawBefore = drawAfter }
        guard let drawAfter, drawAfter == drawBefore else { return }
        draws[drawAfter, default: Samples()].append(contentsOf: batch)
    }
}
