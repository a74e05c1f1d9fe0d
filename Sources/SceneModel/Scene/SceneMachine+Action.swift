import Protocol

extension SceneMachine {
    /// Who waits for the outcome of a request or a wait: the shell hands out the numbers.
    package typealias CallerID = Int

    /// The machine's timers. At most one of each is armed at a time; a token carries the
    /// generation it was armed with, so a timer that fires after it was cancelled or re-armed
    /// (its action may already be queued on the loop) is recognised and ignored.
    package enum Timer: Sendable, Hashable {
        /// The watchdog of the step in flight (a reply or a death it waits for).
        case step
        /// How long a signal other than SIGKILL is given to end the worker (`kill`).
        case killGrace
        /// Suspend a background scene with no background task.
        case suspend
        /// Run the background task's expiration handler.
        case backgroundTaskExpiration
        /// Kill a worker whose background task outlived its limit.
        case backgroundTaskDeadline
        /// A worker that closed its stdout or stdin but lives on is a protocol violation.
        case pipeClosedGrace
        /// A quit's bound: SIGKILL the worker if it still lives.
        case quitDeadline
        /// A caller's `waitFor` timeout.
        case waiter(CallerID)
    }

    package struct TimerToken: Sendable, Hashable {
        package var timer: Timer
        package var generation: Int
    }

    /// Which of the worker's pipes closed while it lived.
    package enum Pipe: String, Sendable, Hashable {
        case stdout, stdin
    }

    /// What the shell must do, in order. Nothing here waits: what takes time (spawn, store)
    /// comes back as an event.
    package enum Action: Sendable {
        /// Start the worker on the blocking thread; answer with `spawnCompleted` or `spawnFailed`.
        /// `app`: the app the worker is for (`connect`'s `app`); when that app's process runs
        /// already, the scene joins it instead: answer with `attachCompleted`.
        case spawn(argv: [String], app: String?)
        /// Write these frames to the worker's stdin, all or nothing; a closed pipe is reported
        /// as `pipeClosed(.stdin)`, a full backlog as `writeFailed`.
        case write(HostCommands)
        /// Send a signal to the worker itself.
        case signal(Int32)
        /// Send a signal to the worker's process group.
        case signalProcessGroup(Int32)
        /// Ask the kernel whether the worker is exiting (a pipe it closed outlived
        /// `pipeClosedGrace`); answer with `exitProbed`.
        case probeExiting
        /// SIGSTOP the worker's process group and wait until it is stopped (on the blocking
        /// thread); answer with `stopCompleted`.
        case stopProcessGroup
        /// Store the session durably; answer with `storeCompleted` or `storeFailed`.
        case storeSession(SceneSession)
        /// Delete the session; answer with `storeCompleted`.
        case deleteSession
        /// Append to the trace (the machine has checked it against the model already).
        case record(TraceEvent)
        /// An event of the host's own that the model refuses: a defect of the host, recorded
        /// as it is (so the trace fails verification) and counted.
        case hostDefect(LifecycleViolation)
        /// Resume a caller of `perform`, `kill` or `waitFor`.
        case resume(CallerID, Result<Void, HostError>)
        /// The value the caller's request returns (`inspect`'s tree), just before its `resume`.
        case deliver(CallerID, JSONValue)
        case armTimer(TimerToken, after: Duration)
        case cancelTimer(TimerToken)
        /// This scene's session was discarded: the app's other workers are to hear of it.
        case announceDiscard
        /// Discarded sessions this scene could not deliver: back to the host's mailbox.
        case returnDiscards([String])
        /// The app asked for another scene, or for a scene's destruction: the host carries it out.
        case appSceneRequest(AppChange)
        /// The scene left its app's process, which runs on (`detached`): the shell lets go of
        /// it. `endsProcess`: the process was the scene's own, for a silent push (c20): it ends
        /// once no scene is in it.
        case leaveAppProcess(endsProcess: Bool)
    }

    /// The limits the machine enforces, taken from the host's configuration.
    package struct Configuration: Sendable {
        package var worker: [String]
        package var suspendDelay: Duration
        package var launchLimit: Duration
        package var transitionLimit: Duration
        package var terminateLimit: Duration
        package var backgroundTaskLimit: Duration
        package var backgroundTaskExpirationLead: Duration {
            HostConfiguration.backgroundTaskExpirationLead(limit: backgroundTaskLimit)
        }
        package var restartPolicy: RestartPolicy?
        /// The largest frame host and worker exchange (`RequestLimits.frameLimit`).
        package var frameLimit = FrameLimits.defaultMaximumFrameSize
        /// How long a worker may live on after closing its stdout or stdin. Generous: a worker
        /// SIGKILLed from outside closes its stdout before its pidfd says it is dead, and under
        /// load (two cores, sanitized workers tearing down their shadow memory) that gap has
        /// been seen to pass 100 ms.
        package var pipeClosedGrace: Duration = .seconds(1)

        /// `scene`: whose limits (a scene may have a launch limit of its own).
        package init(_ host: HostConfiguration, scene: String? = nil) {
            worker = host.worker
            suspendDelay = host.suspendDelay
            launchLimit = scene.map(host.launchLimit(forScene:)) ?? host.launchLimit
            transitionLimit = host.transitionLimit
            terminateLimit = host.terminateLimit
            backgroundTaskLimit = host.backgroundTaskLimit
            restartPolicy = host.restartPolicy
            frameLimit = RequestLimits.frameLimit(host)
        }
    }
}
