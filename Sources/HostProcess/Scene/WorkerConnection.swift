import Glibc
import Protocol

/// The host's end of one worker: its process and its pipes, and nothing it decides.
///
/// It encodes and writes frames (all or nothing, through the stdin backlog), decodes what the
/// worker writes and hands every message, the closing of stdout and the exit to its scene on
/// the event loop thread, in the order the loop saw them (`EventLoop` delivers all of a dead
/// worker's output before its exit). What any of it means is the scene's `SceneMachine`'s call.
final class WorkerConnection: Sendable {
    /// What the worker did, as the scene is told.
    enum Event: Sendable {
        case message(WorkerMessage)
        /// The worker broke the framing: an oversized or unreadable frame.
        case violation(String, ProtocolError.Code)
        /// Its stdout reached EOF while it was not seen dead.
        case stdoutClosed
        case exited(ChildExit)
    }

    /// What became of a write.
    enum WriteOutcome: Sendable {
        case written
        /// The worker's stdin is closed (it closed it, or it is dying).
        case closed
        /// Refused whole: the worker left too much unread.
        case refused(String)
    }

    let scene: String
    let child: ChildProcess
    private let forwardsStderr: Bool
    private let decoder: Locked<FrameDecoder>
    /// Reused for encoding; only the scene (on the loop thread) writes, the lock is uncontended.
    private let scratch = Locked<[UInt8]>([])

    var pid: Int32 { child.pid }

    /// Starts the worker. Blocking (a fork and exec on the spawn thread): call it where blocking is allowed.
    static func spawn(scene: String, argv: [String]) throws(HostError) -> ChildProcess {
        do {
            return try ChildProcess.spawn(argv: argv, environment: nil)
        } catch {
            throw HostError.spawnFailed(scene: scene, message: "\(error)")
        }
    }

    init(scene: String, child: ChildProcess, maximumFrameSize: Int, forwardsStderr: Bool) {
        self.scene = scene
        self.child = child
        self.forwardsStderr = forwardsStderr
        self.decoder = Locked(FrameDecoder(maximumFrameSize: maximumFrameSize))
    }

    /// Starts watching the worker; `deliver` runs on the event loop thread, once per event.
    func start(_ deliver: @escaping @Sendable (WorkerConnection, Event) -> Void) {
        EventLoop.shared.watch(
            child,
            onStdout: { [self] bytes in self.received(bytes, deliver) },
            onStderr: { [self] bytes in self.receivedStderr(bytes) },
            onExit: { [self] exit in
                self.child.closeStdin()
                deliver(self, .exited(exit))
            },
            onStdoutEOF: { [self] in deliver(self, .stdoutClosed) },
            killsProcessGroupAtExit: true
        )
    }

    /// Writes `commands` as frames, all or nothing.
    func write(_ commands: [HostCommand]) -> WriteOutcome {
        let frames = scratch.withLock { buffer in
            buffer.removeAll(keepingCapacity: true)
            for command in commands { command.encode(into: &buffer) }
            return buffer
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
    func signal(_ signal: Int32) {
        try? child.send(signal: signal)
    }

    // MARK: Event loop side

    private func received(
        _ bytes: UnsafeRawBufferPointer,
        _ deliver: @Sendable (WorkerConnection, Event) -> Void
    ) {
        let frames: [FrameDecoder.Output] = decoder.withLock { decoder in
            decoder.append(bytes)
            var frames: [FrameDecoder.Output] = []
            while let frame = decoder.next() { frames.append(frame) }
            return frames
        }
        for frame in frames {
            switch frame {
            case .oversized(let length):
                deliver(
                    self,
                    .violation("frame of more than \(length) bytes exceeds the maximum frame size", .invalidMessage)
                )
                return
            case .frame(let bytes):
                do {
                    deliver(self, .message(try WorkerMessage(frame: bytes)))
                } catch {
                    deliver(self, .violation("unreadable frame: \(error.message)", .invalidMessage))
                    return
                }
            }
        }
    }

    private func receivedStderr(_ bytes: UnsafeRawBufferPointer) {
        guard forwardsStderr, bytes.count > 0 else { return }
        var line = Array("[\(scene) \(child.pid)] ".utf8)
        line.append(contentsOf: bytes)
        if line.last != UInt8(ascii: "\n") { line.append(UInt8(ascii: "\n")) }
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
