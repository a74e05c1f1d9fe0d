import Protocol

#if canImport(Glibc)
import Glibc
#endif

/// Collects the encoded frames of one batch in one reusable buffer and writes them with a
/// single write(2) loop: partial writes continue, EINTR retries, EAGAIN waits for the pipe,
/// and EPIPE/EBADF (the host is gone) end the process quietly with status 0.
@MainActor
final class OutputWriter {
    let fileDescriptor: Int32
    /// Unchecked exclusivity: changed in place only by encoders and `removeAll`, which call
    /// out to nothing (the runtime's check cost about 100 instructions per message).
    @exclusivity(unchecked) private(set) var pending: [UInt8] = []

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        pending.reserveCapacity(16 * 1024)
    }

    /// Encodes every message `sink` holds into the pending buffer; `foldingReplies`: see
    /// `CallbackSink.drain`.
    func take(from sink: CallbackSink, foldingReplies: Bool) {
        sink.drain(foldingReplies: foldingReplies) { message in
            message.encode(into: &pending)
        }
    }

    /// Encodes every message `sink` holds into the pending buffer, each tagged with `scene`
    /// (a scene of an app process, `SceneTag`).
    /// `tag`: the scene's tag from an earlier call, or empty (then it is filled in).
    func take(from sink: CallbackSink, foldingReplies: Bool, scene: String, tag: inout [UInt8]) {
        sink.drain(foldingReplies: foldingReplies) { message in
            let start = pending.count
            message.encode(into: &pending)
            SceneTag.tagFrame(at: start, in: &pending, scene: scene, tag: &tag)
        }
    }

    /// Appends raw bytes (only `--garbage` needs this).
    func appendRaw(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
    }

    /// Whether the main thread is inside `flush`: an exit from there (its own on a closed
    /// pipe, a signal handler's) must not write the same bytes again at exit.
    nonisolated(unsafe) static var isWriting = false

    /// Writes everything pending, then empties the buffer (keeping its storage).
    func flush() {
        guard !pending.isEmpty else { return }
        Self.isWriting = true
        Self.writeAll(pending, to: fileDescriptor)
        Self.isWriting = false
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to `fd`. Nonisolated, with its closure: a closure of the main
    /// actor's passed to `withUnsafeBytes` checked at run time that it ran on the main
    /// thread, on every flush.
    private nonisolated static func writeAll(_ bytes: borrowing [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`.
    nonisolated static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, -1)
            case EPIPE, EBADF:
                exit(0)
            default:
                let code = errno
                writeError("scenehost worker: write to the host failed: \(String(cString: strerror(code)))")
                exit(1)
            }
        }
    }
}

/// Writes one line to stderr (best effort).
func writeError(_ line: String) {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(2, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
