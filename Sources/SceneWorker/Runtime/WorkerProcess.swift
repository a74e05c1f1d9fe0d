import CSceneHostSys
import Protocol

#if canImport(Glibc)
import Glibc
#endif

/// The worker's run loop, on the main thread (the scene's main thread): blocking reads of
/// stdin into a `FrameDecoder`, each frame handed to a `WorkerSession`, and everything the
/// frames of one read produced written back in one batch. Between requests it runs the work
/// the app queued on its main queue (`Task { @MainActor in … }`, `DispatchQueue.main.async`),
/// as a run loop's turn would, and writes what that work did (app changes) at once.
@MainActor
enum WorkerProcess {
    /// The size of one read(2).
    static let readSize = 64 * 1024

    static func run(app: WorkerApp, faults: FaultPlan) -> Never {
        prepareProcess(faults: faults)
        // First, before anything queues work on the main queue. Without its eventfd (none
        // given), main-queue work runs only as requests come.
        let wakeError = csh_main_queue_wake_start()
        if wakeError != 0 {
            let message =
                "scenehost worker: main-queue work runs only with host requests: \(String(cString: strerror(wakeError)))\n"
            _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        }
        let output = OutputWriter(fileDescriptor: protocolOutput())
        // Before the real session: the rehearsal's throwaway one is then no longer the shared
        // application's.
        WorkerWarmup.runIfIdle()
        let session = WorkerSession(app: app, pid: getpid())

        var decoder = FrameDecoder()
        var garbagePending = faults.garbageAfterHandshake
        // Made at the first tagged frame: the host runs several scenes of one app here.
        let appProcessSlot = AppProcessSlot()
        let outputs = SessionOutputs(
            drain: {
                if let appProcess = appProcessSlot.process {
                    appProcess.drain(into: output)
                } else {
                    output.take(from: session.sink, foldingReplies: session.hostReadsFoldedReplies)
                }
            },
            exitStatus: { appProcessSlot.process?.exitStatus ?? session.exitStatus },
            forEachSession: { body in
                body(session)
                appProcessSlot.process?.forEachMember(body)
            },
            isSuspendable: { appProcessSlot.process?.isSuspendable ?? session.isSuspendable }
        )
        installFaults(faults, session: session, drain: outputs.drain, output: output)
        writesRecordedOutputAtExit(outputs: outputs, output: output)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        while true {
            let count = readSome(
                into: buffer,
                session: session,
                output: output,
                outputs: outputs,
                runLoopTurn: app.runLoopTurn
            )
            if count == 0 {
                // EOF: the host closed our stdin (or is gone). Any unterminated tail is dropped.
                output.flush()
                exit(0)
            }
            // Each frame is handled where it lies in the read buffer; the loop stops at the
            // frame after which the session exits.
            let readEnd = buffer.baseAddress! + count
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { piece in
                switch piece {
                case .frame(let frame):
                    if SceneTag.isTagged(frame) {
                        let process =
                            appProcessSlot.process
                            ?? WorkerAppProcess(primary: session) { scene in
                                installFaults(faults, session: scene, drain: outputs.drain, output: output)
                            }
                        appProcessSlot.process = process
                        if !process.handleTaggedFrame(frame) { session.handleFrame(frame) }
                    } else {
                        session.handleFrame(frame)
                    }
                case .oversized(let length):
                    session.handleOversizedFrame(length: length)
                }
                outputs.drain()
                if garbagePending, session.phase == .running {
                    garbagePending = false
                    output.appendRaw(FaultPlan.garbageLine.utf8)
                }
                guard outputs.exitStatus() == nil else { return false }
                // More frames wait in this read (the host wrote several at once): what the
                // frame just handled queued on the main queue runs before the next, as on a
                // device, where it runs before the next event. (A lone request, the usual
                // case, ends the read: `readSome` runs the work before the next read.)
                // (A frame finished from an earlier read's bytes lies in the decoder's own
                // buffer: more may follow it in this one.)
                if case .frame(let frame) = piece, let start = frame.baseAddress,
                    start < buffer.baseAddress! || start >= readEnd || start + frame.count + 1 < readEnd,
                    csh_main_queue_take_signal() != 0
                {
                    output.flush()
                    runMainQueueWork(outputs: outputs, output: output)
                }
                return true
            }
            output.flush()
            if let status = outputs.exitStatus() {
                exit(status)
            }
        }
    }

    /// What writes, when app code calls `exit()` on the main thread (in a callback, a
    /// main-queue block, a timer), what the request recorded before it: the callbacks that
    /// ran, as on a device, where they ran before the app ended. Set once, on the main
    /// thread, before any app code runs; read by `writeRecordedOutputAtExit`.
    fileprivate nonisolated(unsafe) static var flushAtExit: (@MainActor () -> Void)?
    /// The worker's pid: a process app code forked has its own, and writes nothing.
    fileprivate nonisolated(unsafe) static var workerPID: pid_t = 0
    /// Set once the exit handler ran (an exit from inside it must not run it again).
    fileprivate nonisolated(unsafe) static var flushingAtExit = false

