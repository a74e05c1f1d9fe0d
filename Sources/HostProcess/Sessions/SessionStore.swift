import Glibc
import Protocol
import Synchronization

/// Keeps scene sessions, durably when it has a state directory.
///
/// Each session is one JSON file `sessions/<id>.json`, replaced atomically: write a
/// temporary file, fsync it, rename it over the old one, fsync the directory. A discard
/// requested while no host runs is a file `discarded/<id>`, reported at the next launch.
///
/// A store with a directory holds it exclusively (`<dir>/lock`, see `StateDirectoryLock`)
/// from `init` until `close()` or its deinit: a second store or host on the same directory
/// fails with `HostError.stateDirectoryInUse` instead of loading, renaming or writing the
/// files of a live host.
public final class SessionStore: Sendable {
    private let directory: String?
    /// Held while the store may touch `directory`; nil for a memory-only store.
    private let lock: StateDirectoryLock?
    private let sessions: Locked<[String: SceneSession]>
    /// Names (in `sessions/`) of damaged files that could not be kept aside: they are still
    /// in place, so the store never replaces nor deletes them (that would lose them).
    private let damagedInPlace: Set<String>
    /// Session files found damaged when the store opened, each kept aside under a name of
    /// its own (or, if that failed, left in place and said so).
    public let damagedFiles: [DamagedSessionFile]

    /// Opens the store in `directory` (created if needed), or a memory-only store for nil.
    /// Throws `stateDirectoryInUse` while another store or host holds the directory.
    public convenience init(directory: String?) throws(HostError) {
        try self.init(directory: directory, renameFile: { rename($0, $1) })
    }

    /// `renameFile` keeps a damaged file aside (`rename(2)`; a test makes it fail).
    init(directory: String?, renameFile: (String, String) -> Int32) throws(HostError) {
        self.directory = directory
        var lock: StateDirectoryLock?
        var loaded: [String: SceneSession] = [:]
        var damaged: [DamagedSessionFile] = []
        var inPlace: Set<String> = []
        if let directory {
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw HostError.io("cannot create state directory \(directory): \(String(cString: strerror(errno)))")
            }
            // Before anything is read or renamed: the files of a live host are its own.
            lock = try StateDirectoryLock(directory: directory)
            for path in [directory + "/sessions", directory + "/discarded"] {
                if mkdir(path, 0o700) != 0 && errno != EEXIST {
                    throw HostError.io("cannot create state directory \(path): \(String(cString: strerror(errno)))")
                }
            }
            // Only `<id>.json` is a session file: names kept aside end in `.damaged` or
            // `.damaged.N` and are never loaded again (nor deleted: `delete` names its file).
            for name in Self.listDirectory(directory + "/sessions").sorted() where name.hasSuffix(".json") {
                let path = directory + "/sessions/" + name
                switch Self.load(path: path, name: name) {
                case .session(let session):
                    loaded[session.identifier] = session
                case .damaged(let reason):
                    // Keep a damaged file aside instead of losing it or refusing to start.
                    let disposition = Self.keepAside(path, renameFile: renameFile)
                    if case .leftInPlace = disposition { inPlace.insert(name) }
                    damaged.append(DamagedSessionFile(path: path, disposition: disposition, reason: reason))
                }
            }
            // The renames survive a crash (else the next start finds the file again, harmlessly).
            if !damaged.isEmpty { Self.syncDirectory(directory + "/sessions") }
        }
        self.lock = lock
        self.sessions = Locked(loaded)
        self.damagedInPlace = inPlace
        self.damagedFiles = damaged
    }

    /// The session with `identifier`, if it exists.
    public func session(_ identifier: String) -> SceneSession? {
        sessions.withLock { $0[identifier] }
    }

    /// Every stored session.
    public var allSessions: [SceneSession] {
        sessions.withLock { Array($0.values) }.sorted { $0.identifier < $1.identifier }
    }

    /// Stores `session`; returns once it is durable.
    public func save(_ session: SceneSession) throws(HostError) {
        // The identifier is a file name: nothing that could leave `sessions/`.
        guard SceneSession.isValidIdentifier(session.identifier) else {
            throw HostError.invalidSceneIdentifier(session.identifier)
        }
        let name = session.identifier + ".json"
        guard !damagedInPlace.contains(name) else {
            throw HostError.io(
                "cannot store session \(session.identifier): sessions/\(name) is a damaged file that could not be kept aside, "
                    + "and it is never replaced (move it away, then restart the host)"
            )
        }
        sessions.withLock { $0[session.identifier] = session }
        guard let directory, let lock else { return }
        var bytes: [UInt8] = []
        JSONWriter.write(session.json, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        try lock.whileHeld { () throws(HostError) in
            try Self.writeAtomically(bytes, to: directory + "/sessions/" + name, in: directory + "/sessions")
        }
    }

    /// Deletes the session (after `didDiscardSceneSessions`). Once the store is closed it
    /// only forgets the session in memory: the directory may belong to another host by then.
    public func delete(_ identifier: String) {
        sessions.withLock { _ = $0.removeValue(forKey: identifier) }
        guard let directory, let lock, SceneSession.isValidIdentifier(identifier) else { return }
        try? lock.whileHeld { () throws(HostError) in
            if !damagedInPlace.contains(identifier + ".json") {
                unlink(directory + "/sessions/" + identifier + ".json")
            }
            unlink(directory + "/discarded/" + identifier)
            Self.syncDirectory(directory + "/sessions")
        }
    }

    /// Records a discard requested while no host runs the store. A directory a live host
    /// holds cannot be marked: opening a store on it throws `stateDirectoryInUse`.
    public func markDiscarded(_ identifier: String) throws(HostError) {
        guard SceneSession.isValidIdentifier(identifier) else { throw HostError.invalidSceneIdentifier(identifier) }
        guard let directory, let lock else { return }
        try lock.whileHeld { () throws(HostError) in
            try Self.writeAtomically([], to: directory + "/discarded/" + identifier, in: directory + "/discarded")
        }
    }

    /// Discards recorded while no host ran, to report at launch.
    public var pendingDiscards: [String] {
        guard let directory else { return [] }
        return Self.listDirectory(directory + "/discarded").filter(SceneSession.isValidIdentifier).sorted()
    }

    /// Releases the state directory at once (it is also released when the store is
    /// deinitialized): another store or host may open it. A write under way finishes first;
    /// later `save` and `markDiscarded` throw, and `delete` only forgets in memory.
    /// `SceneHost.quit()` closes its store, so a host can be restarted in the same process.
    public func close() {
        lock?.release()
    }

    // MARK: Files

    private static func writeAtomically(_ bytes: [UInt8], to path: String, in directory: String) throws(HostError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HostError.io("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var offset = 0
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += n
            }
            return false
        }
        if failed || fsync(fd) != 0 {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            unlink(temporary)
            throw HostError.io("cannot write \(temporary): \(message)")
        }
        Glibc.close(fd)
        guard rename(temporary, path) == 0 else {
            throw HostError.io("cannot rename \(temporary): \(String(cString: strerror(errno)))")
        }
        syncDirectory(directory)
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        Glibc.close(fd)
    }

    private static func listDirectory(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." && !name.hasSuffix(".tmp") { names.append(name) }
        }
        return names
    }
}
