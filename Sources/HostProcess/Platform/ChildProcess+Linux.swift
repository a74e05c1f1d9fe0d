import CSceneHostSys
import Dispatch
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Spawning

extension ChildProcess {
    /// Starts `argv` as a worker: its own process group, empty signal mask, default signal
    /// dispositions, fresh pipes as fds 0/1/2 and no other descriptor.
    ///
    /// `argv[0]` without a `/` is looked up in `PATH` (the `PATH` of `environment` when it has
    /// one, else the host's). `environment` nil inherits the host's environment. Either way the
    /// child also gets `SCENEHOST_HOST_PID=<host pid>` so it can tell whether it was orphaned.
    ///
    /// `scheduling`: the child's scheduling policy (`.batch` for workers of a host tuned for
    /// throughput). `ownCgroup`: start it in a cgroup of its own where one can be made
    /// (`WorkerCgroup`), so that everything it leaves behind can be found at its death.
    ///
    /// The spawn runs on the blocking-work thread (see `BlockingWorkThread`) and the caller
    /// resumes when it is done: no cooperative thread waits. The child must be handed to
    /// `EventLoop.watch`, which reaps it; a child dropped unwatched is killed and reaped.
    package static func spawn(
        argv: [String],
        environment: [String: String]? = nil,
        scheduling: Scheduling = .inherited,
        ownCgroup: Bool = false
    ) async throws(SpawnError) -> ChildProcess {
        let executable = argv.first ?? ""
        let outcome = await withCheckedContinuationFromAnyThread {
            (continuation: CheckedContinuation<Result<Spawned, SpawnError>, Never>) in
            do throws(ThreadStartError) {
                try HostThreads.start()
                try BlockingWorkThread.spawnThread().trySubmit {
                    continuation.resume(
                        returning: prepareAndSpawn(
                            argv: argv,
                            environment: environment,
                            scheduling: scheduling,
                            ownCgroup: ownCgroup
                        )
                    )
                }
            } catch {
                continuation.resume(
                    returning: .failure(SpawnError(stage: .startThread, executable: executable, errno: error.errno))
                )
            }
        }
        return try child(from: outcome, executable: executable, scheduling: scheduling)
    }

    /// `spawn`, blocking the caller until the blocking-work thread has spawned the child.
    ///
    /// For synchronous callers only: it parks the calling thread (a few hundred
    /// microseconds), which on the cooperative pool or the event loop stalls everything
    /// scheduled there. Prefer the `async` variant.
    package static func spawn(
        argv: [String],
        environment: [String: String]? = nil,
        scheduling: Scheduling = .inherited,
        ownCgroup: Bool = false
    ) throws(SpawnError) -> ChildProcess {
        let executable = argv.first ?? ""
        do {
            try HostThreads.start()
        } catch {
            throw SpawnError(stage: .startThread, executable: executable, errno: error.errno)
        }
        if BlockingWorkThread.spawns.contains(where: \.isCurrent) {
            return try child(
                from: prepareAndSpawn(
                    argv: argv,
                    environment: environment,
                    scheduling: scheduling,
                    ownCgroup: ownCgroup
                ),
                executable: executable,
                scheduling: scheduling
            )
        }
        let outcome = Locked<Result<Spawned, SpawnError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        do {
            try BlockingWorkThread.spawnThread().trySubmit {
                let result = prepareAndSpawn(
                    argv: argv,
                    environment: environment,
                    scheduling: scheduling,
                    ownCgroup: ownCgroup
                )
                outcome.withLock { $0 = result }
                done.signal()
            }
        } catch {
            throw SpawnError(stage: .startThread, executable: executable, errno: error.errno)
        }
        done.wait()
        return try child(from: outcome.withLock { $0! }, executable: executable, scheduling: scheduling)
    }

    private static func child(
        from outcome: Result<Spawned, SpawnError>,
        executable: String,
        scheduling: Scheduling
    ) throws(SpawnError) -> ChildProcess {
        switch outcome {
        case .success(let spawned):
            return ChildProcess(
                pid: spawned.pid,
                pidfd: spawned.pidfd,
                stdin: spawned.stdin,
                stdout: spawned.stdout,
                stderr: spawned.stderr,
                scheduling: scheduling,
                cgroup: spawned.cgroup
            )
        case .failure(var error):
            error.executable = executable
            throw error
        }
    }

