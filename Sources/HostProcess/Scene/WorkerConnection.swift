import Glibc
import Protocol
import SceneModel

/// The host's end of one worker: its process and its pipes, and nothing it decides.
///
/// It encodes and writes frames (all or nothing, through the stdin backlog), decodes what the
/// worker writes and hands every message, the closing of stdout and the exit to its scene on
/// the event loop thread, in the order the loop saw them (`EventLoop` delivers all of a dead
/// worker's output before its exit). What any of it means is the scene's `SceneMachine`'s call.
package final class WorkerConnection: Sendable {
    /// What the worker did, as the scene is told.
    package enum Event: Sendable {
        case message(WorkerMessage)
        /// A message about one scene of an app process (a tagged frame, `SceneTag`).
        case sceneMessage(String, WorkerMessage)
        /// The worker broke the framing: an oversized or unreadable frame.
        case violation(String, ProtocolError.Code)
        /// Its stdout reached EOF while it was not seen dead.
        case stdoutClosed
        /// `stderrTail`: its last stderr lines (`WorkerExitDetail`'s limits).
        case exited(ChildExit, stderrTail: [String])
    }

    /// What became of a write.
    package enum WriteOutcome: Sendable {
        case written
        /// The worker's stdin is closed (it closed it, or it is dying).
        case closed
        /// Refused whole: the worker left too much unread.
        case refused(String)
    }

    package let scene: String
    package let child: ChildProcess
    /// The worker carries the scenes of one app: its frames may be tagged with their scene.
    package let carriesScenes: Bool
    private let forwardsStderr: Bool
    /// The frames being read, and a buffer for a tagged frame once its tag came off (an app
    /// process's): one lock per read (only the loop thread reads; uncontended).
    private let reading: Locked<ReadState>
    /// The last bytes it wrote on stderr, for the error its death gives (only the loop
    /// thread touches it; the lock is uncontended).
    private let stderrTail = Locked(StderrTail())
    /// Reused for encoding, with the scene tag last put on a request (an app process's: the
    /// scene asking is most often the one that asked last). Only the scenes, on the loop
    /// thread, write: the lock is uncontended.
    private let writing = Locked(WriteState())

    private struct ReadState {
        var decoder: FrameDecoder
    }

    private struct WriteState {
        var buffer: [UInt8] = []
        /// The scene whose tag `tag` holds (`SceneTag.tagFrame`), if any.
        var taggedScene: String?
        var tag: [UInt8] = []
    }

    package var pid: Int32 { child.pid }

    /// Starts the worker. Blocking (a fork and exec on the spawn thread): call it where blocking is allowed.
    package static func spawn(
        scene: String,
        argv: [String],
        scheduling: ChildProcess.Scheduling,
        environment: [String: String]? = nil
    ) throws(HostError) -> ChildProcess {
        do {
            return try ChildProcess.spawn(argv: argv, environment: environment, scheduling: scheduling, ownCgroup: true)
        } catch {
            throw HostError.spawnFailed(scene: scene, message: "\(error)")
        }
    }

    /// `carriesScenes`: an app process's (its frames are tagged with their scene).
    package init(
        scene: String,
        child: ChildProcess,
        maximumFrameSize: Int,
        forwardsStderr: Bool,
        carriesScenes: Bool = false
    ) {
        self.scene = scene
        self.child = child
        self.carriesScenes = carriesScenes
        self.forwardsStderr = forwardsStderr
        self.reading = Locked(ReadState(decoder: FrameDecoder(maximumFrameSize: maximumFrameSize)))
    }

    /// Starts watching the worker; `deliver` runs on the event loop thread, once per event.
    package func start(_ deliver: @escaping @Sendable (WorkerConnection, Event) -> Void) {
        EventLoop.shared.watch(
            child,
            onStdout: { [self] bytes in self.received(bytes, deliver) },
            onStderr: { [self] bytes in self.receivedStderr(bytes) },
            onExit: { [self] exit in
                self.child.closeStdin()
                deliver(self, .exited(exit, stderrTail: self.lastStderrLines()))
            },
            onStdoutEOF: { [self] in deliver(self, .stdoutClosed) },
            killsProcessGroupAtExit: true
        )
    }

    /// Writes `commands` as frames, all or nothing; in an app process, each request tagged
    /// with `scene` (the handshake is the process's).
    package func write(_ commands: HostCommands, scene: String? = nil) -> WriteOutcome {
        let frames = writing.withLock { state in
            state.buffer.removeAll(keepingCapacity: true)
            commands.borrowEach { command in
                guard let scene, command.isRequest else {
                    command.encode(into: &state.buffer)
                    return
                }
                let start = state.buffer.count
                command.encode(into: &state.buffer)
                if state.taggedScene != scene {
                    state.taggedScene = scene
                    state.tag.removeAll(keepingCapacity: true)
                }
                SceneTag.tagFrame(at: start, in: &state.buffer, scene: scene, tag: &state.tag)
            }
            return state.buffer
        }
        do {
            try child.writeToStdin(frames)
            return .written
        } catch {
            switch error {
            case .brokenPipe, .closed: return .closed
            case .backlogFull, .failed: return .refused("\(error)")
            }
        }
    }

    /// Sends `signal` to the worker itself (never to a recycled pid).
    package func signal(_ signal: Int32) {
        try? child.send(signal: signal)
    }

    // MARK: Event loop side

    private func received(
        _ bytes: UnsafeRawBufferPointer,
        _ deliver: @Sendable (WorkerConnection, Event) -> Void
    ) {
        // Each frame is decoded where it lies in the read buffer; only the scene's event
        // leaves this call. (Delivering under the reading lock is fine: only the loop thread
        // reads, and nothing the scene does on an event reads this worker's stdout.)
        _ = reading.withLock { state in
            state.decoder.append(bytes) { piece in
                switch piece {
                case .oversized(let length):
                    deliver(
                        self,
                        .violation("frame of more than \(length) bytes exceeds the maximum frame size", .invalidMessage)
                    )
                    return false
                case .frame(let bytes):
                    do throws(ProtocolError) {
                        if carriesScenes, SceneTag.isTagged(bytes) {
                            guard let tagged = SceneTag.tagged(bytes) else {
                                throw ProtocolError(.invalidMessage, "a scene tag that is not a plain JSON string")
                            }
                            deliver(self, .sceneMessage(tagged.scene, try tagged.message()))
                            return true
                        }
                        deliver(self, .message(try WorkerMessage(frame: bytes)))
                        return true
                    } catch {
                        let message = "unreadable frame: \(error.message); it began \(Self.excerpt(bytes))"
                        deliver(self, .violation(message, .invalidMessage))
                        return false
                    }
                }
            }
        }
    }

    private func receivedStderr(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        stderrTail.withLock { $0.append(bytes) }
        // Through the forwarder's queue and thread, one prefix per line: a blocking write
        // here would freeze every scene behind a host stderr nobody reads.
        guard forwardsStderr else { return }
        StderrForwarder.shared.forward(bytes, scene: scene, pid: child.pid)
    }

    /// The last lines of what it wrote on stderr, empty ones left out, within
    /// `WorkerExitDetail`'s limits (a line cut by the byte limit loses its start).
    private func lastStderrLines() -> [String] {
        let bytes = stderrTail.withLock { $0.bytes.suffix(WorkerExitDetail.stderrByteLimit) }
        let lines = bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        return lines.filter { !$0.allSatisfy(\.isWhitespace) }.suffix(WorkerExitDetail.stderrLineLimit).map { $0 }
    }

    /// The first bytes of an unreadable frame, quoted (`"hostctl: usage: …"`): what came
    /// instead of a message says what the program is.
    package static func excerpt(_ frame: UnsafeRawBufferPointer) -> String {
        let limit = 48
        let text = String(decoding: frame.prefix(limit), as: UTF8.self)
        return WorkerExitDetail.quoted(text) + (frame.count > limit ? "…" : "")
    }
}
