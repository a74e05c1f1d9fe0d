#if canImport(Glibc)
import Glibc
#endif

extension StderrForwarder {
    /// Writes all of `bytes`, waiting as long as the reader makes it wait (this runs on the
    /// forwarder's own thread). A descriptor someone else made non-blocking is polled; an
    /// output that is gone (EPIPE, EBADF) loses the rest of the batch.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                if written < 0 && errno == EINTR { continue }
                if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, -1)
                    continue
                }
                return
            }
        }
    }
}