    /// Everything of a spawn that touches the system (the `PATH` search included), on the
    /// blocking-work thread.
    private static func prepareAndSpawn(
        argv: [String],
        environment: [String: String]?,
        scheduling: Scheduling,
        ownCgroup: Bool
    ) -> Result<Spawned, SpawnError> {
        HostSignals.ignoreWriteSignals()
        guard let executable = argv.first else {
            return .failure(SpawnError(stage: .emptyArgumentList, executable: "", errno: EINVAL))
        }
        // `execve` takes C strings: an argument with a NUL would be cut short, and another
        // program run than the one asked for (a session file's argv, a library caller's).
        guard !argv.contains(where: { $0.utf8.contains(0) }) else {
            return .failure(SpawnError(stage: .nulInArgument, executable: executable, errno: EINVAL))
        }
        let searchPath = environment?["PATH"] ?? hostEnvironmentValue("PATH")
        let path: String
        do {
            path = try resolveExecutable(executable, searchPath: searchPath)
        } catch {
            return .failure(error)
        }
        return spawnOnCurrentThread(
            path: path,
            argv: argv,
            environment: childEnvironment(environment),
            scheduling: scheduling,
            cgroup: ownCgroup ? WorkerCgroup.make() : nil
        )
    }

    /// Host-side descriptors of a fresh child; plain numbers so they can cross threads.
    private struct Spawned: Sendable {
        package var pid: pid_t
        package var pidfd: Int32
        package var stdin: Int32
        package var stdout: Int32
        package var stderr: Int32
        package var cgroup: WorkerCgroup?
    }

    private static func spawnOnCurrentThread(
        path: String,
        argv: [String],
        environment: [String],
        scheduling: Scheduling,
        cgroup: WorkerCgroup?
    ) -> Result<Spawned, SpawnError> {
        func failure(_ stage: SpawnError.Stage, _ code: Int32) -> Result<Spawned, SpawnError> {
            .failure(SpawnError(stage: stage, executable: path, errno: code))
        }

        var opened: [Int32] = []
        func closeOpened() {
            for descriptor in opened { close(descriptor) }
        }

        // A (child end, host end) pair each for stdin, stdout and stderr.
        var ends: [(child: Int32, host: Int32)] = []
        for isInput in [true, false, false] {
            var fds: [Int32] = [-1, -1]
            guard csh_pipe_cloexec(&fds) == 0 else {
                let code = errno
                closeOpened()
                return failure(.createPipe, code)
            }
            opened += fds
            let pair = isInput ? (child: fds[0], host: fds[1]) : (child: fds[1], host: fds[0])
            ends.append(pair)
        }
        for index in ends.indices {
            // The worker expects blocking stdio; only the host's ends are non-blocking.
            let flags = fcntl(ends[index].host, F_GETFL)
            _ = fcntl(ends[index].host, F_SETFL, flags | O_NONBLOCK)
            // If the host runs with fd 0, 1 or 2 closed, pipe2 can hand those out, and a
            // child end that is already the dup2 target would keep O_CLOEXEC and vanish at exec.
            if ends[index].child < 3 {
                let moved = fcntl(ends[index].child, F_DUPFD_CLOEXEC, 3)
                guard moved >= 0 else {
                    let code = errno
                    closeOpened()
                    return failure(.createPipe, code)
                }
                opened.append(moved)
                ends[index].child = moved
            }
        }

        // Closed once the child is in (or the spawn failed); without it the spawn goes on,
        // and the child is contained by its process group alone.
        let cgroupProcs = cgroup?.openProcs() ?? -1
        defer { if cgroupProcs >= 0 { close(cgroupProcs) } }
        var pid: pid_t = 0
        let rc = path.withCString { pathPointer in
            withCStringArray(argv) { argvPointer in
                withCStringArray(environment) { environmentPointer in
                    csh_spawn(
                        &pid,
                        pathPointer,
                        argvPointer,
                        environmentPointer,
                        ends[0].child,
                        ends[1].child,
                        ends[2].child,
                        scheduling == .batch ? 1 : 0,
                        cgroupProcs
                    )
                }
            }
        }
        guard rc == 0 else {
            closeOpened()
            return failure(.spawn, rc)
        }

        let pidfd = csh_pidfd_open(pid, 0)
        guard pidfd >= 0 else {
            let code = errno
            // Without a pidfd nothing could ever reap or track it: take it down now.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            closeOpened()
            return failure(.openPidfd, code)
        }

        let hostEnds = Set(ends.map(\.host))
        for descriptor in opened where !hostEnds.contains(descriptor) {
            close(descriptor)
        }
        return .success(
            Spawned(
                pid: pid,
                pidfd: pidfd,
                stdin: ends[0].host,
                stdout: ends[1].host,
                stderr: ends[2].host,
                cgroup: cgroupProcs >= 0 ? cgroup : nil
            )
        )
    }

    /// execvp-style lookup, done up front so the error names the missing command.
    private static func resolveExecutable(
        _ executable: String,
        searchPath: String?
    ) throws(SpawnError) -> String {
        if executable.contains("/") { return executable }
        if executable.isEmpty {
            throw SpawnError(stage: .spawn, executable: executable, errno: ENOENT)
        }
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + executable
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        throw SpawnError(stage: .notFoundInPath, executable: executable, errno: ENOENT)
    }

