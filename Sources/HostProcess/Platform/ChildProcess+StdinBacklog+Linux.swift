import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

/// Bytes for a worker's stdin that its pipe had no room for yet: an append-only buffer
/// consumed from the front, so that flushing it bit by bit costs no copying.
package struct StdinBacklog: Sendable {
    private var bytes: [UInt8] = []
    private var start = 0

    package var isEmpty: Bool { start == bytes.count }
    package var count: Int { bytes.count - start }

    package mutating func append(_ more: some Collection<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Writes from the front as far as the pipe takes; throws what `write(2)` reported.
    package mutating func flush(to descriptor: Int32) throws(ChildIOError) {
        guard !isEmpty else { return }
        let written = try ChildProcess.writeSome(from: bytes, startingAt: start, to: descriptor)
        start += written
        if isEmpty {
            removeAll()
        } else if start > bytes.count / 2 {
            // Drop what is written once it outweighs what waits: the buffer stays within
            // twice the backlog, and the copying is amortized.
            bytes.removeFirst(start)
            start = 0
        }
    }

    package mutating func removeAll() {
        bytes = []
        start = 0
    }
}

// MARK: - Writing through the backlog (callers hold the state lock)

extension ChildProcess {
    /// How many unread bytes a worker may leave behind before writes to it fail. Far above
    /// the frames of any request in flight (one per scene at a time, at most a frame each).
    package static let maximumStdinBacklog = 8 << 20

    /// Writes `bytes` after whatever is queued; queues what the pipe has no room for.
    package static func write(_ bytes: [UInt8], through descriptors: inout Descriptors) throws(ChildIOError) {
        // Checked before anything is written: a write is taken whole or not at all.
        guard descriptors.stdinBacklog.count + bytes.count <= maximumStdinBacklog else {
            throw .backlogFull(queued: descriptors.stdinBacklog.count)
        }
        do {
            try descriptors.stdinBacklog.flush(to: descriptors.stdin)
        } catch {
            dropBacklog(&descriptors)
            throw error
        }
        if !descriptors.stdinBacklog.isEmpty {
            descriptors.stdinBacklog.append(bytes)
            return
        }
        let written = try writeSome(from: bytes, startingAt: 0, to: descriptors.stdin)
        guard written < bytes.count else { return }
        descriptors.stdinBacklog.append(bytes[written...])
        registerWritable(&descriptors)
    }

    /// Asks the event loop to report stdin writable (level-triggered) until the backlog is gone.
    package static func registerWritable(_ descriptors: inout Descriptors) {
        guard !descriptors.stdinInEpoll, let (epoll, token) = descriptors.writableRegistration,
            descriptors.stdin >= 0
        else { return }
        var event = epoll_event()
        event.events = EPOLLOUT.rawValue
        event.data.u64 = token
        descriptors.stdinInEpoll = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptors.stdin, &event) == 0
    }

    /// Takes stdin out of the loop's epoll set. Explicitly, before any close: a process forked
    /// elsewhere in the host and not yet exec'd shares the description and would keep it in.
    package static func unregisterWritable(_ descriptors: inout Descriptors) {
        guard descriptors.stdinInEpoll, let (epoll, _) = descriptors.writableRegistration else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptors.stdin, nil)
        descriptors.stdinInEpoll = false
    }

    /// Forgets the backlog and stops the loop's interest in stdin.
    package static func dropBacklog(_ descriptors: inout Descriptors) {
        descriptors.stdinBacklog.removeAll()
        unregisterWritable(&descriptors)
    }

    /// Event loop side: stdin is writable (or broken). Flushes what it can; once the backlog
    /// is gone (or the worker stopped reading for good) the loop hears no more of stdin.
    package func flushStdinBacklog() {
        state.withLock { descriptors in
            guard descriptors.stdin >= 0 else { return }
            do {
                try descriptors.stdinBacklog.flush(to: descriptors.stdin)
            } catch {
                // EPIPE: the worker is gone or closed stdin; its death is reported as usual.
                Self.dropBacklog(&descriptors)
                return
            }
            if descriptors.stdinBacklog.isEmpty { Self.unregisterWritable(&descriptors) }
        }
    }
}
