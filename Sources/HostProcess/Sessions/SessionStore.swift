import Glibc
import Protocol
import SceneModel
import Synchronization

/// Keeps scene sessions, durably when it has a state directory.
///
/// Each session is one JSON file `sessions/<id>.json`, replaced atomically: write a new
/// temporary file, fsync it, rename it over the old one, fsync the directory. A discard
/// requested while no host runs is a file `discarded/<id>`, reported at the next launch.
/// Temporary files are named `.tmp-…`: an identifier never starts with `.`, so no session
/// or discard can be mistaken for a temporary file, whatever its identifier ends with.
///
/// The directory must be the user's own and closed to others, and no file in it is
/// followed if it is a symlink (`StateFiles`): a host never writes where someone else points it.
///
/// A store with a directory holds it exclusively (`<dir>/lock`, see `StateDirectoryLock`)
/// from `init` until `close()` or its deinit: a second store or host on the same directory
/// fails with `HostError.stateDirectoryInUse` instead of loading, renaming or writing the
/// files of a live host.
public final class SessionStore: Sendable {
    private let directory: String?
    /// Held while the store may touch `directory`; nil for a memory-only store.
    private let lock: StateDirectoryLock?
    /// `sessions/` and `discarded/`, held open from the start: every file operation is
    /// relative to them, so a directory swapped after the start is never written (-1 for a
    /// memory-only store).
    private let sessionsDirectory: Int32
    private let discardedDirectory: Int32
    private let operations: StateFileOperations
    private let sessions: Locked<[String: SceneSession]>
    private let damage: Locked<Damage>
    private let renameFile: @Sendable (Int32, String, String) -> Int32

    /// The damaged files the store found, and the names (in `sessions/`) of those still in
    /// place: the store never replaces nor deletes one of those (that would lose it).
    private struct Damage: Sendable {
        var files: [DamagedSessionFile] = []
        var inPlace: Set<String> = []
    }

    /// Session files found damaged when the store opened, each kept aside under a name of
    /// its own (or, if that failed, left in place and said so), or not touched yet
    /// (`keepDamagedFilesAside()`).
    public var damagedFiles: [DamagedSessionFile] { damage.withLock { $0.files } }

    /// Opens the store in `directory` (created if needed), or a memory-only store for nil.
    /// Throws `stateDirectoryInUse` while another store or host holds the directory, and
    /// `unsafeStateDirectory` for a directory that is not the user's own and private.
    ///
    /// `keepingDamagedFilesAside`: rename each damaged session file aside now; false leaves
    /// them where they are, never replaced, until `keepDamagedFilesAside()` (a host does so
    /// once it has started, so that a host that fails to start changes no file; an offline
    /// discard never does).
    public convenience init(directory: String?, keepingDamagedFilesAside: Bool = true) throws(HostError) {
        try self.init(
            directory: directory,
            renameFile: { renameat($0, $1, $0, $2) },
            keepingDamagedFilesAside: keepingDamagedFilesAside
        )
    }

