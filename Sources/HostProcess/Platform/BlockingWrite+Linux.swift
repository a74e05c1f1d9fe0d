#if canImport(Glibc)
import Glibc
#endif

/// Writes to a descriptor that blocks (a file, or a pipe its reader always drains).
package enum BlockingWrite {
    /// Writes all of `bytes` to `descriptor`, going on after short writes and EINTR: nil, or
    /// the errno of the write that failed (EIO for one that wrote nothing).
    package static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        prefix(bytes, to: descriptor).error
    }

    /// `all`, also saying how many bytes were written before a write failed (all of them
    /// when none did).
    package static func prefix(
        _ bytes: UnsafeRawBufferPointer,
        to descriptor: Int32
    ) -> (written: Int, error: Int32?) {
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if n == 0 { return (offset, EIO) }
            offset += n
        }
        return (offset, nil)
    }
}