    private static let hostPidVariable = "SCENEHOST_HOST_PID"

    /// `KEY=VALUE` strings for the child: the given or inherited environment plus the host pid.
    private static func childEnvironment(_ environment: [String: String]?) -> [String] {
        var strings: [String]
        if let environment {
            strings =
                environment
                .filter { $0.key != hostPidVariable }
                .map { "\($0.key)=\($0.value)" }
        } else {
            strings = hostEnvironmentStrings().filter { !$0.hasPrefix(hostPidVariable + "=") }
        }
        strings.append("\(hostPidVariable)=\(getpid())")
        return strings
    }

    private static func hostEnvironmentStrings() -> [String] {
        var strings: [String] = []
        guard var entry = csh_environ() else { return strings }
        while let string = entry.pointee {
            strings.append(String(cString: string))
            entry += 1
        }
        return strings
    }

    private static func hostEnvironmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A NULL-terminated `char *[]` valid for the duration of `body`.
    private static func withCStringArray<Result>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer {
            for pointer in pointers { free(pointer) }
        }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

// MARK: - Descriptor operations (callers hold the state lock)

extension ChildProcess {
    /// Writes as much of `bytes[start...]` as the pipe takes now; the count written (short on EAGAIN).
    package static func writeSome(
        from bytes: [UInt8],
        startingAt start: Int,
        to descriptor: Int32
    ) throws(ChildIOError) -> Int {
        let outcome: Result<Int, ChildIOError> = bytes.withUnsafeBytes { buffer in
            var written = 0
            let total = buffer.count - start
            while written < total {
                let result = Glibc.write(descriptor, buffer.baseAddress! + start + written, total - written)
                if result >= 0 {
                    written += result
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .success(written)
                case EPIPE: return .failure(.brokenPipe)
                case let code: return .failure(.failed(errno: code))
                }
            }
            return .success(written)
        }
        return try outcome.get()
    }

    package static func sendSignal(_ signal: Int32, toPidfd pidfd: Int32) throws(SignalError) {
        if csh_pidfd_send_signal(pidfd, signal) != 0 {
            let code = errno
            throw code == ESRCH ? .processExited : .failed(errno: code)
        }
    }
}

// MARK: - Reaping

extension ChildProcess {
    /// Collects the exit status once the pidfd reported readable; nil if the child still runs.
    /// Records the result so every later call (and `exitStatus`) sees it.
    package func reap() -> ChildExit? {
        state.withLock { descriptors in
            if let exit = descriptors.exit { return exit }
            guard descriptors.pidfd >= 0 else { return nil }
            descriptors.exit = Self.waitForExit(pidfd: descriptors.pidfd, block: false)
            return descriptors.exit
        }
    }

    /// A child nobody watches would stay a zombie forever (or run on unsupervised).
    package func reapIfNeverWatched() {
        state.withLock { descriptors in
            guard !descriptors.isWatched, descriptors.exit == nil, descriptors.pidfd >= 0 else { return }
            if let exit = Self.waitForExit(pidfd: descriptors.pidfd, block: false) {
                descriptors.exit = exit
                return
            }
            _ = csh_pidfd_send_signal(descriptors.pidfd, SIGKILL)
            descriptors.exit = Self.waitForExit(pidfd: descriptors.pidfd, block: true)
        }
    }

    private static func waitForExit(pidfd: Int32, block: Bool) -> ChildExit? {
        var kind: Int32 = 0
        var value: Int32 = 0
        let rc = csh_waitid_pidfd(pidfd, block ? 0 : WNOHANG, &kind, &value)
        guard rc == 0 else {
            // ECHILD: someone else reaped it (waitpid(-1), SIGCHLD ignored); the status is lost.
            return .exited(status: -1)
        }
        switch Int(kind) {
        case Int(CSH_WAIT_EXITED): return .exited(status: value)
        case Int(CSH_WAIT_SIGNALED): return .signaled(signal: value)
        default: return nil
        }
    }
}

// MARK: - /proc

extension ChildProcess {
    /// The `field` line of /proc/<pid>/<file>, in kB as the kernel prints it.
    package func procKilobytes(file: String, field: String) -> Int? {
        guard let text = ProcFile.text("/proc/\(pid)/\(file)") else { return nil }
        // Read first, then check the child was still unreaped: a reaped pid may already name
        // another process, and reaping only happens under this lock, so a successful check
        // proves the file we read was our child's.
        let stillOurs = state.withLock { descriptors in
            descriptors.exit == nil && descriptors.pidfd >= 0
                && csh_pidfd_send_signal(descriptors.pidfd, 0) == 0
        }
        guard stillOurs else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let number = line.dropFirst(field.count).drop { $0 == " " || $0 == "\t" }
                .prefix { $0.isASCII && $0.isNumber }
            return Int(number)
        }
        return nil
    }
}
