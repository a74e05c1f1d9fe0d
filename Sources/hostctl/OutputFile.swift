import Glibc

/// Writes a command's whole output file so that a failed write leaves what was there: into a
/// new temporary file beside the target (`O_EXCL`), `fsync`, then `rename` over it, with the
/// old file's permissions. A symlink keeps pointing where it did (its target is replaced). A
/// path that names something other than a regular file (a FIFO, a terminal, `/dev/stdout`) is
/// written in place: there is no earlier content to keep. So is a file in a directory where
/// nothing can be made beside it, or that cannot be renamed over (another user's, in `/tmp`).
enum OutputFile {
    /// The write failed: `path` is what could not be made or written.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        var info = stat()
        // Followed as the kernel follows it (`/dev/stdout`'s link to a pipe included): what
        // is not a regular file is written in place.
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return try writeInPlace(bytes, to: path, creating: false)
        }
        guard let target = OutputPaths.realLocation(path) else { throw WriteError(path: path, errno: ELOOP) }
        let exists = stat(target, &info) == 0
        let temporary = target + ".tmp-\(getpid())"
        let mode = exists ? info.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else {
            // A file the user may write in a directory they may not: replaced in place, as
            // nothing beside it can be made.
            if exists, [EACCES, EPERM, EROFS].contains(errno) {
                return try writeInPlace(bytes, to: target, creating: true)
            }
            throw WriteError(path: temporary, errno: errno)
        }
        // The umask applies to `open` only: the file being replaced keeps its own mode.
        var failure = exists && fchmod(descriptor, mode) != 0 ? errno : 0
        if failure == 0 { failure = writeAll(bytes, to: descriptor) }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            // Another user's file in a sticky directory (`/tmp`) cannot be renamed over.
            if exists, failure == EPERM || failure == EACCES {
                return try writeInPlace(bytes, to: target, creating: true)
            }
            throw WriteError(path: path, errno: failure)
        }
    }

    /// Writes `bytes` to `path` itself (truncated when `creating`, as a file is).
    private static func writeInPlace(_ bytes: [UInt8], to path: String, creating: Bool) throws(WriteError) {
        let flags = O_WRONLY | O_CLOEXEC | (creating ? O_CREAT | O_TRUNC : 0)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, errno: errno) }
        let failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0 && failure == 0 { throw WriteError(path: path, errno: errno) }
        if failure != 0 { throw WriteError(path: path, errno: failure) }
    }

    /// Writes every byte; the errno of a failure, 0 when all were written.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }
}
