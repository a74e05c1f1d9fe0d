import Glibc

/// A trace file opened for reading, as `verify` and `timeline` take one: `-` is stdin.
package enum TraceFileInput {
    /// Why a trace file could not be opened: the command line's mistake (exit 2).
    package struct CannotOpen: Error {
        package let reason: String
    }

    /// The descriptor of `path` (0 for `-`, which the caller must not close). A directory
    /// opens, and fails only at its first read: it is refused here, as a missing file is.
    package static func descriptor(_ path: String) throws(CannotOpen) -> Int32 {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CannotOpen(reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            if descriptor != 0 { close(descriptor) }
            throw CannotOpen(reason: "is a directory")
        }
        return descriptor
    }
}
