import CSceneHostSys
import Dispatch
import HostTools
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// What the event loop reported for one child, in delivery order.
enum ChildEvent: Sendable, Hashable {
    case stdout([UInt8])
    case stderr([UInt8])
    case exit(ChildExit)
}

/// Everything a child produced, gathered from its events.
struct ChildRecord {
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    var exit: ChildExit?
    var events: [ChildEvent] = []

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Watches `child` and turns the handlers into a stream that finishes after the exit.
func events(of child: ChildProcess) -> AsyncStream<ChildEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: ChildEvent.self)
    EventLoop.shared.watch(
        child,
        onStdout: { continuation.yield(.stdout(Array($0))) },
        onStderr: { continuation.yield(.stderr(Array($0))) },
        onExit: {
            continuation.yield(.exit($0))
            continuation.finish()
        }
    )
    return stream
}

func record(_ stream: AsyncStream<ChildEvent>) async -> ChildRecord {
    var record = ChildRecord()
    for await event in stream {
        record.events.append(event)
        switch event {
        case .stdout(let bytes): record.stdout += bytes
        case .stderr(let bytes): record.stderr += bytes
        case .exit(let exit): record.exit = exit
        }
    }
    return record
}

/// Spawns, watches and waits for the exit.
func run(_ argv: [String], environment: [String: String]? = nil) async throws -> ChildRecord {
    let child = try await ChildProcess.spawn(argv: argv, environment: environment)
    return await record(events(of: child))
}

/// The file behind a descriptor: pipes and (on kernels with pidfs) pidfds have an inode
/// of their own that is not recycled, so unlike a descriptor number or a descriptor count it
/// identifies them even while other tests in this process open and close descriptors.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The files this process has open right now.
func openFiles() -> Set<FileIdentity> {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var files: Set<FileIdentity> = []
    while let entry = readdir(directory) {
        let name = directoryEntryName(entry)
        if let file = FileIdentity(path: "/proc/self/fd/\(name)") { files.insert(file) }
    }
    return files
}

/// The files behind `child`'s descriptors; read before the event loop can close any of them.
func files(of child: ChildProcess) -> Set<FileIdentity> {
    let descriptors = child.state.withLock { [$0.stdin, $0.stdout, $0.stderr, $0.pidfd] }
    var files = Set(descriptors.dropLast().compactMap { FileIdentity(descriptor: $0) })
    // Before pidfs (Linux 6.9) every pidfd shares one anonymous inode: not an identity.
    let ownPidfd = csh_pidfd_open(getpid(), 0)
    defer { close(ownPidfd) }
    if let pidfd = FileIdentity(descriptor: descriptors[3]), pidfd != FileIdentity(descriptor: ownPidfd) {
        files.insert(pidfd)
    }
    return files
}

func openDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
}

/// Runs `body` until the number of open descriptors is the same before and after.
///
/// Other suites in this test process may open descriptors concurrently, so one mismatch
/// proves nothing; a leak mismatches on every attempt. Only for quick bodies: a long one may
/// never find a quiet moment.
func expectDescriptorCountUnchanged(_ body: () throws -> Void) rethrows {
    var counts: [(before: Int, after: Int)] = []
    for _ in 0..<100 {
        let before = openDescriptorCount()
        try body()
        let after = openDescriptorCount()
        if before == after { return }
        counts.append((before, after))
    }
    Issue.record("descriptor count changed on every attempt: \(counts.prefix(5))…")
}

/// Runs `body` on a fresh OS thread and returns once that thread has been joined.
func runOnThrowawayThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let rc = pthread_create(
        &thread,
        nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        },
        context
    )
    precondition(rc == 0)
    pthread_join(thread, nil)
}

/// Starts `argv` directly with posix_spawn on the calling thread (stdout into `stdoutFD`),
/// bypassing the blocking-work thread on purpose.
func spawnOnThisThread(_ argv: [String], stdoutFD: Int32) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
    var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    var environment: [UnsafeMutablePointer<CChar>?] = [nil]
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, argv[0], &actions, nil, &pointers, &environment)
    precondition(rc == 0, "posix_spawn: \(rc)")
    return pid
}

