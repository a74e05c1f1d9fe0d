import CSceneHostSys
import Dispatch
import Glibc
import HostTools
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// Spawning and descriptors under load and at the limits.
extension PlatformTests {
    /// The spawn's child shares the host's descriptor table and unshares only its low end
    /// (Spawn.c): with thousands of descriptors open, none of them reaches the child, opened
    /// with close-on-exec or without, by either way of spawning.
    @Test(.serialized, arguments: [false, true]) func aChildOfAHostWithThousandsOfDescriptorsGetsOnlyItsStdio(
        posixSpawnOnly: Bool
    ) async throws {
        let sharesTable = csh_spawn_shares_descriptor_table() == 1
        // ThreadSanitizer takes the sharing child's clone for a fork: posix_spawn there.
        #expect(sharesTable != Self.underThreadSanitizer)
        var raised = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised)
        let extra = max(0, min(3_000, Int(raised.rlim_cur) - 1_000))
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for index in 0..<extra {
            // Half of them without close-on-exec, as code outside the host might open them.
            let descriptor = open("/dev/null", O_RDONLY | (index.isMultiple(of: 2) ? O_CLOEXEC : 0))
            guard descriptor >= 0 else { break }
            opened.append(descriptor)
        }
        csh_spawn_use_posix_spawn_only(posixSpawnOnly ? 1 : 0)
        defer { csh_spawn_use_posix_spawn_only(0) }
        let record = try await run(["/bin/ls", "-1", "/proc/self/fd"])
        #expect(record.stdoutText == "0\n1\n2\n3\n")
        #expect(csh_spawn_shares_descriptor_table() == (posixSpawnOnly || !sharesTable ? 0 : 1))
    }

    /// A batch child runs under SCHED_BATCH from the moment its spawn returns, by either way of
    /// spawning (the sharing child sets it before exec; posix_spawn's inherits it from the
    /// spawning thread, which takes it for the spawn);
    /// any other child keeps the host's policy, and what a batch child starts inherits it.
    @Test(.serialized, arguments: [false, true]) func aBatchChildRunsUnderSCHED_BATCHByEitherWayOfSpawning(
        posixSpawnOnly: Bool
    ) async throws {
        csh_spawn_use_posix_spawn_only(posixSpawnOnly ? 1 : 0)
        defer { csh_spawn_use_posix_spawn_only(0) }
        let batch = try await ChildProcess.spawn(
            argv: ["/bin/sh", "-c", "read line; awk '{ print $41 }' /proc/self/stat"],
            scheduling: .batch
        )
        let inherited = try await ChildProcess.spawn(argv: ["/bin/cat"])
        let batchEvents = events(of: batch)
        let inheritedEvents = events(of: inherited)
        #expect(batch.scheduling == .batch && inherited.scheduling == .inherited)
        #expect(sched_getscheduler(batch.pid) == schedBatch)
        #expect(sched_getscheduler(inherited.pid) == sched_getscheduler(0))
        try batch.writeToStdin(Array("go\n".utf8))
        inherited.closeStdin()
        let batchRecord = await record(batchEvents)
        #expect(batchRecord.exit == .exited(status: 0))
        #expect(batchRecord.stdoutText == "\(schedBatch)\n")  // awk, a grandchild of the spawn
        #expect(await record(inheritedEvents).exit == .exited(status: 0))
    }

    /// Whether ThreadSanitizer's runtime is in this process (asked of the dynamic linker, not
    /// of the C target's own build flags).
    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    @Test func environmentCarriesTheHostPid() async throws {
        let inherited = try await run(["/bin/sh", "-c", "echo $SCENEHOST_HOST_PID $PATH"])
        let path = String(cString: getenv("PATH"))
        #expect(inherited.stdoutText == "\(getpid()) \(path)\n")

        let explicit = try await run(
            ["/bin/sh", "-c", "echo $SCENEHOST_HOST_PID $FOO ${HOME:-unset}"],
            environment: ["FOO": "bar", "SCENEHOST_HOST_PID": "1"]
        )
        #expect(explicit.stdoutText == "\(getpid()) bar unset\n")
    }

    @Test func missingExecutableFailsWithoutLeaking() throws {
        expectDescriptorCountUnchanged {
            let error = #expect(throws: SpawnError.self) {
                try ChildProcess.spawn(argv: ["/nope/definitely-missing"])
            }
            #expect(error?.errno == ENOENT)
            #expect(error?.stage == .spawn)
            #expect(error?.description == #"cannot spawn "/nope/definitely-missing": No such file or directory"#)
        }
        expectDescriptorCountUnchanged {
            #expect(throws: SpawnError.self) { try ChildProcess.spawn(argv: ["/etc/passwd"]) }  // EACCES
        }

        let lookup = #expect(throws: SpawnError.self) {
            try ChildProcess.spawn(argv: ["scenehost-no-such-command"])
        }
        #expect(lookup?.stage == .notFoundInPath)
        #expect(lookup?.description == #"cannot spawn "scenehost-no-such-command": not found in PATH"#)
        #expect(throws: SpawnError.self) { try ChildProcess.spawn(argv: []) }
        // execve would cut the argument at the NUL, and run /bin/true: refused at the one
        // place every argv (a scenario's, a session file's, a library caller's) goes through.
        let nul = #expect(throws: SpawnError.self) { try ChildProcess.spawn(argv: ["/bin/true\u{0}x"]) }
        #expect(nul?.stage == .nulInArgument)
        #expect(nul?.description.contains("an argument holds a NUL character") == true)
    }

    @Test func fiftySpawnReapCyclesLeakNoDescriptor() async throws {
        var used: Set<FileIdentity> = []
        for _ in 0..<50 {
            let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", "echo x; echo y >&2"])
            let files = files(of: child)
            #expect(files.count >= 3)
            used.formUnion(files)
            let record = await record(events(of: child))
            #expect(record.exit == .exited(status: 0))
            #expect(record.stdoutText == "x\n" && record.stderrText == "y\n")
        }
        // Every pipe end and pidfd of all 50 children is closed.
        #expect(openFiles().isDisjoint(with: used))
    }

    @Test func unwatchedChildIsKilledAndReapedOnRelease() throws {
        var child: ChildProcess? = try ChildProcess.spawn(argv: ["/bin/sleep", "100"])
        let pid = child!.pid
        let used = files(of: child!)
        child = nil
        #expect(openFiles().isDisjoint(with: used))
        // Reaped: not even a zombie is left.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func writingToADeadChildIsABrokenPipe() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", "exit 0"])
        #expect(await record(events(of: child)).exit == .exited(status: 0))
        #expect(throws: ChildIOError.brokenPipe) { try child.writeToStdin(Array("late\n".utf8)) }
    }

    @Test func writingAfterTheChildClosedStdinIsABrokenPipe() async throws {
        // The child is alive but has closed its stdin: the write itself hits EPIPE.
        let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", "exec 0<&-; echo ready; exec sleep 100"])
        var iterator = events(of: child).makeAsyncIterator()
        #expect(await iterator.next() == .stdout(Array("ready\n".utf8)))
        #expect(throws: ChildIOError.brokenPipe) { try child.writeToStdin(Array("hello\n".utf8)) }
        // Living on without its stdin is not exiting (the host kills it as a violation).
        #expect(!child.isExiting)
        try child.send(signal: SIGSTOP)
        #expect(!child.isExiting)
        try child.send(signal: SIGKILL)
        while let event = await iterator.next() {
            if case .exit(let exit) = event { #expect(exit == .signaled(signal: SIGKILL)) }
        }
        #expect(child.isExiting)
    }

    /// /proc/PID/stat's state and flags (the ninth field): a zombie, a dead task, or
    /// PF_EXITING (0x4) is exiting; a comm with spaces and parentheses does not shift the
    /// fields.
    @Test func theStatLineSaysWhetherAProcessIsExiting() {
        func exiting(_ line: String) -> Bool { ProcessStat(line)?.isExiting ?? false }
        #expect(!exiting("42 (sh) S 1 42 42 0 -1 4194560 120 0 0 0"))
        #expect(!exiting("42 (sh) T 1 42 42 0 -1 4194560 120 0 0 0"))
        #expect(exiting("42 (sh) R 1 42 42 0 -1 4194564 120 0 0 0"))
        #expect(exiting("42 (sh) Z 1 42 42 0 -1 4227076 120 0 0 0"))
        #expect(exiting("42 (sh) X 1 42 42 0 -1 0 120 0 0 0"))
        #expect(!exiting("42 (a) (b c) S 1 42 42 0 -1 4194560 120 0 0 0"))
        #expect(exiting("42 (a) (b c) D 1 42 42 0 -1 4194564 120 0 0 0"))
        #expect(!exiting("42 (sh) S 1 42"))
        #expect(!exiting("garbage"))
        #expect(
            ProcessStat("42 (a) (b c) S 1 7 9 0 -1 4194560")
                == ProcessStat(pid: 42, state: UInt8(ascii: "S"), processGroup: 7, session: 9, flags: 4_194_560)
        )
    }

    @Test func aWorkerThatDoesNotReadFillsABoundedBacklogAndNoWriteIsCutShort() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/sleep", "100"])
        let stream = events(of: child)
        // Far more than the pipe holds: the rest waits in the backlog.
        try child.writeToStdin([UInt8](repeating: 0x61, count: 4 << 20))
        let error = #expect(throws: ChildIOError.self) {
            try child.writeToStdin([UInt8](repeating: 0x62, count: ChildProcess.maximumStdinBacklog))
        }
        guard case .backlogFull(let queued)? = error else {
            Issue.record("expected backlogFull, got \(String(describing: error))")
            return
        }
        #expect(queued > 0 && queued < 4 << 20)
        // A write that fits is still taken whole.
        try child.writeToStdin([0x63])

        child.closeStdin()
        #expect(throws: ChildIOError.closed) { try child.writeToStdin([0x62]) }
        try child.send(signal: SIGTERM)
        #expect(await record(stream).exit == .signaled(signal: SIGTERM))
    }

    @Test func memoryFiguresAreReadWhileAliveAndNilAfterExit() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/cat"])
        let stream = events(of: child)
        #expect((child.residentMemoryBytes() ?? 0) > 0)
        #expect((child.proportionalSetSizeBytes() ?? 0) > 0)
        child.closeStdin()
        #expect(await record(stream).exit == .exited(status: 0))
        #expect(child.residentMemoryBytes() == nil)
        #expect(child.proportionalSetSizeBytes() == nil)
    }

    @Test func concurrentSpawnsFromManyTasks() async throws {
        try await withThrowingTaskGroup(of: ChildRecord.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let child = try await ChildProcess.spawn(argv: ["/bin/cat"])
                    let stream = events(of: child)
                    try child.writeToStdin(Array("task \(index)\n".utf8))
                    child.closeStdin()
                    var record = await record(stream)
                    record.stderr = Array("task \(index)\n".utf8)  // the expected output
                    return record
                }
            }
            for try await record in group {
                #expect(record.exit == .exited(status: 0))
                #expect(record.stdout == record.stderr)
            }
        }
    }

    @Test func signalNamesRoundTrip() {
        for number in Int32(1)...31 {
            #expect(SignalNames.number(named: SignalNames.name(of: number)) == number)
            #expect(SignalNames.number(named: "SIG" + SignalNames.name(of: number)) == number)
        }
        #expect(SignalNames.name(of: SIGKILL) == "KILL")
        #expect(SignalNames.name(of: SIGTERM) == "TERM")
        #expect(SignalNames.name(of: SIGSEGV) == "SEGV")
        #expect(SignalNames.name(of: 40) == "40")
        for spelling in ["KILL", "SIGKILL", "kill", "sigkill", "9", " Kill "] {
            #expect(SignalNames.number(named: spelling) == SIGKILL, "\(spelling)")
        }
        #expect(SignalNames.number(named: "IOT") == SIGABRT)
        #expect(SignalNames.number(named: "40") == 40)
        for bogus in ["", "SIG", "BOGUS", "0", "65", "-9", "9x"] {
            #expect(SignalNames.number(named: bogus) == nil, "\(bogus)")
        }
    }

    @Test func ignoringSIGPIPEIsIdempotent() {
        HostSignals.ignoreWriteSignals()
        HostSignals.ignoreWriteSignals()
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        #expect(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1)  // SIG_IGN
    }
}
