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

    /// Every CPU the type can name (the kernel keeps those the thread may use).
    package static let all: CPUMask = {
        var mask = CPUMask()
        mask.words = [UInt64](repeating: .max, count: mask.words.count)
        return mask
    }()

    /// Makes this the mask of thread `tid` (0: the calling thread); false when refused.
    @discardableResult
    package func apply(toThread tid: pid_t) -> Bool {
        words.withUnsafeBytes { csh_sched_setaffinity(tid, $0.count, $0.baseAddress) } == 0
    }

    /// Makes this the mask of every thread of process `pid`; false when a thread that still
    /// exists refused it (one that ended meanwhile does not count).
    @discardableResult
    package func apply(toProcess pid: pid_t) -> Bool {
        var tookIt = true
        for tid in Self.threads(ofProcess: pid) where !apply(toThread: tid) && errno != ESRCH {
            tookIt = false
        }
        return tookIt
    }

    /// The thread ids of process `pid` (`/proc/PID/task`), its main thread first; empty when
    /// it is gone.
    package static func threads(ofProcess pid: pid_t) -> [pid_t] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var threads = [pid]
        while let entry = readdir(directory) {
            if let tid = pid_t(directoryEntryName(entry)), tid != pid { threads.append(tid) }
        }
        return threads
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
