import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A cgroup v2 of one worker's own: everything the worker starts stays in it, whatever it
/// does with sessions and process groups, so that at the worker's death `cgroup.kill` ends
/// exactly what descends from it and nothing else.
///
/// The host makes one directory for its workers, `scenehost-<host pid>`, beside itself in its
/// own cgroup (a root host, or one in a delegated systemd scope, may). Where it cannot (no
/// cgroup v2, no write access, a kernel without `cgroup.kill`, 5.14), `make()` returns nil and
/// a worker's death ends its process group only: a descendant that left that group with
/// `setsid` or `setpgid` outlives the worker (docs/ARCHITECTURE.md, "What workers leave
/// behind"). The host is not a child subreaper and signals nothing it cannot prove it started.
package final class WorkerCgroup: Sendable {
    /// The worker's cgroup directory.
    package let path: String

    private init(path: String) {
        self.path = path
    }

    // A spawn that failed, or a worker never watched: an empty cgroup goes with it (one
    // still populated, or already removed, stays as it is).
    deinit {
        rmdir(path)
    }

    /// The directory of this host's worker cgroups; nil where none can be made.
    package static let hostDirectory: String? = makeHostDirectory()

    private static let nextWorker = Atomic<UInt64>(1)

    /// A new, empty cgroup for one worker, or nil where none can be made.
    package static func make() -> WorkerCgroup? {
        guard let hostDirectory else { return nil }
        let number = nextWorker.add(1, ordering: .relaxed).oldValue
        let path = "\(hostDirectory)/worker-\(number)"
        guard mkdir(path, 0o755) == 0 else { return nil }
        return WorkerCgroup(path: path)
    }

    /// `cgroup.procs` opened for writing (close-on-exec), for a spawn that moves its child in
    /// before it runs anything; -1 when it cannot be opened.
    package func openProcs() -> Int32 {
        open("\(path)/cgroup.procs", O_WRONLY | O_CLOEXEC)
    }

    /// Moves `pid` into this cgroup (a spawn that could not move its child itself).
    @discardableResult
    package func add(_ pid: pid_t) -> Bool {
        write("\(pid)", to: "cgroup.procs")
    }

    /// Whether a live process is in the cgroup (zombies do not count).
    package var isPopulated: Bool { Self.isPopulated(path) }

    /// Kills every process in the cgroup, waits (at most `limit`) until none is alive and
    /// removes the cgroup. Blocks: on the sweep thread only.
    package func killAllAndRemove(limit: Duration = .seconds(2)) {
        Self.killAllAndRemove(path, limit: limit)
    }

    private static func isPopulated(_ path: String) -> Bool {
        guard let events = ProcFile.text("\(path)/cgroup.events", limit: 4096) else { return false }
        return events.split(separator: "\n").contains { $0 == "populated 1" }
    }

    private static func killAllAndRemove(_ path: String, limit: Duration) {
        if isPopulated(path) { write("1", to: "\(path)/cgroup.kill") }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while rmdir(path) != 0 {
            guard errno == EBUSY || errno == EINTR, clock.now < deadline else { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }

    @discardableResult
    private func write(_ text: String, to file: String) -> Bool {
        Self.write(text, to: "\(path)/\(file)")
    }

    @discardableResult
    private static func write(_ text: String, to file: String) -> Bool {
        let descriptor = open(file, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) == $0.count }
    }

    /// `scenehost-<pid>` beside the host in its own cgroup v2, created now, with the empty
    /// ones of hosts that are gone removed on the way; nil where that is not possible.
    private static func makeHostDirectory() -> String? {
        guard let own = ownCgroupDirectory(), access("\(own)/cgroup.procs", W_OK) == 0 else { return nil }
        removeStaleDirectories(in: own)
        let directory = "\(own)/scenehost-\(getpid())"
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else { return nil }
        // The root cgroup has no cgroup.kill of its own: check the new one, which every v2
        // kernel with the feature gives each cgroup it creates.
        guard access("\(directory)/cgroup.kill", W_OK) == 0 else {
            rmdir(directory)
            return nil
        }
        // Made by this process, gone with it: left behind, the directory would keep the
        // cgroup it sits in from being removed (a CI stage's, a systemd scope's) until some
        // later host in the same cgroup happened to sweep it.
        atexit { WorkerCgroup.removeHostDirectory() }
        return directory
    }

    /// At exit: the host's directory, with its worker cgroups. A worker's whose death the
    /// sweep thread has not handled yet (the host quits without waiting for that) may still
    /// hold what the worker left: it is killed, as the sweep would have killed it, and the
    /// cgroup removed (at most half a second each). One that still will not go stays, and the
    /// directory with it, for the next host's sweep.
    private static func removeHostDirectory() {
        guard let hostDirectory, let workers = opendir(hostDirectory) else { return }
        var names: [String] = []
        while let worker = readdir(workers) {
            let name = directoryEntryName(worker)
            if name.hasPrefix("worker-") { names.append(name) }
        }
        closedir(workers)
        for name in names { killAllAndRemove("\(hostDirectory)/\(name)", limit: .milliseconds(500)) }
        rmdir(hostDirectory)
    }

    /// Removes the empty `worker-N` cgroups in a host's directory.
    private static func removeEmptyWorkers(in hostDirectory: String) {
        guard let workers = opendir(hostDirectory) else { return }
        defer { closedir(workers) }
        while let worker = readdir(workers) {
            let name = directoryEntryName(worker)
            if name.hasPrefix("worker-") { rmdir("\(hostDirectory)/\(name)") }
        }
    }

    /// The host's cgroup v2 directory: the unified mount point plus the `0::` line of
    /// /proc/self/cgroup.
    private static func ownCgroupDirectory() -> String? {
        guard let cgroups = ProcFile.text("/proc/self/cgroup", limit: 64 << 10),
            let line = cgroups.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let relative = String(line.dropFirst(3))
        guard let mounts = ProcFile.text("/proc/self/mountinfo", limit: 1 << 20) else { return nil }
        for mount in mounts.split(separator: "\n") {
            // "… mount-point options … - cgroup2 source options"
            let halves = mount.split(separator: " - ", maxSplits: 1)
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            guard fields.count >= 5 else { continue }
            let root = String(fields[3])
            let mountPoint = String(fields[4])
            // The mount shows the hierarchy from `root`; our path must lie below it.
            guard relative == root || relative.hasPrefix(root == "/" ? "/" : root + "/") else { continue }
            let below = root == "/" ? relative : String(relative.dropFirst(root.count))
            return below == "/" ? mountPoint : mountPoint + below
        }
        return nil
    }

    /// Removes the worker cgroups of hosts that are gone, where they are empty: a host
    /// SIGKILLed leaves its directory behind (one that exits removes it). A populated one is
    /// left alone (what is in it survived its host, and this host did not start it).
    private static func removeStaleDirectories(in own: String) {
        guard let directory = opendir(own) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            guard name.hasPrefix("scenehost-"), let pid = Int32(name.dropFirst("scenehost-".count)),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let stale = "\(own)/\(name)"
            removeEmptyWorkers(in: stale)
            rmdir(stale)
        }
    }
}