    /// Registers the exit handler that writes what the sessions recorded (`flushAtExit`).
    /// Only the worker's main thread's exit writes: another thread's runs while the main
    /// thread may be in the middle of recording, and what it recorded is left unsent; a
    /// forked child's copy of the buffers is not its to send. A crash writes nothing either:
    /// no code of the worker's runs in a crashed process.
    private static func writesRecordedOutputAtExit(outputs: SessionOutputs, output: OutputWriter) {
        flushAtExit = {
            outputs.drain()
            output.flush()
        }
        workerPID = getpid()
        atexit(writeRecordedOutputAtExit)
    }

    /// Parent-death signal, the host-pid check, SIGPIPE (and SIGTERM if asked) ignored.
    private static func prepareProcess(faults: FaultPlan) {
        _ = csh_set_parent_death_signal(SIGKILL)
        if let value = getenv("SCENEHOST_HOST_PID"), let hostPID = Int32(String(cString: value)),
            getppid() != hostPID, kill(hostPID, 0) != 0, errno == ESRCH
        {
            // The host died before we could ask to die with it. (A parent other than the
            // host with the host alive is a launcher that did not exec, `sh -c` or `timeout`:
            // the death signal then follows the launcher, and stdin's EOF the host.)
            exit(1)
        }
        // The group dies with us even if the host was SIGKILLed: a group a host made for us.
        // Run by hand (`hostctl worker | consumer` in a job-control shell) the worker may
        // lead a group that is the user's pipeline, not ours to kill.
        if getenv("SCENEHOST_HOST_PID") != nil { _ = csh_start_group_sentinel() }
        signal(SIGPIPE, SIG_IGN)
        if faults.ignoreSIGTERM {
            signal(SIGTERM, SIG_IGN)
        }
    }

    /// Moves the protocol stream to a private descriptor and points fd 1 at stderr, so that
    /// `print` in app code cannot corrupt the protocol. Returns the protocol descriptor.
    private static func protocolOutput() -> Int32 {
        let descriptor = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard descriptor >= 0 else { return 1 }
        guard dup2(2, 1) >= 0 else {
            close(descriptor)
            return 1
        }
        // Line by line, as a terminal would take it: what `sceneDidEnterBackground` prints is
        // there before the worker is suspended or killed.
        _ = csh_line_buffer_stdout()
        return descriptor
    }

    /// Whether the main thread may wait for a request in a plain `read` (see `readSome`):
    /// false for good once stdin turned out non-blocking.
    private static var waitsInRead = true

    /// Reads at least one byte, or returns 0 at EOF (a read error counts as EOF). Runs the
    /// main queue's work first whenever some waits, and while it waits for a request.
    private static func readSome(
        into buffer: UnsafeMutableRawBufferPointer,
        session: WorkerSession,
        output: OutputWriter,
        outputs: SessionOutputs,
        runLoopTurn: (@MainActor @Sendable () -> Int32?)?
    ) -> Int {
        // Whether main-queue work may be waiting: whenever the wait said so. Work queued while
        // a request ran made the eventfd readable as well, so the common turn, a request and
        // no work, costs no look at the main queue. Without the eventfd it always may.
        var workMayWait = csh_main_queue_is_watched() == 0
        // The frames just handled ran app code.
        outputs.forEachSession { $0.backgroundTimers.appCodeRan() }
        var turnedForDueTimer = false
        // Whether the main queue's work ran in this call: work the frames just handled queued
        // runs before the next request, as on a device; after one run, a waiting request goes
        // first, so that work that queues more for ever still lets the host be served.
        var ranWork = false
        while true {
            if workMayWait {
                workMayWait = false
                ranWork = true
                runMainQueueWork(outputs: outputs, output: output)
            }
            // The app's run loop: due timers fire (their app changes are written at once), and
            // the wait ends when the next one is due. A timer that fires while the worker is
            // stopped fires late, on resume, as a suspended app's does.
            var timeout: Int32 = -1
            if let runLoopTurn {
                outputs.forEachSession { $0.beginMainQueueTurn() }
                let next = runLoopTurn()
                let now = BackgroundTimerWatch.now()
                // A device suspends the app, not a window: an app process's whole app.
                let suspendable = outputs.isSuspendable()
                outputs.forEachSession {
                    $0.backgroundTimers.turned(at: now, nextInMilliseconds: next, suspendable: suspendable)
                }
                timeout = next ?? -1
                outputs.drain()
                output.flush()
                if let status = outputs.exitStatus() { exit(status) }
            }
            // Only this thread can queue main-queue work, and no timer is due: what it queued
            // is there now or never. One look at the main queue (`csh_main_queue_take_signal`:
            // at the queue itself, no system call, where the launch's probe found it; else at
            // its eventfd, without waiting), then a plain blocking read of stdin, as the echo
            // child's: a `poll` of both descriptors cost a third of a microsecond more per
            // request on one CPU.
            if timeout < 0, waitsInRead, csh_main_queue_is_watched() != 0, csh_only_thread() != 0 {
                if csh_main_queue_take_signal() == 0 {
                    let count = read(0, buffer.baseAddress, buffer.count)
                    if count >= 0 { return count }
                    switch errno {
                    case EINTR: continue
                    // A non-blocking stdin (app code set it so): from now on, `poll` waits.
                    case EAGAIN, EWOULDBLOCK: waitsInRead = false
                    default: return 0
                    }
                } else if !ranWork {
                    // Work the frames queued runs before the next request (`ranWork`).
                    workMayWait = true
                    continue
                }
            }
            // Once the work ran, a request and more work both waiting: the request first (the
            // work runs next turn), so an app whose main-queue work queues more for ever still
            // serves the host.
            let ready = csh_main_queue_wait(0, timeout)
            if ready < 0 { return 0 }
            if ready & 2 != 0 {
                workMayWait = true
                if !ranWork { continue }
            }
            guard ready & 1 != 0 else { continue }
            // A timer that came due while the worker was stopped fires before the request
            // that resumed it, in the state the app was stopped in: a device resumes a
            // suspended app in the background before it brings it forward.
            if runLoopTurn != nil, !turnedForDueTimer, session.backgroundTimers.isDue(at: BackgroundTimerWatch.now()) {
                turnedForDueTimer = true
                continue
            }
            let count = read(0, buffer.baseAddress, buffer.count)
            if count >= 0 {
                return count
            }
            switch errno {
            case EINTR, EAGAIN, EWOULDBLOCK:
                continue
            default:
                return 0
            }
        }
    }

