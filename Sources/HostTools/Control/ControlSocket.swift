import HostProcess
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// Why a control socket cannot be served or reached, in one line.
public struct ControlSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The path or its directory is unacceptable (too long, unsafe permissions): a usage error.
        case badPath
        /// Something at run time: a live host already serves there, no host serves there, I/O.
        case runtime
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A bound, listening control socket. The server takes ownership of the descriptor.
public struct ControlListener: Sendable {
    public let path: String
    package let descriptor: Int32
    /// The socket file's identity, so shutdown removes this socket and never a newer one.
    package let device: UInt64
    package let inode: UInt64
    /// The lock on `path.lock`, held while this listener owns the path (`ControlSocket.listen`).
    package let lockDescriptor: Int32
}

/// Unix socket set-up for the control plane: path checks, bind and connect.
public enum ControlSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maximumPathLength = 107

    /// The environment variable that names the socket when `--socket` is absent.
    public static let environmentVariable = "SCENEHOST_SOCKET"

    /// Binds and listens on `path` with mode 0600.
    ///
    /// Refuses (`.badPath`) a path that does not fit `sun_path`, a directory that is not
    /// owned by the current user or is writable by group or others, and an existing file
    /// that is not a socket. A live socket (a host answers there) is never taken over
    /// (`.runtime`); a stale one (connect is refused) is removed and replaced.
    public static func listen(path: String) throws(ControlSocketError) -> ControlListener {
        var address = try socketAddress(path)
        try checkDirectory(of: path)
        // Probing, removing a stale socket and binding are three steps: two hosts starting
        // at once could each remove the socket the other had just bound, and both serve,
        // one of them at a path nobody can reach. A lock on `PATH.lock`, held for as long as
        // the socket is served (and released only after the socket file is removed), makes
        // the three one. The lock file stays: removing it would reopen the race.
        let lockDescriptor = try lockPath(path)
        do throws(ControlSocketError) {
            return try listen(path: path, address: &address, lockDescriptor: lockDescriptor)
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
    }

    /// Takes the lock on `path.lock`: its descriptor, or "already serving" when another host
    /// holds it.
    private static func lockPath(_ path: String) throws(ControlSocketError) -> Int32 {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ControlSocketError(.runtime, "cannot open the socket's lock file \(lockPath): \(errorText())")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            Glibc.close(descriptor)
            throw ControlSocketError(.badPath, "\(lockPath) is not a regular file of yours; refusing to use it")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            if code == EWOULDBLOCK {
                throw ControlSocketError(
                    .runtime,
                    "a host is already serving on \(path), or starting there (stop it with hostctl quit --socket \(path))"
                )
            }
            throw ControlSocketError(.runtime, "cannot lock \(lockPath): \(errorText(code))")
        }
        return descriptor
    }

    private static func listen(
        path: String,
        address: inout sockaddr_un,
        lockDescriptor: Int32
    ) throws(ControlSocketError) -> ControlListener {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw ControlSocketError(.badPath, "\(path) exists and is not a socket; refusing to replace it")
            }
            switch probe(&address) {
            case .live:
                throw ControlSocketError(
                    .runtime,
                    "a host is already serving on \(path) (stop it with hostctl quit --socket \(path))"
                )
            case .stale:
                if unlink(path) != 0 && errno != ENOENT {
                    throw ControlSocketError(.runtime, "cannot remove stale socket \(path): \(errorText())")
                }
            case .failed(let code):
                throw ControlSocketError(.runtime, "cannot check existing socket \(path): \(errorText(code))")
            }
        } else if errno != ENOENT {
            throw ControlSocketError(.runtime, "cannot inspect \(path): \(errorText())")
        }

        let descriptor = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue),
            0
        )
        guard descriptor >= 0 else { throw ControlSocketError(.runtime, "cannot create socket: \(errorText())") }
        // 0600 from the start: chmod after bind would leave a window with the umask's mode.
        let previousMask = umask(0o177)
        let bound = withSocketAddress(&address) { bind(descriptor, $0, $1) }
        let bindError = errno
        umask(previousMask)
        guard bound == 0 else {
            Glibc.close(descriptor)
            if bindError == EADDRINUSE {
                throw ControlSocketError(.runtime, "a host is already serving on \(path)")
            }
            throw ControlSocketError(.runtime, "cannot bind \(path): \(errorText(bindError))")
        }
        guard Glibc.listen(descriptor, 128) == 0, stat(path, &info) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            unlink(path)
            throw ControlSocketError(.runtime, "cannot listen on \(path): \(errorText(code))")
        }
        return ControlListener(
            path: path,
            descriptor: descriptor,
            device: UInt64(info.st_dev),
            inode: UInt64(info.st_ino),
            lockDescriptor: lockDescriptor
        )
    }

    /// Connects to a serving host; the descriptor is blocking and close-on-exec.
    public static func connect(path: String) throws(ControlSocketError) -> Int32 {
        var address = try socketAddress(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlSocketError(.runtime, "cannot create socket: \(errorText())") }
        var rc: Int32
        repeat {
            rc = withSocketAddress(&address) { Glibc.connect(descriptor, $0, $1) }
        } while rc != 0 && errno == EINTR
        guard rc == 0 else {
            let code = errno
            Glibc.close(descriptor)
            var info = stat()
            switch code {
            case ECONNREFUSED where lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFSOCK:
                // `serve` would refuse this path too: the advice below cannot work.
                throw ControlSocketError(
                    .badPath,
                    "\(path) is not a socket, so no host serves there; name the socket a hostctl serve made "
                        + "(--socket or SCENEHOST_SOCKET)"
                )
            case ENOENT, ECONNREFUSED:
                let start: String
                do {
                    try checkDirectory(of: path)
                    start = "start one with hostctl serve --socket \(path)"
                } catch {
                    // `serve` would refuse this directory: advice that cannot work is no advice.
                    start = "no host can serve there (\(error.message))"
                }
                throw ControlSocketError(.runtime, "no host is serving on \(path) (\(errorText(code))); \(start)")
            default:
                throw ControlSocketError(.runtime, "cannot connect to \(path): \(errorText(code))")
            }
        }
        return descriptor
    }

    /// Closes a listener no server took over, and removes its socket file.
    public static func close(_ listener: ControlListener) {
        Glibc.close(listener.descriptor)
        remove(listener)
    }

    /// Removes the socket file if it is still the one `listener` created.
    package static func remove(_ listener: ControlListener) {
        // The lock goes last: the next host may take the path once this one has let go of it.
        defer { Glibc.close(listener.lockDescriptor) }
        var info = stat()
        guard lstat(listener.path, &info) == 0, UInt64(info.st_dev) == listener.device,
            UInt64(info.st_ino) == listener.inode
        else { return }
        unlink(listener.path)
    }

    // MARK: Helpers

    private enum Probe {
        case live, stale
        case failed(Int32)
    }

    /// Whether a host answers at `address` (a non-blocking connect never waits).
    private static func probe(_ address: inout sockaddr_un) -> Probe {
        let descriptor = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue),
            0
        )
        guard descriptor >= 0 else { return .failed(errno) }
        defer { Glibc.close(descriptor) }
        var rc: Int32
        repeat {
            rc = withSocketAddress(&address) { Glibc.connect(descriptor, $0, $1) }
        } while rc != 0 && errno == EINTR
        if rc == 0 { return .live }
        switch errno {
        case EAGAIN, EINPROGRESS: return .live  // a full backlog: someone listens
        case ECONNREFUSED, ENOENT: return .stale
        case let code: return .failed(code)
        }
    }

    private static func socketAddress(_ path: String) throws(ControlSocketError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw ControlSocketError(.badPath, "the socket path is empty") }
        guard !bytes.contains(0) else { throw ControlSocketError(.badPath, "the socket path contains a NUL byte") }
        guard bytes.count <= maximumPathLength else {
            throw ControlSocketError(
                .badPath,
                "socket path is \(bytes.count) bytes, longer than the \(maximumPathLength) a Unix socket allows: \(path)"
            )
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return address
    }

    private static func withSocketAddress<Result>(
        _ address: inout sockaddr_un,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The socket's directory must be the user's own and closed to everyone else: anyone who
    /// can write there could replace the socket between our checks and a client's connect.
    private static func checkDirectory(of path: String) throws(ControlSocketError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let advice = "use a private directory such as $XDG_RUNTIME_DIR or one made with mkdir -m 700"
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw ControlSocketError(.badPath, "cannot use directory \(directory): \(errorText())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ControlSocketError(.badPath, "\(directory) is not a directory")
        }
        guard info.st_uid == geteuid() else {
            throw ControlSocketError(
                .badPath,
                "directory \(directory) is owned by uid \(info.st_uid), not by you (uid \(geteuid())); \(advice)"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            let who = info.st_mode & 0o002 != 0 ? "others" : "its group"
            throw ControlSocketError(.badPath, "directory \(directory) is writable by \(who); \(advice)")
        }
    }

    package static func errorText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
