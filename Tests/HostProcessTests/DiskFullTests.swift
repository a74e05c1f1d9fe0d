import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The session store on a really full disk: a 256 KiB tmpfs filled up (mounting needs root;
/// `StateDirectorySafetyTests` makes each system call fail by injection for everyone else).
@Suite(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
struct DiskFullTests {
    /// A small tmpfs mounted on a new directory, with a private state directory path in it.
    final class SmallFileSystem {
        let mountPoint: String
        var state: String { mountPoint + "/state" }
        private var filler: String { mountPoint + "/filler" }

        init() throws {
            mountPoint = makeTemporaryDirectory()
            guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=256k,mode=0700") == 0 else {
                throw HostError.io("cannot mount a tmpfs on \(mountPoint): \(String(cString: strerror(errno)))")
            }
        }

        deinit {
            umount2(mountPoint, Int32(MNT_DETACH))
            rmdir(mountPoint)
        }

        /// Writes a file until the file system has no space left.
        func fill() {
            let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            #expect(descriptor >= 0)
            let chunk = [UInt8](repeating: 0x61, count: 4096)
            while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            let lastError = errno
            close(descriptor)
            #expect(lastError == ENOSPC)
        }

        /// Frees the space `fill()` took. Truncated before it is unlinked: a child another test
        /// spawns while the filler is open can hold a copy of its descriptor until it execs,
        /// and an unlinked file keeps its blocks while any descriptor is left (seen once in a
        /// full run: the save after `free()` still found no space).
        func free() {
            #expect(truncate(filler, 0) == 0)
            #expect(unlink(filler) == 0)
        }
    }

    @Test func aSaveOnAFullDiskChangesNothingInMemoryOrOnDisk() throws {
        let disk = try SmallFileSystem()
        let store = try SessionStore(directory: disk.state)
        try store.save(SceneSession(identifier: "A", restoration: .string("old")))
        let before = try #require(readWholeFile(disk.state + "/sessions/A.json", limit: 1 << 20))
        disk.fill()

        let large = JSONValue.string(String(repeating: "x", count: 64 << 10))
        #expect {
            try store.save(SceneSession(identifier: "A", restoration: large))
        } throws: { error in
            guard case .sessionNotStored("A", let reason) = error as? HostError else { return false }
            return reason.hasSuffix("No space left on device")
        }
        #expect(store.session("A")?.restoration == .string("old"))
        #expect(readWholeFile(disk.state + "/sessions/A.json", limit: 1 << 20) == before)
        #expect(SessionStoreHardeningTests.list(disk.state + "/sessions") == ["A.json"])
        #expect(throws: HostError.self) { try store.save(SceneSession(identifier: "B", restoration: large)) }
        #expect(store.session("B") == nil)
        #expect(SessionStoreHardeningTests.list(disk.state + "/sessions") == ["A.json"])

        disk.free()
        try store.save(SceneSession(identifier: "A", restoration: large))
        store.close()
        #expect(try SessionStore(directory: disk.state).session("A")?.restoration == large)
    }

    @Test func aConnectOnAFullDiskLeavesNoSessionAndNoWorker() async throws {
        let disk = try SmallFileSystem()
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: disk.state)) { host in
            disk.fill()
            let scene = try host.scene("A")
            await #expect {
                try await scene.connect()
            } throws: { error in
                guard case .sessionNotStored("A", let reason) = error as? HostError else { return false }
                return reason.hasSuffix("No space left on device")
            }
            #expect(host.sessions.session("A") == nil)
            #expect(SessionStoreHardeningTests.list(disk.state + "/sessions").isEmpty)
            #expect(!host.trace.history.contains { $0.processEvent == .spawned })
            let status = await scene.status()
            #expect(status.process == .none && status.activation == .unattached)

            // With space again the same scene connects, as a new session.
            disk.free()
            try await scene.connect()
            #expect(host.sessions.session("A") != nil)
        }
    }

    /// The worker ran its background callbacks, which nothing can undo: the request fails
    /// with `sessionNotStored`, the store keeps the state stored before, and the scene is
    /// still suspended (a scene left running in the background for ever would be worse).
    @Test func aBackgroundOnAFullDiskFailsKeepsTheOldStateAndStillSuspends() async throws {
        let disk = try SmallFileSystem()
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: disk.state)) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            let stored = try #require(host.sessions.session("A")?.restoration)
            try await scene.foreground()
            try await scene.push("Detail")
            disk.fill()
            await #expect {
                try await scene.background()
            } throws: { error in
                guard case .sessionNotStored("A", _) = error as? HostError else { return false }
                return true
            }
            #expect(host.sessions.session("A")?.restoration == stored)
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            #expect(await scene.status().activation == .background)
            disk.free()
        }
    }
}
