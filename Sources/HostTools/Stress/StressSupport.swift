import Glibc
import HostProcess
import Protocol
import SceneModel

/// How one stress request ended.
package enum RequestOutcome: Sendable, Hashable {
    /// Not sent yet, or sent and never answered.
    case pending
    case accepted
    /// `HostError.refused`: the host's table said no; nothing may have changed.
    case refused
    /// The worker died under the request (or could not be written to as it died).
    case failed
    /// A failure no stress run should see (the worker refused what the host accepted, a
    /// spawn failed, …): a violation.
    case unexpected(String)

    package init(_ error: any Error) {
        guard let error = error as? HostError else {
            self = .unexpected("\(error)")
            return
        }
        switch error {
        case .refused: self = .refused
        case .workerExited: self = .failed
        case .workerError(_, _, let protocolError) where protocolError.code == .operationFailed: self = .failed
        default: self = .unexpected(error.description)
        }
    }
}

/// Every request of a run: when it started, how often it completed, how it ended, how long
/// it took. Shared by the clients and the run's watchdog.
package final class RequestTable: Sendable {
    package struct Entry: Sendable {
        package var started: ContinuousClock.Instant?
        package var completions = 0
        package var outcome = RequestOutcome.pending
        package var latency: Duration = .zero
        /// For kills: the pid signalled, if any worker was alive.
        package var killed: Int32?
        /// Trace times (`TraceRecorder.elapsed`): sent and answered.
        package var sent: Double?
        package var completed: Double?
    }

    private let entries: Locked<[Entry]>
    private let changes = Locked<[StressAudit.StatusChange]>([])

    package init(count: Int) {
        entries = Locked([Entry](repeating: Entry(), count: count))
    }

    package func start(_ id: Int, at time: Double? = nil) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            entries[id].started = now
            entries[id].sent = time
        }
    }

    package func complete(_ id: Int, _ outcome: RequestOutcome, latency: Duration, at time: Double? = nil) {
        entries.withLock { entries in
            entries[id].completions += 1
            entries[id].outcome = outcome
            entries[id].latency = latency
            entries[id].completed = time
        }
    }

    /// A refused request around which its client saw the scene's status differ.
    package func statusChanged(_ change: StressAudit.StatusChange) {
        changes.withLock { $0.append(change) }
    }

    /// The status changes recorded since the last call (the audit checks them a round at a
    /// time: the table holds at most a round's).
    package func takeStatusChanges() -> [StressAudit.StatusChange] {
        changes.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }

    package func killed(_ id: Int, pid: Int32?) {
        entries.withLock { entries in
            entries[id].completions += 1
            entries[id].killed = pid
        }
    }

    /// Requests sent more than `limit` ago and not answered.
    package func overdue(limit: Duration) -> [Int] {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            entries.indices.filter { index in
                guard let started = entries[index].started, entries[index].completions == 0 else { return false }
                return now - started > limit
            }
        }
    }

    package var count: Int { entries.withLock { $0.count } }

    /// The pids the kills signalled.
    package var killedPids: [Int32] { entries.withLock { $0.compactMap(\.killed) } }

    /// The entries with ids in `range`.
    package func entries(_ range: Range<Int>) -> [Entry] { entries.withLock { Array($0[range]) } }
}

/// Counts violations and reports each (the first `StressReport.keptViolations` in full).
package final class ViolationLog: Sendable {
    private struct State {
        package var count = 0
        package var kept: [String] = []
    }

    private let state = Locked(State())
    private let reporter: @Sendable (String) -> Void

    package init(_ reporter: @escaping @Sendable (String) -> Void) {
        self.reporter = reporter
    }

    package func record(_ description: String) {
        let (count, keep) = state.withLock { state -> (Int, Bool) in
            state.count += 1
            let keep = state.kept.count < StressReport.keptViolations
            if keep { state.kept.append(description) }
            return (state.count, keep)
        }
        if keep {
            reporter("violation: \(description)")
        } else if count == StressReport.keptViolations + 1 {
            reporter("violation: (more violations follow; only the first \(StressReport.keptViolations) are described)")
        }
    }

    package var count: Int { state.withLock { $0.count } }
    package var descriptions: [String] { state.withLock { $0.kept } }
}

