import SceneModel
import Synchronization

/// The host's single I/O thread: it reads every worker's stdout and stderr and reaps every
/// worker, all through one epoll set. It is also a serial executor (actors can run on it, so
/// a watch handler can enter them with `assumeIsolated`), runs work queued with `execute(_:)`,
/// and fires one-shot timers through a timer descriptor in its epoll set: one thread, and
/// no wake-up but for an event, a job or a timer (one early wake-up after the earliest timer
/// is cancelled, see `prepareToWait`).
///
/// Handlers run on the loop thread, one at a time, and must not block: a slow handler stalls
/// every worker's output and exit reporting. Copy the bytes out (the buffer is reused as soon
/// as the handler returns) and hand them to the session that owns the worker.
///
/// Ordering guarantees for one child: all stdout and stderr bytes the child wrote before it
/// died are delivered before `onExit`; `onExit` is called exactly once and nothing for that
/// child follows it. Output written after the child's death by processes that inherited its
/// pipes (grandchildren) is dropped: the pipes are closed at reap.
package final class EventLoop: Sendable {
    package static let shared = EventLoop()

    package typealias OutputHandler = @Sendable (UnsafeRawBufferPointer) -> Void
    package typealias ExitHandler = @Sendable (ChildExit) -> Void

    /// Everything the loop needs for one watched child.
    package struct Watch: Sendable {
        package var child: ChildProcess
        package var onStdout: OutputHandler
        package var onStderr: OutputHandler
        package var onExit: ExitHandler
        /// Called once when stdout reaches EOF before the child was found dead (see `watch`).
        package var onStdoutEOF: (@Sendable () -> Void)? = nil
        /// SIGKILL the child's process group once it is dead, before it is reaped (see `watch`).
        package var killsProcessGroupAtExit = false
        /// Set at registration; only the loop thread closes it, so the number stays ours.
        package var pidfd: Int32 = -1
        /// The stdout and stderr read ends, -1 once closed. Kept here by the loop thread (the
        /// only one that closes them once the child is watched) so that reading does not take
        /// the child's lock, which a writer to the child's stdin holds across write(2).
        package var stdout: Int32 = -1
        package var stderr: Int32 = -1
    }

    /// Which of a watch's descriptors an epoll event is about; stored in the low bits of the
    /// event's token next to the watch id.
    package enum Source: UInt64, Sendable {
        case stdout = 0
        case stderr = 1
        case pidfd = 2
        /// The child's stdin became writable while a backlog waits (`ChildProcess.writeToStdin`).
        case stdin = 3
    }

    package let epollDescriptor: Int32
    /// An eventfd in the epoll set, written only to wake a sleeping loop (token `wakeToken`).
    package let wakeDescriptor: Int32
    /// The epoll token of `wakeDescriptor`: no watch id is 0 (`WatchTable`), so token 0 is free.
    package static let wakeToken: UInt64 = 0
    /// A timerfd in the epoll set, armed by the loop thread for the earliest timer's deadline
    /// (token `timerToken`; `prepareToWait`).
    package let timerDescriptor: Int32
    /// The epoll token of `timerDescriptor`: watch id 0's, free as `wakeToken` is.
    package static let timerToken: UInt64 = 1
    /// Queued jobs, timers and whether the loop sleeps.
    package let loopState: Locked<EventLoopState>
    /// `pthread_self()` of the loop thread once it runs, for `inEventLoop`.
    package let loopThread = Atomic<UInt>(0)
    /// Whether the loop thread was started (a failed start is retried by `start()`).
    package let threadStarted = Locked(false)
    /// Keyed by an id rather than by descriptor: a stale event for a descriptor closed
    /// earlier in the same batch (and maybe already reused) must find nothing.
    package let watches = Locked(WatchTable<Watch>())
    /// The ids of `watchReadable` descriptors (tokens with `descriptorTokenFlag`).
    package let nextWatchID = Atomic<UInt64>(1)
    /// Handlers of `watchReadable` descriptors, by token.
    package let descriptorWatches = Locked<[UInt64: @Sendable () -> Void]>([:])
    /// Whether a batch child was written to since the loop last polled, and whose answer
    /// to read first (`yieldBeforeNextPoll`): 0, none; `severalAnswers`; or the stdout token
    /// of the one child written to.
    package let expectedAnswer = Atomic<UInt64>(0)
    /// Whether the loop keeps a CPU to itself, and what it measured (`LoopCPUReservation`).
    package let cpuReservation = Locked(CPUReservationState())
    /// The CPU the loop keeps to itself, -1 when none: workers keep off it.
    package let reservedCPU = Atomic<Int32>(-1)
    /// How many times the loop reserved a CPU: a reader that saw it unchanged across a look
    /// at the workers' masks saw them between two reservations.
    package let reservationsTaken = Atomic<Int>(0)
    /// The CPU the workers were kept off, the worker threads the reservation took it from,
    /// and those it saw and left alone (the sweep thread's): a release gives the CPU back to
    /// the first alone, so a mask a worker set itself stays its own.
    package let workerThreadsKeptOff = Locked(WorkerThreadsKeptOff())
    /// How many running hosts asked for `HostTuning.throughput`: the loop polls before it
    /// sleeps and may reserve its CPU only while one does.
    package let throughputHosts = Atomic<Int>(0)
    /// `expectedAnswer` when more than one child (or an unwatched one) was written to.
    package static let severalAnswers = UInt64.max

    /// The loop as a task executor (see `EventLoopTaskExecutor`).
    package let taskExecutor: EventLoopTaskExecutor

    /// Takes ownership of the descriptors; the platform `init()` creates them and starts the thread.
    package init(epollDescriptor: Int32, wakeDescriptor: Int32, timerDescriptor: Int32) {
        let loopState = Locked(EventLoopState())
        self.epollDescriptor = epollDescriptor
        self.wakeDescriptor = wakeDescriptor
        self.timerDescriptor = timerDescriptor
        self.loopState = loopState
        taskExecutor = EventLoopTaskExecutor(queue: loopState, wakeDescriptor: wakeDescriptor)
    }

    /// Starts watching `child`: output goes to `onStdout`/`onStderr`, then `onExit` once it
    /// has been reaped. Callable from any thread, including from a handler. A child can be
    /// watched only once; the loop keeps it alive until `onExit` has returned.
    ///
    /// `onStdoutEOF`: called (on the loop thread) when the child's stdout reaches EOF while the
    /// loop has not yet seen the child die. A dying child closes its stdout a moment before its
    /// pidfd becomes readable, so the handler must not conclude that the child is alive.
    /// EOF found while delivering a dead child's last output is not reported.
    ///
    /// `killsProcessGroupAtExit`: once the child is dead, SIGKILL its process group (the child
    /// leads its own) before reaping it, so nothing it started, such as a grandchild holding
    /// its pipes, outlives it. Done before the reap, while the zombie still pins the group id.
    package func watch(
        _ child: ChildProcess,
        onStdout: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
        onStderr: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
        onExit: @escaping @Sendable (ChildExit) -> Void,
        onStdoutEOF: (@Sendable () -> Void)? = nil,
        killsProcessGroupAtExit: Bool = false
    ) {
        register(
            Watch(
                child: child,
                onStdout: onStdout,
                onStderr: onStderr,
                onExit: onExit,
                onStdoutEOF: onStdoutEOF,
                killsProcessGroupAtExit: killsProcessGroupAtExit
            )
        )
    }
}