    /// Runs the main queue's pending work (if any: one run, what was queued so far), then
    /// writes what it recorded; exits if it ended the process.
    private static func runMainQueueWork(outputs: SessionOutputs, output: OutputWriter) {
        // Main-queue work is no scene's request: every scene's turn begins (in an app process
        // the block may change any of its windows).
        outputs.forEachSession { $0.beginMainQueueTurn() }
        guard csh_main_queue_run_pending() != 0 else { return }
        outputs.forEachSession { $0.backgroundTimers.appCodeRan() }
        outputs.drain()
        output.flush()
        if let status = outputs.exitStatus() {
            exit(status)
        }
    }

    /// Where the run loop keeps the app process its first tagged frame makes, read by the
    /// closures of `SessionOutputs` on every request. A class property, not a captured `var`:
    /// the runtime's exclusivity check on a captured variable cost about 100 instructions per
    /// access, three accesses a request. Set once, on the main thread; only read afterwards.
    final class AppProcessSlot {
        @exclusivity(unchecked) var process: WorkerAppProcess?
    }

    /// How the run loop writes what the sessions recorded, and learns that one of them ends
    /// the process: the process's one session's, or every scene's of an app process.
    struct SessionOutputs {
        let drain: @MainActor () -> Void
        let exitStatus: @MainActor () -> Int32?
        /// Every session of the process: its one session, or the handshake's and each scene's.
        let forEachSession: @MainActor ((WorkerSession) -> Void) -> Void
        /// Whether a device could suspend the app now (`WorkerAppProcess.isSuspendable`).
        let isSuspendable: @MainActor () -> Bool
    }

    /// `--hang-in` / `--crash-in`: act inside the named callback, once everything before it
    /// (the callback's own report included) is written. In an app process, every scene's
    /// session gets them (`drain` writes each scene's messages with its tag).
    private static func installFaults(
        _ faults: FaultPlan,
        session: WorkerSession,
        drain: @escaping @MainActor () -> Void,
        output: OutputWriter
    ) {
        guard faults.hangIn != nil || faults.crashIn != nil else { return }
        session.sink.onCallback = { event in
            if event.name == faults.crashIn {
                drain()
                output.flush()
                exit(FaultPlan.crashStatus)
            }
            if event.name == faults.hangIn {
                drain()
                output.flush()
                while true {
                    pause()
                }
            }
        }
    }
}

/// The worker's exit handler (`WorkerProcess.writesRecordedOutputAtExit`): a plain function,
/// not a closure of the main actor's, so that an exit from any thread runs it without an
/// isolation check, and it decides itself. Not while the worker is writing already (an exit
/// from inside a write, its own on a closed pipe, or a signal handler's): that write's bytes
/// would be sent twice.
private func writeRecordedOutputAtExit() {
    let pid = WorkerProcess.workerPID
    guard pid != 0, getpid() == pid, csh_gettid() == pid, !WorkerProcess.flushingAtExit, !OutputWriter.isWriting,
        let flush = WorkerProcess.flushAtExit
    else { return }
    WorkerProcess.flushingAtExit = true
    MainActor.assumeIsolated { flush() }
}
