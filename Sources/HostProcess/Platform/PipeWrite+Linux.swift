import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

/// Writes to a pipe whose reader may stop reading, without ever blocking in write(2), so that
/// the writer can be told to give up (`stop` becomes readable) while the pipe is full.
///
/// The descriptor stays blocking (it may be shared: `--trace /dev/stdout`). A write waits
/// in poll(2) until the pipe has a free page, then writes no more than is sure to fit: the
/// whole pipe when it is empty, else one page (`PIPE_BUF`), since a free page takes that
/// much whatever the others hold. Writes end on a newline when one is in reach, so a writer
/// that gives up between two leaves whole lines (but a line longer than a write).
package enum PipeWrite {
    /// Writes `bytes`: how many were written, and nil, the errno of the write that failed,
    /// or ECANCELED when `stop` became readable first.
    package static func prefix(
        _ bytes: UnsafeRawBufferPointer,
        to descriptor: Int32,
        capacity: Int,
        unless stop: Int32
    ) -> (written: Int, error: Int32?) {
        guard let base = bytes.baseAddress else { return (0, nil) }
        var offset = 0
        while offset < bytes.count {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if descriptors[1].revents != 0 { return (offset, ECANCELED) }
            // POLLERR (the reader is gone) lets the write fail with EPIPE.
            let room = csh_pipe_unread(descriptor) == 0 ? max(capacity, Int(PIPE_BUF)) : Int(PIPE_BUF)
            var count = min(room, bytes.count - offset)
            if count < bytes.count - offset {
                let window = UnsafeRawBufferPointer(start: base + offset, count: count)
                if let newline = window.lastIndex(of: UInt8(ascii: "\n")) { count = newline + 1 }
            }
            let written = write(descriptor, base + offset, count)
            if written < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if written == 0 { return (offset, EIO) }
            offset += written
        }
        return (offset, nil)
    }

    /// The pipe's size when `descriptor` is a pipe, else nil.
    package static func capacity(of descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return nil }
        let capacity = csh_pipe_capacity(descriptor)
        return capacity > 0 ? Int(capacity) : Int(PIPE_BUF)
    }
}
