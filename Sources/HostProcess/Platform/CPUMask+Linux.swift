import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

/// A set of CPUs as sched_setaffinity(2) takes it: glibc's `cpu_set_t`, 1,024 CPUs.
package struct CPUMask: Sendable, Equatable {
    private var words = [UInt64](repeating: 0, count: 16)

    package init() {}

    /// The mask of thread `tid` (0: the calling thread); nil when the kernel refuses.
    package static func ofThread(_ tid: pid_t) -> CPUMask? {
        var mask = CPUMask()
        let result = mask.words.withUnsafeMutableBytes { csh_sched_getaffinity(tid, $0.count, $0.baseAddress) }
        return result == 0 ? mask : nil
    }

    /// The mask with only `cpu`.
    package static func only(_ cpu: Int32) -> CPUMask {
        var mask = CPUMask()
        mask.insert(cpu)
        return mask
    }

    /// Makes this the mask of thread `tid` (0: the calling thread); false when refused.
    @discardableResult
    package func apply(toThread tid: pid_t) -> Bool {
        var words = words
        return words.withUnsafeMutableBytes { csh_sched_setaffinity(tid, $0.count, $0.baseAddress) } == 0
    }

    /// Makes this the mask of every thread of process `pid` (threads listed in
    /// `/proc/PID/task`); the ones that refuse, or are gone, are skipped.
    package func apply(toProcess pid: pid_t) {
        apply(toThread: pid)
        guard let directory = opendir("/proc/\(pid)/task") else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            guard let tid = pid_t(directoryEntryName(entry)), tid != pid else { continue }
            apply(toThread: tid)
        }
    }

    package var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    package func contains(_ cpu: Int32) -> Bool {
        guard cpu >= 0, Int(cpu) < words.count * 64 else { return false }
        return words[Int(cpu) / 64] & (1 << UInt64(cpu % 64)) != 0
    }

    package mutating func insert(_ cpu: Int32) {
        guard cpu >= 0, Int(cpu) < words.count * 64 else { return }
        words[Int(cpu) / 64] |= 1 << UInt64(cpu % 64)
    }

    package func removing(_ cpu: Int32) -> CPUMask {
        var mask = self
        guard cpu >= 0, Int(cpu) < words.count * 64 else { return mask }
        mask.words[Int(cpu) / 64] &= ~(1 << UInt64(cpu % 64))
        return mask
    }
}
