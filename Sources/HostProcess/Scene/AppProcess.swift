import Glibc
import Protocol
import SceneModel

/// One app's worker process, shared by the app's scenes (`connect`'s `app`): the iOS model
/// of one process per app, whose windows connect and disconnect in it (real-ios-orders-3
/// c13–c15). The default stays one process per scene.
///
/// Each scene keeps its own actor and machine; this object owns what they share: the
/// connection, whose frames carry their scene (`SceneTag`) and are handed to that scene's
/// actor, and the process's stops, continues, kills and death, which are the whole app's.
/// The process is stopped only when every scene of the app may be suspended, and a continue
/// for one resumes them all. A disconnect leaves the process running (with no scene at all,
/// possibly); a terminate ends it once the app's other scenes have left.
///
/// Touched on the event loop thread only (its lock is uncontended).
package final class AppProcess: Sendable {
    package let app: String
    package let connection: WorkerConnection
    private let state: Locked<State>

    private struct State {
        /// The scenes in the process, in the order they joined; the first one did the handshake.
        var members: [SceneController] = []
        /// Why the process was signalled to die, and by which scene.
        var kill: (scene: String, reason: TerminationReason, onPurpose: Bool)?
        var isAlive = true
        /// SIGKILLed, told to terminate by every scene in it, or its stdin closed: it takes no more scenes (one launching meanwhile waits for its death, then starts the
        /// app's next process).
        var isEnding = false
        /// Stopped for the suspension of every scene in it.
        var isStopped = false
        /// Callers waiting for the process's death (the host's quit).
        var exitWaiters: [UnsafeContinuation<Void, Never>] = []
        /// The suspension of the process once its last scene left, pending.
        var idleTimer: EventLoopTimerID?
    }

    package var pid: Int32 { connection.pid }

    package init(app: String, connection: WorkerConnection, owner: SceneController) {
        self.app = app
        self.connection = connection
        self.state = Locked(State(members: [owner]))
    }

    /// Starts watching the process: each scene's frames go to that scene, the untagged ones
    /// (the handshake) to the scene that started it, and its end to every scene in it.
    package func start(onExit: @escaping @Sendable (AppProcess) -> Void) {
        connection.start { [self] sender, event in
            switch event {
            case .sceneMessage(let scene, _):
                dispatch(event, to: scene, from: sender)
            case .message:
                state.withLock { $0.members.first }?.appProcessEvent(event, from: sender)
            case .violation, .stdoutClosed:
                for member in members { member.appProcessEvent(event, from: sender) }
            case .exited:
                let (members, waiters) = state.withLock { state in
                    state.isAlive = false
                    defer { state.exitWaiters = [] }
                    return (state.members, state.exitWaiters)
                }
                for member in members { member.appProcessEvent(event, from: sender) }
                onExit(self)
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    package var members: [SceneController] { state.withLock { $0.members } }

    /// Hands `event` to the member `scene`, if it is one, without retaining it: the members'
    /// array, copied out of the lock, keeps it alive through the call. (Every scene's actor
    /// has a side table, for its timers' weak references, so a retain and a release of one
    /// take the runtime's slow path: about a tenth of what the host adds for an app's scene,
    /// two per frame.)
    private func dispatch(_ event: WorkerConnection.Event, to scene: String, from sender: WorkerConnection) {
        let members = state.withLock { $0.members }
        members.withUnsafeBufferPointer { members in
            for index in members.indices where members[index].id == scene {
                Unmanaged.passUnretained(members[index])._withUnsafeGuaranteedRef {
                    $0.appProcessEvent(event, from: sender)
                }
                return
            }
        }
    }

    package var isAlive: Bool { state.withLock { $0.isAlive } }

    /// Whether a launching scene may join the process: alive, and not on its way out.
    package var takesScenes: Bool { state.withLock { $0.isAlive && !$0.isEnding } }

    /// The process is on its way out (SIGKILLed, its last scene is terminating it, or its
    /// stdin closed): no scene joins it any more.
    package func noteEnding() {
        state.withLock { $0.isEnding = true }
    }

    /// Whether the process is stopped (every scene in it suspended).
    package var isStopped: Bool { state.withLock { $0.isStopped } }

    package func noteStopped(_ stopped: Bool) {
        state.withLock { $0.isStopped = stopped }
    }

    /// `scene` joins the running process.
    package func add(_ scene: SceneController) {
        state.withLock { state in
            if !state.members.contains(where: { $0 === scene }) { state.members.append(scene) }
        }
    }

    /// `scene` left the process (it detached, or died with it).
    package func remove(_ scene: SceneController) {
        state.withLock { state in state.members.removeAll { $0 === scene } }
    }

    /// The other scenes in the process.
    package func others(than scene: SceneController) -> [SceneController] {
        state.withLock { state in state.members.filter { $0 !== scene } }
    }

    /// `scene` signalled the process to die, with `reason`: the others' records say so too.
    package func noteKill(by scene: String, reason: TerminationReason, onPurpose: Bool) {
        state.withLock { state in
            if state.kill == nil { state.kill = (scene, reason, onPurpose) }
        }
    }

    /// Why another scene than `scene` killed the process, if one did.
    package func killReason(excluding scene: String) -> (reason: TerminationReason, onPurpose: Bool)? {
        state.withLock { state in
            guard let kill = state.kill, kill.scene != scene else { return nil }
            return (kill.reason, kill.onPurpose)
        }
    }

    /// The process's last scene left and it runs on: like any app in the background with
    /// nothing to finish, it is suspended after `delay`, unless a scene joins first (which
    /// resumes a stopped one, `SceneController.joinAppProcess`).
    package func suspendWhenIdle(after delay: Duration) {
        let timer = EventLoop.shared.scheduleTimer(at: LoopInstant.now() + delay) { [self] in
            let stops = state.withLock { state in
                state.idleTimer = nil
                guard state.members.isEmpty, state.isAlive, !state.isStopped, !state.isEnding else { return false }
                state.isStopped = true
                return true
            }
            guard stops else { return }
            try? connection.child.sendToProcessGroup(signal: SIGSTOP)
            connection.signal(SIGSTOP)
        }
        let replaced = state.withLock { state in
            defer { state.idleTimer = timer }
            return state.idleTimer
        }
        if let replaced { EventLoop.shared.cancelTimer(replaced) }
    }

    /// Kills a process no scene is in, as the system reclaims a background app to make room:
    /// SIGKILL to it and its process group (it may be stopped), with no notice. Nothing if a
    /// scene is in it or it is gone. Returns whether it killed it.
    @discardableResult
    package func reclaim() -> Bool {
        let (reclaims, idleTimer) = state.withLock { state -> (Bool, EventLoopTimerID?) in
            guard state.members.isEmpty, state.isAlive else { return (false, nil) }
            state.isEnding = true
            defer { state.idleTimer = nil }
            return (true, state.idleTimer)
        }
        if let idleTimer { EventLoop.shared.cancelTimer(idleTimer) }
        guard reclaims else { return false }
        try? connection.child.sendToProcessGroup(signal: SIGKILL)
        connection.signal(SIGKILL)
        return true
    }

    /// Ends a process no scene is in any more (the host quits): its stdin closes, which a
    /// worker takes as the end (a suspended one is resumed first, to read it); one still alive
    /// `limit` later is SIGKILLed. Returns at its death.
    package func end(within limit: Duration) async {
        guard state.withLock({ $0.members.isEmpty && $0.isAlive }) else { return }
        // On the loop, as the idle timer runs: one that fired meanwhile has stopped the process
        // already (and is continued here), one that has not is cancelled, and `isEnding` keeps
        // any other from stopping a process that must read the end of its input.
        await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
            EventLoop.shared.execute { [self] in
                let (idleTimer, stopped) = state.withLock { state in
                    defer {
                        state.idleTimer = nil
                        state.isStopped = false
                        state.isEnding = true
                    }
                    return (state.idleTimer, state.isStopped)
                }
                if let idleTimer { EventLoop.shared.cancelTimer(idleTimer) }
                if stopped {
                    try? connection.child.sendToProcessGroup(signal: SIGCONT)
                    connection.signal(SIGCONT)
                }
                connection.child.closeStdin()
                continuation.resume()
            }
        }
        let timer = EventLoop.shared.scheduleTimer(at: LoopInstant.now() + limit) { [connection] in
            connection.signal(SIGKILL)
        }
        await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
            let alive = state.withLock { state in
                if state.isAlive { state.exitWaiters.append(continuation) }
                return state.isAlive
            }
            if !alive { continuation.resume() }
        }
        EventLoop.shared.cancelTimer(timer)
    }
}

/// The app processes of one host, by app name: a launch of a scene of an app whose process
/// runs joins it, and scenes that launch while its spawn is under way, or while it ends, wait
/// for it (at an ending process's death they launch again: the first starts the next one).
package final class AppProcesses: Sendable {
    private enum Entry {
        case spawning(waiting: [SceneController])
        case running(AppProcess)
        /// The process takes no more scenes; these wait for its death.
        case ending(AppProcess, waiting: [SceneController])
    }

    private let entries = Locked<[String: Entry]>([:])
    /// The running processes with no scene in them, the one left longest ago first.
    private let idle = Locked<[AppProcess]>([])

    package init() {}

    /// What a scene launching into `app` does.
    package enum Join {
        /// Start the app's process: this scene is the first.
        case spawn
        /// Wait: the app's process is being started (`spawned` or `spawnFailed` tells), or the
        /// last one is ending (`exited` tells).
        case wait
        /// Join the running process.
        case attach(AppProcess)
    }

    package func join(_ app: String, _ scene: SceneController) -> Join {
        entries.withLock { entries in
            switch entries[app] {
            case .running(let process)? where process.takesScenes:
                // Not idle from now on: no reclaim between this and the scene's joining.
                noLongerIdle(process)
                return .attach(process)
            case .running(let process)? where process.isAlive:
                entries[app] = .ending(process, waiting: [scene])
                return .wait
            case .ending(let process, let waiting)?:
                entries[app] = .ending(process, waiting: waiting + [scene])
                return .wait
            case .spawning(let waiting)?:
                entries[app] = .spawning(waiting: waiting + [scene])
                return .wait
            case .running?, nil:
                entries[app] = .spawning(waiting: [])
                return .spawn
            }
        }
    }

    /// How many scenes wait for `app`'s process to start or to end.
    package func waitingCount(_ app: String) -> Int {
        entries.withLock { entries in
            switch entries[app] {
            case .spawning(let waiting)?, .ending(_, let waiting)?: waiting.count
            case .running?, nil: 0
            }
        }
    }

    /// `scene` no longer waits for the app's process (its launch was given up).
    package func leave(_ app: String, _ scene: SceneController) {
        entries.withLock { entries in
            switch entries[app] {
            case .spawning(let waiting)?:
                entries[app] = .spawning(waiting: waiting.filter { $0 !== scene })
            case .ending(let process, let waiting)?:
                entries[app] = .ending(process, waiting: waiting.filter { $0 !== scene })
            case .running?, nil:
                break
            }
        }
    }

    /// The app's process started; returns the scenes that waited for it.
    package func spawned(_ process: AppProcess) -> [SceneController] {
        entries.withLock { entries in
            defer { entries[process.app] = .running(process) }
            if case .spawning(let waiting)? = entries[process.app] { return waiting }
            return []
        }
    }

    /// The app's process could not be started; returns the scenes that waited for it.
    package func spawnFailed(_ app: String) -> [SceneController] {
        entries.withLock { entries in
            defer { entries[app] = nil }
            if case .spawning(let waiting)? = entries[app] { return waiting }
            return []
        }
    }

    /// `process`'s last scene left, and it runs on. Returns the processes left without a scene
    /// beyond `limit`, those left longest ago: the caller reclaims them.
    package func becameIdle(_ process: AppProcess, limit: Int) -> [AppProcess] {
        idle.withLock { idle in
            idle.removeAll { $0 === process }
            idle.append(process)
            let excess = max(0, idle.count - max(0, limit))
            defer { idle.removeFirst(excess) }
            return Array(idle.prefix(excess))
        }
    }

    /// A scene joined `process`, or it ended: it is not left without a scene any more.
    package func noLongerIdle(_ process: AppProcess) {
        idle.withLock { $0.removeAll { $0 === process } }
    }

    /// The app's process ended. Returns the scenes that waited for it to end: they launch
    /// again (the first starts the app's next process).
    package func exited(_ process: AppProcess) -> [SceneController] {
        noLongerIdle(process)
        return entries.withLock { entries in
            switch entries[process.app] {
            case .running(let current)? where current === process:
                entries[process.app] = nil
                return []
            case .ending(let current, let waiting)? where current === process:
                entries[process.app] = nil
                return waiting
            default:
                return []
            }
        }
    }

    /// Every app process still running.
    package var running: [AppProcess] {
        entries.withLock { entries in
            entries.values.compactMap { entry in
                switch entry {
                case .running(let process), .ending(let process, _): process
                case .spawning: nil
                }
            }
        }
    }
}
