import Dispatch
import Glibc
import SceneModel
import Synchronization

/// Copies workers' stderr to the host's, one line at a time with a `[scene pid] ` prefix,
/// without ever blocking the caller (the event loop).
///
/// The host's stderr can be a pipe nobody reads (`serve 2>&1 | less`, paused): a blocking
/// write there froze every scene. Here the loop only appends whole lines to a bounded queue,
/// and a dedicated thread writes them out. When the queue is full, lines are dropped and
/// counted; once the writer gets through again it says how many were lost, in one line.
///
/// Lines are assembled per worker (a read can end mid-line); a partial line is held up to
/// `lineLimit` bytes, then written as a line of its own, and whatever is left when the worker
/// dies is written at its reap (`streamEnded(pid:)`).
package final class StderrForwarder: Sendable {
    /// Forwards to the host's fd 2. Created at the first forwarded line.
    package static let shared: StderrForwarder = {
        sharedExists.store(true, ordering: .releasing)
        return StderrForwarder(descriptor: 2)
    }()

    private static let sharedExists = Atomic<Bool>(false)

    /// Called by the event loop at every reap: the shared forwarder's `streamEnded`, without
    /// creating it (and its thread) in a host that never forwards.
    package static func workerReaped(pid: Int32) {
        guard sharedExists.load(ordering: .acquiring) else { return }
        shared.streamEnded(pid: pid)
    }

    /// Bytes of whole lines waiting for the writer.
    package let capacity: Int
    /// Bytes of an unfinished line held per worker before it is written as a line anyway.
    package let lineLimit: Int

    private struct State {
        package var queue: [UInt8] = []
        /// Unfinished lines and their prefix, by worker pid.
        package var partial: [Int32: (prefix: [UInt8], bytes: [UInt8])] = [:]
        package var droppedLines = 0
        package var droppedBytes = 0
        package var started = false
        /// The writer found nothing to do and waits on `wakeUp`.
        package var sleeping = false
        /// The writer holds a batch it has not finished writing.
        package var writing = false
    }

    private let descriptor: Int32
    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Writes to `descriptor` (which stays open and blocking: only the writer thread waits on it).
    package init(descriptor: Int32, capacity: Int = 1 << 20, lineLimit: Int = 16 << 10) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.lineLimit = lineLimit
        try? start()
    }

    /// Starts the writer thread unless it runs; a failed start is retried by the next line
    /// (meanwhile lines queue up and, past the capacity, are dropped and counted).
    package func start() throws(ThreadStartError) {
        try state.withLock { (state: inout State) throws(ThreadStartError) in
            guard !state.started else { return }
            // The thread keeps `self` alive: instances live as long as the process.
            try PlatformThread.start(name: "scenehost-stderr") { [self] in run() }
            state.started = true
        }
    }

    /// Queues the complete lines of `bytes`, each as `[scene pid] line\n`; the rest waits for
    /// the worker's next read. Never blocks on the output.
    package func forward(_ bytes: UnsafeRawBufferPointer, scene: String, pid: Int32) {
        guard !bytes.isEmpty else { return }
        let prefix = Array("[\(scene) \(pid)] ".utf8)
        let (mustWake, mustStart) = state.withLock { state in
            var queued = false
            var held = state.partial.removeValue(forKey: pid)?.bytes ?? []
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? bytes.endIndex
                let room = lineLimit - held.count
                if newline == nil && end - start < room {
                    held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    break
                }
                // A full line, or a partial one that reached the limit: written as a line.
                let take = min(end - start, room)
                held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + take)]))
                queued = Self.enqueue(line: held, prefix: prefix, into: &state, capacity: capacity) || queued
                held.removeAll(keepingCapacity: true)
                start += take
                if start == end, newline != nil { start += 1 }
            }
            if !held.isEmpty { state.partial[pid] = (prefix, held) }
            return (queued && Self.wake(&state), !state.started)
        }
        if mustStart { try? start() }
        if mustWake { wakeUp.signal() }
    }

    /// The worker is gone: writes its unfinished line, if any, and forgets it.
    package func streamEnded(pid: Int32) {
        let mustWake = state.withLock { state in
            guard let held = state.partial.removeValue(forKey: pid) else { return false }
            return Self.enqueue(line: held.bytes, prefix: held.prefix, into: &state, capacity: capacity)
                && Self.wake(&state)
        }
        if mustWake { wakeUp.signal() }
    }

    /// For a process about to exit (`hostctl`): waits until the lines queued so far are
    /// written, at most `limit` (a stderr nobody reads must not keep it from exiting).
    /// Never call it on the event loop.
    package static func flushBeforeExit(limit: Duration = .seconds(1)) {
        guard sharedExists.load(ordering: .acquiring) else { return }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if shared.state.withLock({ $0.queue.isEmpty && !$0.writing }) { return }
            usleep(1000)
        }
    }

    /// Lines dropped so far and not yet reported (for tests and diagnostics).
    package var pendingDropCount: Int { state.withLock { $0.droppedLines } }

    /// Appends `prefix line \n` whole, or drops and counts it; true when queued.
    private static func enqueue(line: [UInt8], prefix: [UInt8], into state: inout State, capacity: Int) -> Bool {
        let size = prefix.count + line.count + 1
        guard state.queue.count + size <= capacity else {
            state.droppedLines += 1
            state.droppedBytes += size
            return false
        }
        state.queue.append(contentsOf: prefix)
        state.queue.append(contentsOf: line)
        state.queue.append(UInt8(ascii: "\n"))
        return true
    }

    private static func wake(_ state: inout State) -> Bool {
        defer { state.sleeping = false }
        return state.sleeping
    }

    private func run() -> Never {
        var batch: [UInt8] = []
        while true {
            let dropped: (lines: Int, bytes: Int)? = state.withLock { state in
                if state.queue.isEmpty {
                    state.sleeping = true
                    return nil
                }
                swap(&state.queue, &batch)
                state.writing = true
                return (state.droppedLines, state.droppedBytes)
            }
            guard let dropped else {
                wakeUp.wait()
                continue
            }
            Self.writeAll(batch, to: descriptor)
            state.withLock { $0.writing = false }
            batch.removeAll(keepingCapacity: batch.capacity <= 64 << 10)
            // Said once the output moves again, with the count of everything lost meanwhile.
            if dropped.lines > 0 {
                state.withLock { state in
                    state.droppedLines -= dropped.lines
                    state.droppedBytes -= dropped.bytes
                }
                let notice =
                    "[scenehost] \(dropped.lines) line(s) of worker stderr (\(dropped.bytes) bytes) dropped: "
                    + "the host's stderr was not being read\n"
                Self.writeAll(Array(notice.utf8), to: descriptor)
            }
        }
    }
}
