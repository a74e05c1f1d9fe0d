import Glibc
import SceneModel
import Synchronization

/// The system calls through which the session store changes its files, so that a test can
/// make one of them fail as a full or broken disk would (`ENOSPC`, `EIO`). Production uses
/// `StateFileOperations.system`.
package struct StateFileOperations: Sendable {
    package var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    /// Of files and of the held directories alike (every `fsync` the store makes).
    package var fsync: @Sendable (_ descriptor: Int32) -> Int32
    /// `renameat` within one held directory.
    package var rename: @Sendable (_ directory: Int32, _ from: String, _ to: String) -> Int32
    /// `unlinkat` of a file in one held directory.
    package var unlink: @Sendable (_ directory: Int32, _ name: String) -> Int32

    package static let system = StateFileOperations(
        write: { Glibc.write($0, $1.baseAddress, $1.count) },
        fsync: { Glibc.fsync($0) },
        rename: { Glibc.renameat($0, $1, $0, $2) },
        unlink: { Glibc.unlinkat($0, $1, 0) }
    )
}

/// How the store touches the files of its state directory, safely against a directory
/// someone else could write to, against files planted in it, and against the directory
/// being swapped for another while the host runs.
///
/// - The directory and its `sessions/` and `discarded/` must be the current user's own and
///   not writable by group or others, like the control socket's directory: anyone else who can
///   write there could plant a symlink that makes the host (perhaps root) overwrite a file
///   of their choosing. Its parents must not be writable by anyone but root and the user
///   either (a sticky directory such as /tmp excepted), or another user could swap it.
/// - The store holds `sessions/` and `discarded/` open from its start and works relative to
///   them (`openat`, `renameat`, `unlinkat`): a path swapped for a symlink afterwards is never
///   followed.
/// - Every file is opened with `O_NOFOLLOW`; a temporary file is created with
///   `O_CREAT | O_EXCL` under a name no other file has, so nothing planted is ever opened
///   for writing.
/// - A file read at start is opened with `O_NONBLOCK` (a FIFO would block the open for
///   ever) and read only if `fstat` says it is a regular file.
package enum StateFiles {
    /// The prefix of every temporary file: a session file or a discard marker is named
    /// after a session identifier, and an identifier never starts with `.`, so a temporary
    /// can never be mistaken for one (or one for a temporary), whatever the identifier.
    package static let temporaryPrefix = ".tmp-"

    /// Throws `unsafeStateDirectory` unless `path` is a directory (not a symlink, when
    /// `followingSymlink` is false) owned by the current user and not writable by group or others.
    package static func checkPrivateDirectory(_ path: String, followingSymlink: Bool) throws(HostError) {
        var info = stat()
        let status = followingSymlink ? stat(path, &info) : lstat(path, &info)
        guard status == 0 else {
            throw HostError.unsafeStateDirectory(path: path, reason: "cannot inspect it: \(errorText())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a directory"
            throw HostError.unsafeStateDirectory(path: path, reason: "it is \(what)")
        }
        guard info.st_uid == geteuid() else {
            throw HostError.unsafeStateDirectory(
                path: path,
                reason: "it is owned by uid \(info.st_uid), not by you (uid \(geteuid()))"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            let who = info.st_mode & 0o002 != 0 ? "others" : "its group"
            throw HostError.unsafeStateDirectory(path: path, reason: "it is writable by \(who)")
        }
    }

    /// Creates the directory `path` (mode 0700) if it does not exist, then checks it.
    package static func makePrivateDirectory(_ path: String, followingSymlink: Bool) throws(HostError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw HostError.io("cannot create state directory \(path): \(errorText())")
        }
        try checkPrivateDirectory(path, followingSymlink: followingSymlink)
    }

    /// Throws `unsafeStateDirectory` when an ancestor of `path` (as it resolves) may be
    /// written by a user other than root and the current one, and is not sticky: that user
    /// could rename the state directory away and put a symlink in its place.
    package static func checkParents(of path: String) throws(HostError) {
        guard let resolved = realpath(path, nil) else { return }
        var current = String(cString: resolved)
        free(resolved)
        while let slash = current.lastIndex(of: "/"), current != "/" {
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            var info = stat()
            guard stat(current, &info) == 0 else { continue }
            let sticky = info.st_mode & S_ISVTX != 0
            let othersMayWrite = info.st_mode & 0o022 != 0 && !sticky
            let ownerIsStranger = info.st_uid != 0 && info.st_uid != geteuid()
            if othersMayWrite || ownerIsStranger {
                let why = ownerIsStranger ? "is owned by uid \(info.st_uid)" : "is writable by group or others"
                throw HostError.unsafeStateDirectory(
                    path: path,
                    reason: "its parent \(current) \(why), so the directory could be swapped for another"
                )
            }
        }
    }

    /// Creates `name` (mode 0700) in the held directory `parent` if it does not exist, and
    /// opens it, never through a symlink; throws unless it is the user's own and private.
    /// `path`: how messages name it. Returns the held descriptor.
    package static func openPrivateSubdirectory(
        _ name: String,
        in parent: Int32,
        path: String
    ) throws(HostError) -> Int32 {
        if mkdirat(parent, name, 0o700) != 0 && errno != EEXIST {
            throw HostError.io("cannot create state directory \(path): \(errorText())")
        }
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            let reason =
                if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFDIR {
                    info.st_mode & S_IFMT == S_IFLNK ? "it is a symbolic link" : "it is not a directory"
                } else {
                    errorText(code)
                }
            throw HostError.unsafeStateDirectory(path: path, reason: reason)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw HostError.unsafeStateDirectory(path: path, reason: "cannot inspect it: \(errorText())")
        }
        guard info.st_uid == geteuid() else {
            close(descriptor)
            throw HostError.unsafeStateDirectory(
                path: path,
                reason: "it is owned by uid \(info.st_uid), not by you (uid \(geteuid()))"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            close(descriptor)
            let who = info.st_mode & 0o002 != 0 ? "others" : "its group"
            throw HostError.unsafeStateDirectory(path: path, reason: "it is writable by \(who)")
        }
        return descriptor
    }

    /// Replaces `directory/name` with `bytes` atomically and durably: a new temporary file
    /// (`O_EXCL | O_NOFOLLOW`, a name of its own), written whole, `fsync`ed, renamed over
    /// `name`, then the directory `fsync`ed. The rename is the commit point: before it
    /// nothing at `name` changed and the temporary file is removed again; after it the new
    /// content is in place (a failed `fsync` of the directory is not reported: the content
    /// is the new one, and an error cannot undo the rename).
    ///
    /// Throws `what` (given the failure) when anything before the rename fails.
    /// `directory`: the held descriptor; `path`: how messages name it.
    package static func writeAtomically(
        _ bytes: [UInt8],
        to name: String,
        in directory: Int32,
        path: String,
        operations: StateFileOperations,
        failure what: (String) -> HostError
    ) throws(HostError) {
        let temporaryName = temporaryName(for: name)
        let temporary = path + "/" + temporaryName
        let descriptor = openat(directory, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw what("cannot create \(temporary): \(errorText())") }
        var failure: String?
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = operations.write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write \(temporary): \(errorText())"
                    return
                }
                offset += written
            }
        }
        if failure == nil, operations.fsync(descriptor) != 0 {
            failure = "cannot write \(temporary) to disk: \(errorText())"
        }
        close(descriptor)
        if failure == nil, operations.rename(directory, temporaryName, name) != 0 {
            failure = "cannot rename \(temporary) to \(name): \(errorText())"
        }
        if let failure {
            unlinkat(directory, temporaryName, 0)
            throw what(failure)
        }
        // Through `operations` like the file's: a test then sees this fsync, and its absence.
        _ = operations.fsync(directory)
    }

    /// A temporary name for `name` no other file has: the prefix, the name, this process and
    /// a counter (`O_EXCL` refuses anything already there, planted or left by a crash).
    private static func temporaryName(for name: String) -> String {
        let number = temporaryCounter.add(1, ordering: .relaxed).oldValue
        return "\(temporaryPrefix)\(name).\(getpid()).\(number)"
    }

    /// Removes the temporary files a crashed store left in the held `directory` (never
    /// anything else).
    package static func removeTemporaries(in directory: Int32) {
        for name in listDirectory(directory) where name.hasPrefix(temporaryPrefix) {
            unlinkat(directory, name, 0)
        }
    }

    /// The file `name` in the held `directory`, at most `limit` bytes, if it is a regular
    /// file (a symlink, FIFO, device or directory is refused without blocking); otherwise why not.
    package static func readRegularFile(
        _ name: String,
        in directory: Int32,
        limit: Int
    ) -> Result<[UInt8], ReadFailure> {
        let descriptor = openat(directory, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(errno == ELOOP ? .notRegular("a symbolic link") : .unreadable(errorText()))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(errorText())) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(fileTypeName(info.st_mode))) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failure(.unreadable(errorText())) }
            if count == 0 { return .success(result) }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit { return .failure(.tooLarge) }
        }
    }

    package enum ReadFailure: Error {
        case notRegular(String)
        case unreadable(String)
        case tooLarge
    }

    /// The names in the held `directory` (read through a descriptor of its own, which
    /// `closedir` closes).
    package static func listDirectory(_ held: Int32) -> [String] {
        let descriptor = openat(held, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func fileTypeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    package static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}

private let temporaryCounter = Atomic<Int>(0)
