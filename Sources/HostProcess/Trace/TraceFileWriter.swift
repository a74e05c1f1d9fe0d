import CSceneHostSys
import Dispatch
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// Writes one trace file on a thread of its own, in batches: events are recorded on the
/// event loop, which must not block on a disk or on a pipe whose reader is slow
/// (`--trace /dev/stdout | less`), nor pay a write(2) per event.
///
/// Its own thread, not a shared one: a file whose reader never reads holds only its writer.
/// The thread ends, and closes the descriptor, once the writer is closed and has written
/// everything queued, or as soon as the file has ended with an error: a pipe is written
/// without blocking in write(2) (`PipeWrite`), so a thread stuck behind a reader that stopped
/// reading lets go of it when the file ends.
///
/// A reader more than `maximumBacklog` behind ends the file as a failed write does (a full
/// disk, the file size limit): the file is cut back to its last whole line and nothing more
/// is written, so it is a valid prefix of the trace; `error` says what happened.
package final class TraceFileWriter: Sendable {
    /// How many encoded bytes may wait for the file's reader, the batch being written included.
    package static let maximumBacklog = 16 << 20

    private struct State {
        /// Encoded lines queued but not yet taken by the thread.
        package var pending: [UInt8] = []
        /// The bytes the thread is writing.
        package var inFlight = 0
        /// Bytes ever queued, and bytes done with (written, or dropped once the file ended).
        package var queued = 0
        package var done = 0
        /// The file's length up to its last whole line.
        package var fileLength: Int64 = 0
        package var error: HostError?
        /// The thread waits on `wakeUp` (one signal is enough).
        package var sleeping = false
        /// No more lines come: the thread ends once it has written what is queued.
        package var closed = false
        /// Callers of `written(within:)`, by id: each waits until `done` reaches its target.
        package var waiters: [Int: (target: Int, continuation: UnsafeContinuation<Bool, Never>)] = [:]
        package var nextWaiterID = 0
        /// The thread has closed its descriptors (`stop` is no longer ours to write).
        package var threadEnded = false
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let descriptor: Int32
    private let path: String
    /// The pipe's size when the file is a pipe (written without blocking), else nil.
    private let pipeCapacity: Int?
    /// An eventfd made readable when the file ends with an error: a pipe write waiting for
    /// room gives up then.
    private let stop: Int32

    /// Takes ownership of `descriptor` and starts the writer's thread.
    package init(descriptor: Int32, path: String) throws(HostError) {
        self.descriptor = descriptor
        self.path = path
        pipeCapacity = PipeWrite.capacity(of: descriptor)
        stop = csh_eventfd()
        guard stop >= 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw HostError.io("cannot write trace file \(path): cannot create an eventfd: \(reason)")
        }
        // A reader that closes its end must fail one write, not kill the host.
        HostSignals.ignoreWriteSignals()
        do {
            // The thread holds the writer until it ends.
            try PlatformThread.start(name: "scenehost-trace") { [self] in run() }
        } catch {
            Glibc.close(descriptor)
            Glibc.close(stop)
            throw HostError.io("cannot write trace file \(path): \(error)")
        }
    }

    /// Queues `event`'s line, and wakes the thread if it sleeps.
    package func append(_ event: TraceEvent) {
        let wakes = state.withLock { state -> Bool in
            guard state.error == nil, !state.closed else { return false }
            let before = state.pending.count
            event.appendJSONLine(to: &state.pending)
            state.queued += state.pending.count - before
            if state.pending.count + state.inFlight > Self.maximumBacklog {
                end(
                    &state,
                    .io(
                        "cannot write trace file \(path): its reader is more than \(Self.maximumBacklog >> 20) MiB "
                            + "behind (a pipe nobody reads?); nothing more is written to it"
                    )
                )
                return false
            }
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wakes { wakeUp.signal() }
    }

    /// The first failed write, or the reader fallen too far behind; nil while the file is whole.
    package var error: HostError? {
        state.withLock { $0.error }
    }

    /// Returns true once every line queued before the call is in the file, false when the
    /// file ended first (`error`) or `limit` passed (a reader that stopped reading).
    package func written(within limit: Duration) async -> Bool {
        await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Bool, Never>) in
            let id: Int? = state.withLock { state in
                guard state.error == nil else { return nil }
                // Once closed, the wait is for the thread's end (its descriptors closed too),
                // so that whoever quits the host finds nothing of the file's left open.
                guard state.done < state.queued || (state.closed && !state.threadEnded) else { return nil }
                let id = state.nextWaiterID
                state.nextWaiterID += 1
                state.waiters[id] = (state.queued, continuation)
                return id
            }
            guard let id else { return continuation.resume(returning: error == nil) }
            // A loop timer, not a task: a wait that ended first leaves it nothing to do.
            _ = DeadlineTimer.shared.schedule(after: limit) { [self] in
                state.withLock { state in
                    guard state.waiters[id] != nil else { return }
                    end(
                        &state,
                        .io(
                            "cannot write trace file \(path): its reader did not take the rest within \(limit); "
                                + "the file may lack the last events"
                        )
                    )
                }
            }
        }
    }

    /// No more lines come; the thread writes what is queued, then ends.
    package func close() {
        let wakes = state.withLock { state -> Bool in
            state.closed = true
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wakes { wakeUp.signal() }
    }

    private enum Step {
        case write
        case sleep
        case exit
    }

    private func run() {
        // Two buffers take turns: the one being written here, and `pending`.
        var batch: [UInt8] = []
        while true {
            let step = state.withLock { state -> Step in
                batch.removeAll(keepingCapacity: true)
                if state.error == nil, !state.pending.isEmpty {
                    swap(&batch, &state.pending)
                    state.inFlight = batch.count
                    return .write
                }
                if state.closed || state.error != nil { return .exit }
                state.sleeping = true
                return .sleep
            }
            switch step {
            case .sleep:
                wakeUp.wait()
                continue
            case .exit:
                Glibc.close(descriptor)
                let (waiters, whole) = state.withLock { state in
                    defer { state.waiters.removeAll() }
                    // Under the lock, which `end` writes `stop` under: no write after the close.
                    state.threadEnded = true
                    Glibc.close(stop)
                    return (Array(state.waiters.values), state.error == nil)
                }
                for waiter in waiters { waiter.continuation.resume(returning: whole) }
                return
            case .write:
                break
            }
            let (written, failure) = batch.withUnsafeBytes { bytes in
                if let pipeCapacity {
                    PipeWrite.prefix(bytes, to: descriptor, capacity: pipeCapacity, unless: stop)
                } else {
                    BlockingWrite.prefix(bytes, to: descriptor)
                }
            }
            let (ready, whole) = state.withLock { state in
                state.inFlight = 0
                state.done += batch.count
                if failure == ECANCELED {
                    // The file ended meanwhile (`end` says why); a pipe cannot be cut back.
                    state.fileLength += Int64(written)
                } else if let failure {
                    // The lines of the batch written whole stay.
                    let whole = batch[..<written].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                    state.fileLength += Int64(whole)
                    _ = ftruncate(descriptor, off_t(state.fileLength))
                    end(&state, .io("cannot write trace file \(path): \(String(cString: strerror(failure)))"))
                } else {
                    state.fileLength += Int64(written)
                }
                return (takeReady(&state), state.error == nil)
            }
            for continuation in ready { continuation.resume(returning: whole) }
        }
    }

    /// Ends the file with `error` (the first one stays): what is queued is dropped, and the
    /// waiters are answered.
    private func end(_ state: inout State, _ error: HostError) {
        if state.error == nil {
            state.error = error
            // A pipe write waiting for room gives up (a no-op once the thread has ended).
            if !state.threadEnded { EventLoop.wake(stop) }
        }
        state.pending = []
        state.done = state.queued
        for waiter in state.waiters.values { waiter.continuation.resume(returning: false) }
        state.waiters.removeAll()
    }

    /// The waiters whose lines are all done, taken out.
    private func takeReady(_ state: inout State) -> [UnsafeContinuation<Bool, Never>] {
        // A closed file's waiters are answered when the thread ends.
        guard !state.waiters.isEmpty, !state.closed else { return [] }
        let done = state.done
        let ids = state.waiters.filter { $0.value.target <= done }.keys
        return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
    }
}
