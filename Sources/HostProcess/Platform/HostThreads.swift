import CSceneHostSys

/// The host's own threads, started together when the host starts.
///
/// After this no operation starts a thread, so a host that reaches the process or thread
/// limit later fails single operations (a spawn reports `SpawnError`), never crashes, and its
/// signal handling keeps working. (A host with a trace file also starts that file's writer
/// thread when it starts, `TraceFileWriter`; failing that, the host fails to start.)
package enum HostThreads {
    /// Starts the event loop and the blocking-work threads if they do not run yet. Idempotent;
    /// throws when one cannot be started (retrying later may succeed).
    ///
    /// The host is not a child subreaper: what a worker leaves behind is found in its cgroup
    /// (`WorkerCgroup`), and nothing else of the process's is adopted or touched.
    package static func start() throws(ThreadStartError) {
        try EventLoop.shared.start()
        for thread in BlockingWorkThread.spawns { try thread.start() }
        try BlockingWorkThread.storage.start()
        try BlockingWorkThread.waits.start()
        try BlockingWorkThread.sweeps.start()
        _ = spawnDescriptors
    }

    /// The low descriptors every spawn borrows (CSceneHostSys/Spawn.c), reserved with the
    /// threads: while few descriptors are open, so they are low, and once, so that they are
    /// part of the host from its start and never count as growth.
    private static let spawnDescriptors: Void = { _ = csh_spawn_shares_descriptor_table() }()
}
