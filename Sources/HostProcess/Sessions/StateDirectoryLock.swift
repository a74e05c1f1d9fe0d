import Glibc
import SceneModel

/// One host's exclusive hold on a state directory: `flock(LOCK_EX | LOCK_NB)` on the directory
/// itself and on `<dir>/lock`, which names the holder's pid.
///
/// The directory's lock is what keeps a second host out: removing or replacing `lock` under a
/// running host (a file anyone may delete by hand) gives a newcomer a fresh file to lock, not
/// the directory. The file's lock is what hosts before this one took, and still keeps them out.
///
/// `flock` rather than `fcntl` locks: an `flock` belongs to the open file description, so a
/// second store in the same process conflicts like one in another process (an `fcntl` lock
/// is per process and would let two stores of one process share the directory), and it goes
/// away by itself when the holder dies, even by SIGKILL, so a crash never leaves a stale lock
/// to clean up. The descriptor is close-on-exec: a worker spawned while the lock is held must
/// not keep the directory locked after the host is gone.
///
/// The lock is given up with an explicit `LOCK_UN`, never by `close` alone: a process that
/// another thread spawns at that moment shares the descriptor (and so the lock) from its
/// fork until its exec, and a bare `close` would leave the directory locked until then; a
/// host restarted in the same process would find it in use.
///
/// Writes run inside `whileHeld`. `release()` lets go of the directory once the writes in
/// flight are done (the last one out unlocks), so nothing is ever written to the directory
/// without the lock.
package final class StateDirectoryLock: Sendable {
    package let directory: String
    private struct State {
        /// The lock file's; -1 once released.
        package var descriptor: Int32
        /// The directory's.
        package var directoryDescriptor: Int32
        package var writers = 0
        package var released = false
    }
    private let state: Locked<State>

    /// Takes the lock, or throws `stateDirectoryInUse` naming the holder's pid.
    package init(directory: String) throws(HostError) {
        let path = directory + "/lock"
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw HostError.io("cannot open \(directory): \(String(cString: strerror(errno)))")
        }
        // Never through a planted symlink, and never blocking on a planted FIFO; in the
        // directory just opened, whatever its path names by now.
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let descriptor = openat(directoryDescriptor, "lock", flags, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            close(directoryDescriptor)
            if code == ELOOP { throw HostError.unsafeStateDirectory(path: path, reason: "it is a symbolic link") }
            throw HostError.io("cannot open \(path): \(String(cString: strerror(code)))")
        }
        // The pid is written into it and it is truncated: it must be this directory's own
        // file, not a hard link to a file elsewhere.
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            close(directoryDescriptor)
            throw HostError.unsafeStateDirectory(path: path, reason: "it is not a regular file")
        }
        guard info.st_nlink == 1, info.st_uid == geteuid() else {
            close(descriptor)
            close(directoryDescriptor)
            let reason =
                info.st_nlink != 1
                ? "it has \(info.st_nlink) hard links"
                : "it is owned by uid \(info.st_uid), not by you (uid \(geteuid()))"
            throw HostError.unsafeStateDirectory(path: path, reason: reason)
        }
        let staleHolderDeadline = ContinuousClock.now + Self.staleHolderGrace
        // The directory first: a host that holds it may have lost its file (`rm DIR/lock`).
        for (locked, name) in [(directoryDescriptor, directory), (descriptor, path)] {
            while flock(locked, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                let holder = code == EWOULDBLOCK ? Self.readHolder(descriptor) : nil
                // The host that wrote its pid is gone, yet the lock is held: a worker it was
                // spawning when it was SIGKILLed still shares the descriptor between its fork
                // and its exec, for microseconds. Wait that out rather than refuse a restart.
                if code == EWOULDBLOCK, let holder, kill(holder, 0) != 0, errno == ESRCH,
                    ContinuousClock.now < staleHolderDeadline
                {
                    usleep(2_000)
                    continue
                }
                Self.unlock(descriptor)
                Self.unlock(directoryDescriptor)
                if code == EWOULDBLOCK { throw HostError.stateDirectoryInUse(directory: directory, pid: holder) }
                throw HostError.io("cannot lock \(name): \(String(cString: strerror(code)))")
            }
        }
        // The pid is only for the message of a host that finds the directory taken. Written
        // first and truncated after, so such a host never reads an empty file in between (it
        // reads the first line). Not fsynced: after a crash the lock is gone anyway.
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(text.count))
        self.directory = directory
        self.state = Locked(State(descriptor: descriptor, directoryDescriptor: directoryDescriptor))
    }

    deinit {
        // Every `whileHeld` holds a reference, so no write is in flight here.
        let (descriptor, directoryDescriptor) = state.withLock { ($0.descriptor, $0.directoryDescriptor) }
        if descriptor >= 0 {
            Self.unlock(descriptor)
            Self.unlock(directoryDescriptor)
        }
    }

    /// Runs `body`, a write to the directory, while the lock is held; throws if it was released.
    package func whileHeld<Result>(_ body: () throws(HostError) -> Result) throws(HostError) -> Result {
        let entered = state.withLock { state in
            guard !state.released else { return false }
            state.writers += 1
            return true
        }
        guard entered else {
            throw HostError.io("state directory \(directory) was released by its host; nothing more is written there")
        }
        defer {
            state.withLock { state in
                state.writers -= 1
                Self.closeIfDone(&state)
            }
        }
        return try body()
    }

    /// Lets go of the directory once the writes in flight are done; later writes throw.
    package func release() {
        state.withLock { state in
            state.released = true
            Self.closeIfDone(&state)
        }
    }

    private static func closeIfDone(_ state: inout State) {
        guard state.released, state.writers == 0, state.descriptor >= 0 else { return }
        unlock(state.descriptor)
        unlock(state.directoryDescriptor)
        state.descriptor = -1
        state.directoryDescriptor = -1
    }

    private static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// How long a lock whose recorded holder is dead may stay held before the directory is
    /// reported in use (a dead host's child between fork and exec lets go within microseconds).
    package static let staleHolderGrace: Duration = .seconds(2)

    /// The pid on the first line of the lock file, if there is one.
    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let line = buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }
        guard let pid = Int32(String(decoding: line, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }
}