/// Waits for `work` at most `limit`, or until `overdue` (polled every second) says the
/// work is stuck. True when the work finished; on false it is left running.
package enum StressWatchdog {
    package static func run(
        within limit: Duration?,
        overdue: (@Sendable () -> Bool)? = nil,
        _ work: @escaping @Sendable () async -> Void
    ) async -> Bool {
        let gate = Gate()
        Task {
            await work()
            gate.open(true)
        }
        let watchdog = Task {
            let start = ContinuousClock.now
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                if let limit, ContinuousClock.now - start > limit { break }
                if let overdue, overdue() { break }
            }
            gate.open(false)
        }
        let finished = await gate.wait()
        watchdog.cancel()
        return finished
    }

    /// A one-shot result: the first `open` wins.
    private final class Gate: Sendable {
        private struct State {
            package var result: Bool?
            package var waiter: CheckedContinuation<Bool, Never>?
        }

        private let state = Locked(State())

        package func open(_ result: Bool) {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: result)
        }

        package func wait() async -> Bool {
            await withCheckedContinuationFromAnyThread { continuation in
                let ready = state.withLock { state -> Bool? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// What the host process holds: descriptors, memory, children.
package enum ProcessResources {
    /// Raises the soft limit on open descriptors to the hard limit (a thousand workers need
    /// four descriptors each).
    @discardableResult
    package static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The number of open descriptors of this process, not counting the one used to count,
    /// timer descriptors (libdispatch opens one per clock the first time a timer uses it, at
    /// any point of a run; the host never opens one), nor pipes shared with a live child
    /// process other than `workers` (a helper such as ThreadSanitizer's symbolizer, which
    /// its runtime starts whenever it first symbolizes a stack).
    /// `files`: paths of files the run keeps open on purpose (the trace it writes), not counted.
    package static func openDescriptorCount(workers: Set<Int32> = [], files: Set<String> = []) -> Int? {
        let helperPipes = pipesOfLiveChildren(except: workers)
        let ownFiles = Set(files.compactMap(resolvedPath))
        var count = 0
        let listed = forEachDescriptor(of: "self") { link in
            if link != "anon_inode:[timerfd]" && !helperPipes.contains(link) && !ownFiles.contains(link) { count += 1 }
        }
        return listed ? count : nil
    }

    /// Calls `body` with the link target of each open descriptor of process `process`
    /// (`self` or a pid), except the directory stream's own; false if it cannot be listed.
    private static func forEachDescriptor(of process: String, _ body: (String) -> Void) -> Bool {
        guard let directory = opendir("/proc/\(process)/fd") else { return false }
        defer { closedir(directory) }
        let own = process == "self" ? dirfd(directory) : -1
        var target = [CChar](repeating: 0, count: 256)
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            guard let number = Int32(name), number != own else { continue }
            let length = readlink("/proc/\(process)/fd/" + name, &target, target.count - 1)
            body(String(decoding: target[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return true
    }

    /// `path` made absolute, links resolved (as `/proc/self/fd` shows it); nil if it does not exist.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The pipes (`pipe:[inode]`) open in live children of this process, `except` those.
    private static func pipesOfLiveChildren(except excluded: Set<Int32>) -> Set<String> {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var pipes: Set<String> = []
        while let entry = readdir(proc) {
            let name = directoryEntryName(entry)
            guard let pid = Int32(name), !excluded.contains(pid), parent(of: pid) == getpid() else { continue }
            _ = forEachDescriptor(of: name) { link in
                if link.hasPrefix("pipe:") { pipes.insert(link) }
            }
        }
        return pipes
    }

    /// The parent pid of `pid`, from `/proc/PID/stat`.
    private static func parent(of pid: Int32) -> Int32? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// `VmRSS` and `VmHWM` of this process, in kB.
    package static func memoryKB() -> (resident: Int?, peak: Int?) {
        guard let text = ProcFile.text("/proc/self/status") else { return (nil, nil) }
        func field(_ name: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return line.split(separator: " ").compactMap { Int($0) }.first
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// Whether `pid` is a process (running, stopped or an unreaped zombie) whose parent is
    /// this process: a worker the host left behind. A recycled pid of some other process
    /// does not count.
    package static func isLiveChild(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        return parent(of: pid) == getpid()
    }
}