    /// `renameFile` keeps a damaged file aside (`renameat(2)` within `sessions/`; a test
    /// makes it fail); `operations` writes the files (a test makes them fail as a full disk
    /// would).
    package init(
        directory: String?,
        renameFile: @escaping @Sendable (Int32, String, String) -> Int32,
        operations: StateFileOperations = .system,
        keepingDamagedFilesAside: Bool = true
    ) throws(HostError) {
        self.directory = directory
        self.operations = operations
        self.renameFile = renameFile
        var lock: StateDirectoryLock?
        var loaded: [String: SceneSession] = [:]
        var damaged: [DamagedSessionFile] = []
        var inPlace: Set<String> = []
        var held: (sessions: Int32, discarded: Int32) = (-1, -1)
        if let directory {
            // The directory may be reached through a symlink (the user's choice); what it
            // resolves to must be theirs, and so must the way to it.
            try StateFiles.makePrivateDirectory(directory, followingSymlink: true)
            try StateFiles.checkParents(of: directory)
            // Before anything is read or renamed: the files of a live host are its own.
            lock = try StateDirectoryLock(directory: directory)
            held = try Self.openSubdirectories(of: directory)
            // Only `<id>.json` is a session file: names kept aside end in `.damaged` or
            // `.damaged.N` and are never loaded again (nor deleted: `delete` names its file).
            let names = StateFiles.listDirectory(held.sessions).sorted()
            for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let path = directory + "/sessions/" + name
                switch Self.load(name, in: held.sessions, name: name) {
                case .session(let session):
                    loaded[session.identifier] = session
                case .damaged(let reason):
                    inPlace.insert(name)
                    damaged.append(DamagedSessionFile(path: path, disposition: .untouched, reason: reason))
                }
            }
        }
        self.sessionsDirectory = held.sessions
        self.discardedDirectory = held.discarded
        self.lock = lock
        self.sessions = Locked(loaded)
        self.damage = Locked(Damage(files: damaged, inPlace: inPlace))
        if keepingDamagedFilesAside { keepDamagedFilesAside() }
    }

    /// Renames each damaged session file not touched yet aside (`<name>.damaged`, …), instead
    /// of losing it or refusing to start; one that cannot be renamed stays in place, never
    /// replaced, and says why.
    public func keepDamagedFilesAside() {
        guard let directory, let lock else { return }
        _ = try? lock.whileHeld { () throws(HostError) in
            damage.withLock { damage in
                var renamed = false
                for index in damage.files.indices where damage.files[index].disposition == .untouched {
                    let path = damage.files[index].path
                    // By bytes, not characters: a name that begins with a combining mark would
                    // merge with the `/` into one character, and another file be renamed.
                    let name = String(
                        decoding: path.utf8.dropFirst((directory + "/sessions/").utf8.count),
                        as: UTF8.self
                    )
                    let disposition = Self.keepAside(name, in: sessionsDirectory, path: path, renameFile: renameFile)
                    damage.files[index].disposition = disposition
                    if case .keptAside = disposition {
                        damage.inPlace.remove(name)
                        renamed = true
                    }
                }
                // The renames survive a crash (else the next start finds the file again, harmlessly).
                if renamed { _ = operations.fsync(sessionsDirectory) }
            }
        }
    }

    deinit {
        if sessionsDirectory >= 0 { Glibc.close(sessionsDirectory) }
        if discardedDirectory >= 0 { Glibc.close(discardedDirectory) }
    }

    /// Opens `sessions/` and `discarded/` (created if needed) through one descriptor of the
    /// directory, and removes the temporaries a crashed store left in them.
    private static func openSubdirectories(
        of directory: String
    ) throws(HostError) -> (sessions: Int32, discarded: Int32) {
        let root = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else {
            throw HostError.io("cannot open state directory \(directory): \(StateFiles.errorText())")
        }
        defer { Glibc.close(root) }
        let sessions = try StateFiles.openPrivateSubdirectory("sessions", in: root, path: directory + "/sessions")
        let discarded: Int32
        do {
            discarded = try StateFiles.openPrivateSubdirectory("discarded", in: root, path: directory + "/discarded")
        } catch {
            Glibc.close(sessions)
            throw error
        }
        StateFiles.removeTemporaries(in: sessions)
        StateFiles.removeTemporaries(in: discarded)
        return (sessions, discarded)
    }

    /// True for a store without a state directory: saving and deleting touch only memory,
    /// so they never block and need no thread of their own.
    public var isMemoryOnly: Bool { directory == nil }

    /// The session with `identifier`, if it exists.
    public func session(_ identifier: String) -> SceneSession? {
        sessions.withLock { $0[identifier] }
    }

    /// Every stored session.
    public var allSessions: [SceneSession] {
        sessions.withLock { Array($0.values) }.sorted { $0.identifier < $1.identifier }
    }

    /// Stores `session`; returns once it is durable. Either it is stored, in memory and on
    /// disk, or nothing changed and it throws (`sessionNotStored` for a full disk or an I/O
    /// error): the memory is updated only after the new file was renamed into place.
    /// (Saves of one session come one after another, from its scene; the store does not
    /// order concurrent saves of the same session.)
    public func save(_ session: SceneSession) throws(HostError) {
        // The identifier is a file name: nothing that could leave `sessions/`.
        guard SceneSession.isValidIdentifier(session.identifier) else {
            throw HostError.invalidSceneIdentifier(session.identifier)
        }
        let name = session.identifier + ".json"
        guard !damage.withLock({ $0.inPlace.contains(name) }) else {
            throw HostError.sessionNotStored(
                scene: session.identifier,
                reason: "sessions/\(name) is a damaged file that could not be kept aside, "
                    + "and it is never replaced (move it away, then restart the host)"
            )
        }
        if let directory, let lock {
            var bytes: [UInt8] = []
            JSONWriter.write(session.json, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            try lock.whileHeld { () throws(HostError) in
                try StateFiles.writeAtomically(
                    bytes,
                    to: name,
                    in: sessionsDirectory,
                    path: directory + "/sessions",
                    operations: operations,
                    failure: { HostError.sessionNotStored(scene: session.identifier, reason: $0) }
                )
            }
        }
        sessions.withLock { $0[session.identifier] = session }
    }

    /// Deletes the session (before `didDiscardSceneSessions` is reported): its file, then the
    /// marker of an offline discard, each directory synced. Either the file is gone, and the
    /// session with it, or nothing changed and it throws (`sessionNotStored`): a session whose
    /// file stayed would come back at the next start. A marker that cannot be removed only
    /// reports the discard again at the next start. Once the store is closed it only forgets
    /// the session in memory: the directory may belong to another host by then.
    public func delete(_ identifier: String) throws(HostError) {
        if directory != nil, let lock, SceneSession.isValidIdentifier(identifier) {
            var failure: String?
            // Released (the store closed): nothing more is written there, and nothing to undo.
            _ = try? lock.whileHeld { () throws(HostError) in
                let name = identifier + ".json"
                if !damage.withLock({ $0.inPlace.contains(name) }) {
                    if operations.unlink(sessionsDirectory, name) != 0, errno != ENOENT {
                        failure = "cannot delete sessions/\(name): \(StateFiles.errorText())"
                        return
                    }
                    _ = operations.fsync(sessionsDirectory)
                }
                if operations.unlink(discardedDirectory, identifier) == 0 { _ = operations.fsync(discardedDirectory) }
            }
            if let failure { throw HostError.sessionNotStored(scene: identifier, reason: failure) }
        }
        sessions.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    /// Records a discard requested while no host runs the store. A directory a live host
    /// holds cannot be marked: opening a store on it throws `stateDirectoryInUse`.
    public func markDiscarded(_ identifier: String) throws(HostError) {
        guard SceneSession.isValidIdentifier(identifier) else { throw HostError.invalidSceneIdentifier(identifier) }
        guard let directory, let lock else { return }
        try lock.whileHeld { () throws(HostError) in
            try StateFiles.writeAtomically(
                [],
                to: identifier,
                in: discardedDirectory,
                path: directory + "/discarded",
                operations: operations,
                failure: { HostError.sessionNotStored(scene: identifier, reason: "discard not recorded: \($0)") }
            )
        }
    }

    /// Discards recorded while no host ran, to report at launch.
    ///
    /// Stores written before temporaries were named `.tmp-…` used `discarded/<id>.tmp` for
    /// the temporary of a discard of `<id>`: such a name, left by a crash, is a discard only
    /// if a session of that name exists (an offline discard is only recorded for one).
    public var pendingDiscards: [String] {
        guard directory != nil else { return [] }
        return StateFiles.listDirectory(discardedDirectory).filter { name in
            guard SceneSession.isValidIdentifier(name) else { return false }
            return !name.hasSuffix(".tmp") || session(name) != nil
        }.sorted()
    }

    /// Releases the state directory at once (it is also released when the store is
    /// deinitialized): another store or host may open it. A write under way finishes first;
    /// later `save` and `markDiscarded` throw, and `delete` only forgets in memory.
    /// `SceneHost.quit()` closes its store, so a host can be restarted in the same process.
    public func close() {
        lock?.release()
    }
}