@Suite(.serialized, .timeLimit(.minutes(5)))
struct PlatformTests {
    @Test func writesLargerThanThePipeArriveWholeAndInOrder() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/cat"])
        var iterator = events(of: child).makeAsyncIterator()
        // Three frames of 256 KiB each, four times the 64 KiB pipe, written back to back
        // while cat is still busy with the first: the backlog carries them in order. (Small
        // enough to stay cheap in a debug build on a loaded machine.)
        var sent: [UInt8] = []
        for chunk in 0..<3 {
            let frame = (0..<(1 << 18)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ chunk) }
            try child.writeToStdin(frame)
            sent += frame
        }
        var received: [UInt8] = []
        while received.count < sent.count, let event = await iterator.next() {
            if case .stdout(let bytes) = event { received += bytes }
        }
        #expect(received == sent)
        child.closeStdin()
        while let event = await iterator.next() {
            if case .exit(let exit) = event { #expect(exit == .exited(status: 0)) }
        }
    }

    @Test func catEchoesStdinToStdout() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/cat"])
        var iterator = events(of: child).makeAsyncIterator()
        try child.writeToStdin(Array("hello, scene\n".utf8))

        var received: [UInt8] = []
        while received.count < 13, let event = await iterator.next() {
            guard case .stdout(let bytes) = event else {
                Issue.record("unexpected \(event)")
                return
            }
            received += bytes
        }
        #expect(String(decoding: received, as: UTF8.self) == "hello, scene\n")

        child.closeStdin()
        child.closeStdin()
        var exit: ChildExit?
        while let event = await iterator.next() {
            if case .exit(let value) = event { exit = value }
        }
        #expect(exit == .exited(status: 0))
        #expect(child.exitStatus == .exited(status: 0))
    }

    /// A batch child's answer is read as soon as the loop has yielded to it, before epoll
    /// reports it (`EventLoop.yieldBeforeNextPoll`): every answer still arrives once, whole
    /// and in order, request after request.
    @Test func aBatchChildsAnswersReadAheadOfEpollArriveOnceAndInOrder() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/cat"], scheduling: .batch)
        var iterator = events(of: child).makeAsyncIterator()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        for index in 0..<300 {
            let line = Array("answer \(index)\n".utf8)
            expected += line
            try child.writeToStdin(line)
            while received.count < expected.count, let event = await iterator.next() {
                guard case .stdout(let bytes) = event else {
                    Issue.record("unexpected \(event)")
                    return
                }
                received += bytes
            }
            guard received == expected else { break }
        }
        #expect(String(decoding: received, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        child.closeStdin()
        while let event = await iterator.next() {
            if case .stdout(let bytes) = event {
                Issue.record("more than was asked: \(String(decoding: bytes, as: UTF8.self))")
            }
            if case .exit(let exit) = event { #expect(exit == .exited(status: 0)) }
        }
    }

    /// A batch child that exits on reading its request: the loop's read-ahead finds EOF,
    /// closes nothing (the ordinary path does, on epoll's report), and the exit and the last
    /// words are each reported once.
    @Test func aBatchChildThatExitsOnItsRequestIsReportedOnce() async throws {
        for round in 0..<20 {
            let child = try await ChildProcess.spawn(
                argv: ["/bin/sh", "-c", "read line; echo \"bye $line\""],
                scheduling: .batch
            )
            let stream = events(of: child)
            try child.writeToStdin(Array("\(round)\n".utf8))
            let record = await record(stream)
            #expect(record.stdoutText == "bye \(round)\n")
            #expect(record.events.filter { if case .exit = $0 { true } else { false } }.count == 1)
            #expect(record.events.last == .exit(.exited(status: 0)))
        }
    }

    @Test func outputArrivesBeforeExit() async throws {
        let record = try await run(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(record.stdoutText == "out\n")
        #expect(record.stderrText == "err\n")
        #expect(record.exit == .exited(status: 3))
        #expect(record.events.last == .exit(.exited(status: 3)))
    }

    @Test func largeOutputOfAFastExitIsDeliveredCompletely() async throws {
        // More than a pipe buffer, written just before exiting.
        let record = try await run(["/bin/sh", "-c", "head -c 300000 /dev/zero; exit 0"])
        #expect(record.stdout.count == 300_000)
        #expect(record.exit == .exited(status: 0))
    }

    @Test func sigkillThroughPidfdIsReportedPromptly() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/sleep", "100"])
        let stream = events(of: child)
        let start = ContinuousClock.now
        try child.send(signal: SIGKILL)
        let record = await record(stream)
        #expect(record.exit == .signaled(signal: SIGKILL))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(throws: SignalError.processExited) { try child.send(signal: SIGTERM) }
    }

    @Test func exitIsReportedWhileAGrandchildHoldsThePipes() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/sh", "-c", "sleep 100 & exit 0"])
        let record = await record(events(of: child))
        #expect(record.exit == .exited(status: 0))
        // The background sleep stayed in the child's group, which lives on (its id cannot be
        // reused) while the sleep does, although the child is reaped: take it down.
        _ = Glibc.kill(-child.pid, SIGKILL)
    }

    @Test func childStartsWithEmptySignalMaskAndDefaultDispositions() async throws {
        var blockTerm = sigset_t()
        sigemptyset(&blockTerm)
        sigaddset(&blockTerm, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blockTerm, &previous)
        let spawned = Result { () throws(SpawnError) in
            try ChildProcess.spawn(argv: ["grep", "-E", "^Sig(Blk|Ign):", "/proc/self/status"])
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)

        let record = await record(events(of: try spawned.get()))
        #expect(record.exit == .exited(status: 0))
        let lines = record.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines == ["SigBlk:\t0000000000000000", "SigIgn:\t0000000000000000"])
    }

    @Test func childLeadsItsOwnProcessGroup() async throws {
        let child = try await ChildProcess.spawn(argv: ["/bin/cat"])
        let stream = events(of: child)
        #expect(getpgid(child.pid) == child.pid)
        #expect(getpgid(child.pid) != getpgrp())
        child.closeStdin()
        #expect(await record(stream).exit == .exited(status: 0))
    }

    @Test func workerOutlivesTheThreadThatAskedForIt() async throws {
        // Both processes arm PR_SET_PDEATHSIG like real workers, then the thread that asked
        // for them exits. The canary is that thread's own child and must die; the worker was
        // spawned on the blocking-work thread and must live on.
        let armed = ["/bin/sh", "-c", "echo armed; exec \"$0\" \"$@\""]
        let pdeathsig = ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"]
        let (workerEvents, continuation) = AsyncStream.makeStream(of: ChildEvent.self)
        let workerArmed = DispatchSemaphore(value: 0)
        let outcome = Locked<(worker: ChildProcess, canary: pid_t)?>(nil)

        runOnThrowawayThread {
            let worker = try! ChildProcess.spawn(argv: pdeathsig + armed + ["/bin/cat"])
            EventLoop.shared.watch(
                worker,
                onStdout: {
                    continuation.yield(.stdout(Array($0)))
                    workerArmed.signal()
                },
                onStderr: { continuation.yield(.stderr(Array($0))) },
                onExit: {
                    continuation.yield(.exit($0))
                    continuation.finish()
                }
            )

            var canaryPipe: [Int32] = [-1, -1]
            precondition(csh_pipe_cloexec(&canaryPipe) == 0)
            let canary = spawnOnThisThread(pdeathsig + armed + ["/bin/sleep", "100"], stdoutFD: canaryPipe[1])
            close(canaryPipe[1])
            var line = [UInt8](repeating: 0, count: 16)
            _ = read(canaryPipe[0], &line, line.count)
            close(canaryPipe[0])

            workerArmed.wait()
            outcome.withLock { $0 = (worker, canary) }
        }
        let (worker, canaryPID) = try #require(outcome.withLock { $0 })

        // The canary's death proves the kernel has processed the thread's exit, and with it
        // every parent-death signal it was going to send.
        let canary = ChildProcess(
            pid: canaryPID,
            pidfd: csh_pidfd_open(canaryPID, 0),
            stdin: -1,
            stdout: -1,
            stderr: -1,
            scheduling: .inherited
        )
        #expect(await record(events(of: canary)).exit == .signaled(signal: SIGKILL))

        var iterator = workerEvents.makeAsyncIterator()
        #expect(await iterator.next() == .stdout(Array("armed\n".utf8)))
        try worker.writeToStdin(Array("still here\n".utf8))
        #expect(await iterator.next() == .stdout(Array("still here\n".utf8)))
        worker.closeStdin()
        #expect(await iterator.next() == .exit(.exited(status: 0)))
    }

    @Test func childInheritsOnlyStdio() async throws {
        // ls opens the directory itself: that is fd 3.
        let record = try await run(["/bin/ls", "-1", "/proc/self/fd"])
        #expect(record.stdoutText == "0\n1\n2\n3\n")
    }
}
