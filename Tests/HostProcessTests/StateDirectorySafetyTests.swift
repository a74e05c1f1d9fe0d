import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The state directory against other users and planted files: it must be the user's own
/// and private, nothing in it is followed if it is a symlink, and nothing in it can block
/// the host at start.
@Suite struct StateDirectorySafetyTests {
    /// A file outside the state directory that a planted symlink points at; it must never change.
    static func makeVictim(_ directory: String) -> (path: String, content: [UInt8]) {
        let path = directory + "/victim"
        let content = Array("root-only content\n".utf8)
        #expect(writeBytes(path, content))
        return (path, content)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aStateDirectoryOwnedByAnotherUserIsRefused() throws {
        let state = makeTemporaryDirectory()
        #expect(chown(state, 65534, 65534) == 0)
        #expect(
            throws: HostError.unsafeStateDirectory(path: state, reason: "it is owned by uid 65534, not by you (uid 0)")
        ) {
            _ = try SessionStore(directory: state)
        }
        // Refused before anything was created or read there.
        #expect(SessionStoreHardeningTests.list(state).isEmpty)
    }

    @Test func aStateDirectoryWritableByOthersOrItsGroupIsRefused() throws {
        for (mode, who): (mode_t, String) in [(0o777, "others"), (0o770, "its group"), (0o1777, "others")] {
            let state = makeTemporaryDirectory()
            #expect(chmod(state, mode) == 0)
            #expect(throws: HostError.unsafeStateDirectory(path: state, reason: "it is writable by \(who)")) {
                _ = try SessionStore(directory: state)
            }
            #expect(SessionStoreHardeningTests.list(state).isEmpty)
        }
        // A subdirectory is checked too, and must not be a symlink.
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o777) == 0 && chmod(state + "/sessions", 0o777) == 0)
        #expect(throws: HostError.unsafeStateDirectory(path: state + "/sessions", reason: "it is writable by others")) {
            _ = try SessionStore(directory: state)
        }
        let elsewhere = makeTemporaryDirectory()
        let linked = makeTemporaryDirectory()
        #expect(symlink(elsewhere, linked + "/discarded") == 0)
        #expect(throws: HostError.unsafeStateDirectory(path: linked + "/discarded", reason: "it is a symbolic link")) {
            _ = try SessionStore(directory: linked)
        }
        // A private directory reached through a symlink is the user's choice and is fine.
        let link = makeTemporaryDirectory() + "/state"
        #expect(symlink(makeTemporaryDirectory(), link) == 0)
        _ = try SessionStore(directory: link)
    }

    @Test func aSymlinkPlantedAsTheLockIsNotFollowed() throws {
        let state = makeTemporaryDirectory()
        let victim = Self.makeVictim(makeTemporaryDirectory())
        #expect(symlink(victim.path, state + "/lock") == 0)
        #expect(throws: HostError.unsafeStateDirectory(path: state + "/lock", reason: "it is a symbolic link")) {
            _ = try SessionStore(directory: state)
        }
        #expect(readWholeFile(victim.path, limit: 1 << 20) == victim.content)
        // A hard link to a file elsewhere is refused: the lock file is written and truncated.
        #expect(unlink(state + "/lock") == 0 && link(victim.path, state + "/lock") == 0)
        #expect(throws: HostError.unsafeStateDirectory(path: state + "/lock", reason: "it has 2 hard links")) {
            _ = try SessionStore(directory: state)
        }
        #expect(readWholeFile(victim.path, limit: 1 << 20) == victim.content)
        // A FIFO there is refused too, without blocking.
        #expect(unlink(state + "/lock") == 0 && mkfifo(state + "/lock", 0o600) == 0)
        #expect(throws: HostError.unsafeStateDirectory(path: state + "/lock", reason: "it is not a regular file")) {
            _ = try SessionStore(directory: state)
        }
    }

    @Test func symlinksPlantedInSessionsAreNeverFollowed() throws {
        let state = makeTemporaryDirectory()
        let victim = Self.makeVictim(makeTemporaryDirectory())
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        // The temporary name stores used to write, and a session file, both planted.
        #expect(symlink(victim.path, state + "/sessions/A.json.tmp") == 0)
        #expect(symlink(victim.path, state + "/sessions/B.json") == 0)

        let store = try SessionStore(directory: state)
        #expect(store.session("B") == nil)
        #expect(store.damagedFiles.map(\.reason) == ["not a regular file: a symbolic link"])
        #expect(store.damagedFiles.map(\.keptAs) == [state + "/sessions/B.json.damaged"])
        try store.save(SceneSession(identifier: "A", restoration: .string("new")))
        try store.save(SceneSession(identifier: "B"))
        store.close()

        #expect(readWholeFile(victim.path, limit: 1 << 20) == victim.content)
        for name in ["A.json", "B.json"] {
            var info = stat()
            #expect(lstat(state + "/sessions/" + name, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFREG, "\(name) is not a regular file")
        }
        #expect(try SessionStore(directory: state).session("A")?.restoration == .string("new"))
    }

    @Test(.timeLimit(.minutes(5)))
    func aFIFONamedLikeASessionFileDoesNotBlockTheStore() throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        #expect(mkfifo(state + "/sessions/X.json", 0o600) == 0)
        // Without O_NONBLOCK this open waits for a writer that never comes.
        let store = try SessionStore(directory: state)
        #expect(store.session("X") == nil)
        #expect(store.damagedFiles.map(\.reason) == ["not a regular file: a FIFO"])
        #expect(store.damagedFiles.map(\.keptAs) == [state + "/sessions/X.json.damaged"])
    }

    @Test(.timeLimit(.minutes(5)))
    func hostctlServeStartsDespiteAFIFONamedLikeASessionFile() async throws {
        let directory = makeTemporaryDirectory()
        let state = directory + "/state"
        #expect(mkdir(state, 0o700) == 0 && mkdir(state + "/sessions", 0o700) == 0)
        #expect(mkfifo(state + "/sessions/X.json", 0o600) == 0)
        let socket = directory + "/host.sock"
        let serve = try WatchedHostctl(["serve", "--socket", socket, "--state-dir", state])
        defer { try? serve.child.send(signal: SIGKILL) }
        #expect(try await serve.waitUntilServing(), "serve did not start")
        let quit = try await CommandLineTests.run(["quit", "--socket", socket])
        #expect(quit.exit == .exited(status: 0), "\(quit.stderr)")
        #expect(try await serve.exit() == .exited(status: 0))
    }

    // MARK: Names (issue 13 item 15)

    @Test func anOfflineDiscardOfASceneNamedLikeATemporaryIsReported() async throws {
        let state = makeTemporaryDirectory()
        for identifier in ["A.tmp", "B.json.tmp", "C.json", "tmp"] {
            do {
                let store = try SessionStore(directory: state)
                try store.save(SceneSession(identifier: identifier))
                store.close()
            }
            do {
                let offline = try SessionStore(directory: state)
                try offline.markDiscarded(identifier)
                offline.close()
            }
            try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
                #expect(host.sessions.session(identifier) == nil, "\(identifier)")
                let reported = host.trace.history.filter { $0.name == CallbackName.didDiscardSceneSessions.rawValue }
                #expect(reported.map(\.scene) == [identifier])
            }
            #expect(SessionStoreHardeningTests.list(state + "/sessions").isEmpty)
            #expect(SessionStoreHardeningTests.list(state + "/discarded").isEmpty)
        }
    }

    @Test func storesWrittenWithTheOldTemporaryNamesStillOpen() throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0 && mkdir(state + "/discarded", 0o700) == 0)
        #expect(
            writeBytes(state + "/sessions/A.json", Array(#"{"identifier":"A","configuration":"C","role":"r"}"#.utf8))
        )
        #expect(
            writeBytes(
                state + "/sessions/A.tmp.json",
                Array(#"{"identifier":"A.tmp","configuration":"C","role":"r"}"#.utf8)
            )
        )
        // Left by crashes of the old store: a session's and a discard's temporary files.
        #expect(writeBytes(state + "/sessions/A.json.tmp", Array("{\"ident".utf8)))
        #expect(writeBytes(state + "/discarded/B.tmp", []))
        // A discard of `A.tmp` the old store wrote (and then skipped).
        #expect(writeBytes(state + "/discarded/A.tmp", []))
        // Left by a crash of this store.
        #expect(writeBytes(state + "/sessions/.tmp-A.json.1.0", Array("{".utf8)))

        let store = try SessionStore(directory: state)
        #expect(store.damagedFiles.isEmpty)
        #expect(store.allSessions.map(\.identifier) == ["A", "A.tmp"])
        #expect(store.pendingDiscards == ["A.tmp"])
        #expect(!SessionStoreHardeningTests.list(state + "/sessions").contains(".tmp-A.json.1.0"))
    }

    // MARK: A full disk (issue 13 item 13)

    /// Which system call fails, and how.
    enum Fault: String, CaseIterable, Sendable {
        case write, fsync, rename

        var operations: StateFileOperations {
            var operations = StateFileOperations.system
            switch self {
            case .write:
                operations.write = { _, _ in
                    errno = ENOSPC
                    return -1
                }
            case .fsync:
                operations.fsync = { _ in
                    errno = EIO
                    return -1
                }
            case .rename:
                operations.rename = { _, _, _ in
                    errno = ENOSPC
                    return -1
                }
            }
            return operations
        }
    }

    @Test(arguments: Fault.allCases)
    func aSaveThatFailsChangesNothingInMemoryOrOnDisk(fault: Fault) throws {
        let state = makeTemporaryDirectory()
        do {
            let store = try SessionStore(directory: state)
            try store.save(SceneSession(identifier: "A", restoration: .string("old")))
            store.close()
        }
        let before = try #require(readWholeFile(state + "/sessions/A.json", limit: 1 << 20))
        let store = try SessionStore(
            directory: state,
            renameFile: { renameat($0, $1, $0, $2) },
            operations: fault.operations
        )
        let failure = #expect(throws: HostError.self) {
            try store.save(SceneSession(identifier: "A", restoration: .string("new")))
        }
        guard case .sessionNotStored(let scene, let reason)? = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(scene == "A")
        #expect(reason.contains(fault == .fsync ? "Input/output error" : "No space left on device"), "\(reason)")
        // Nothing changed: the old session in memory, the old file, no temporary left.
        #expect(store.session("A")?.restoration == .string("old"))
        #expect(readWholeFile(state + "/sessions/A.json", limit: 1 << 20) == before)
        #expect(SessionStoreHardeningTests.list(state + "/sessions") == ["A.json"])
        // A new session that cannot be stored does not exist afterwards.
        #expect(throws: HostError.self) { try store.save(SceneSession(identifier: "B")) }
        #expect(store.session("B") == nil)
        #expect(store.allSessions.map(\.identifier) == ["A"])
        #expect(SessionStoreHardeningTests.list(state + "/sessions") == ["A.json"])
        // An offline discard that cannot be recorded leaves no marker (a marker is empty:
        // nothing to write, but it is fsynced and renamed).
        if fault != .write {
            #expect(throws: HostError.self) { try store.markDiscarded("A") }
            #expect(SessionStoreHardeningTests.list(state + "/discarded").isEmpty)
        }
    }

    // MARK: Durability

    /// What each `fsync` of the store synced: `file`, or the directory it names.
    final class Syncs: Sendable {
        private let names = Locked<[String]>([])
        private let sessionsInode: ino_t
        private let discardedInode: ino_t

        init(state: String) {
            var info = stat()
            stat(state + "/sessions", &info)
            sessionsInode = info.st_ino
            stat(state + "/discarded", &info)
            discardedInode = info.st_ino
        }

        var operations: StateFileOperations {
            var operations = StateFileOperations.system
            operations.fsync = { descriptor in
                var info = stat()
                fstat(descriptor, &info)
                let name =
                    switch info.st_ino {
                    case self.sessionsInode: "sessions/"
                    case self.discardedInode: "discarded/"
                    default: (info.st_mode & S_IFMT) == S_IFDIR ? "another directory" : "file"
                    }
                self.names.withLock { $0.append(name) }
                return Glibc.fsync(descriptor)
            }
            return operations
        }

        /// The syncs since the last call.
        func take() -> [String] {
            names.withLock { names in
                defer { names = [] }
                return names
            }
        }
    }

    /// A save is durable only with two fsyncs, the new file's before its rename and its
    /// directory's after it; a delete syncs the directory it removed from. Each counted, so
    /// that one gone fails here, not only where a fault is injected.
    @Test func aSaveSyncsTheFileThenItsDirectory() throws {
        let state = makeTemporaryDirectory()
        try SessionStore(directory: state).close()
        let syncs = Syncs(state: state)
        let store = try SessionStore(
            directory: state,
            renameFile: { renameat($0, $1, $0, $2) },
            operations: syncs.operations
        )
        defer { store.close() }
        #expect(syncs.take() == [], "opening a sound store syncs nothing")
        try store.save(SceneSession(identifier: "A", restoration: .string("one")))
        #expect(syncs.take() == ["file", "sessions/"])
        try store.save(SceneSession(identifier: "A", restoration: .string("two")))
        #expect(syncs.take() == ["file", "sessions/"])
        try store.markDiscarded("A")
        #expect(syncs.take() == ["file", "discarded/"])
        try store.delete("A")
        #expect(syncs.take() == ["sessions/", "discarded/"])
    }

    /// A session whose file cannot be deleted is not forgotten: the delete throws and both the
    /// store and the disk keep it (else it would come back at the next start, unannounced).
    @Test func aDeleteThatFailsChangesNothingInMemoryOrOnDisk() throws {
        let state = makeTemporaryDirectory()
        var operations = StateFileOperations.system
        operations.unlink = { directory, name in
            guard name.hasSuffix(".json") else { return Glibc.unlinkat(directory, name, 0) }
            errno = EPERM
            return -1
        }
        let store = try SessionStore(directory: state, renameFile: { renameat($0, $1, $0, $2) }, operations: operations)
        defer { store.close() }
        try store.save(SceneSession(identifier: "A", restoration: .string("kept")))
        try store.markDiscarded("A")
        let failure = #expect(throws: HostError.self) { try store.delete("A") }
        guard case .sessionNotStored("A", let reason)? = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(reason.contains("sessions/A.json") && reason.contains("Operation not permitted"), "\(reason)")
        #expect(store.session("A")?.restoration == .string("kept"))
        #expect(SessionStoreHardeningTests.list(state + "/sessions") == ["A.json"])
        #expect(store.pendingDiscards == ["A"], "the discard is still to be carried out")
    }
}
