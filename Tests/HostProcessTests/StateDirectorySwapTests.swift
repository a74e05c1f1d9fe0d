import Glibc
import SceneModel
import Testing

@testable import HostProcess

/// The state directory is checked once by path and then held open: a directory swapped for
/// a symlink while the store runs is never written through, and a directory whose parents
/// another user may write is refused, since that user could swap it.
@Suite struct StateDirectorySwapTests {
    @Test func aDirectorySwappedForASymlinkWhileTheStoreRunsIsNeverWrittenThrough() throws {
        let base = makeTemporaryDirectory()
        let state = base + "/state"
        let elsewhere = base + "/elsewhere"
        #expect(mkdir(state, 0o700) == 0)
        let store = try SessionStore(directory: state)
        defer { store.close() }
        // Swapped: the state directory moved away, a symlink to another place in its stead,
        // where files the store would delete by name wait to prove that it does not.
        #expect(mkdir(elsewhere, 0o700) == 0)
        #expect(mkdir(elsewhere + "/sessions", 0o700) == 0 && mkdir(elsewhere + "/discarded", 0o700) == 0)
        #expect(writeFile(elsewhere + "/sessions/Gone.json", "{}"))
        #expect(writeFile(elsewhere + "/discarded/Gone", ""))
        #expect(rename(state, base + "/moved") == 0)
        #expect(symlink(elsewhere, state) == 0)

        try store.save(SceneSession(identifier: "A", restoration: .string("kept")))
        try store.markDiscarded("B")
        try store.delete("Gone")
        var info = stat()
        #expect(stat(base + "/moved/sessions/A.json", &info) == 0, "written where the store started")
        #expect(stat(elsewhere + "/sessions/A.json", &info) != 0, "nothing written through the symlink")
        #expect(stat(base + "/moved/discarded/B", &info) == 0, "the discard recorded where the store started")
        #expect(stat(elsewhere + "/discarded/B", &info) != 0, "no discard recorded through the symlink")
        #expect(stat(elsewhere + "/sessions/Gone.json", &info) == 0, "a session deleted through the symlink")
        #expect(stat(elsewhere + "/discarded/Gone", &info) == 0, "a discard deleted through the symlink")
    }

    @Test func aStateDirectoryUnderAParentOthersMayWriteIsRefused() throws {
        let base = makeTemporaryDirectory()
        let open = base + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        let state = open + "/state"
        let error = #expect(throws: HostError.self) { _ = try SessionStore(directory: state) }
        guard case .unsafeStateDirectory(_, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("its parent \(open)") && reason.contains("swapped"), "\(reason)")
        // Sticky, as /tmp is: the others can write there but not rename what is not theirs.
        #expect(chmod(open, 0o1777) == 0)
        let store = try SessionStore(directory: state)
        store.close()
    }
}
