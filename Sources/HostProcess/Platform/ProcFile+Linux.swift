import Glibc

/// Small files the kernel generates on read (`/proc`, `/sys`), read whole with plain
/// `read(2)`: their size is unknown beforehand (`stat` says 0), so they are read until EOF,
/// up to a limit.
package enum ProcFile {
    /// The file's bytes, at most `limit` of them (the rest is left unread); nil if it cannot
    /// be opened or a read fails (a process that is gone, a file it may not read).
    package static func bytes(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// The file as text (invalid UTF-8 repaired), at most `limit` bytes of it.
    package static func text(_ path: String, limit: Int = 1 << 20) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }
}
