import Glibc
import HostTools
import Testing

@testable import HostProcess

/// The CLI leaves a state directory's files as they were unless it succeeds: an offline
/// discard never renames a damaged file (it says so instead), a host that fails to start sets
/// none aside, and no output of a command may be written inside the directory.
@Suite struct StateDirectoryCLITests {
    /// A state directory with a stored session `A` (made by a real run).
    private static func stateWithSession(_ directory: String) async throws -> String {
        let state = directory + "/state"
        let scenario = directory + "/store.json"
        #expect(writeFile(scenario, #"{"config":{"stateDir":"\#(state)"},"steps":[{"op":"connect","scene":"A"}]}"#))
        let run = try await CommandLineTests.run(["run", scenario, "--quiet"])
        try #require(run.exit == .exited(status: 0), "\(run.stderr)")
        return state
    }

    @Test func anOfflineDiscardLeavesDamagedFilesInPlaceAndSaysSo() async throws {
        let directory = makeTemporaryDirectory()
        let state = try await Self.stateWithSession(directory)
        #expect(writeFile(state + "/sessions/B.json", "{not json"))
        let damagedTarget = try await CommandLineTests.run(["discard", "B", "--state-dir", state])
        #expect(damagedTarget.exit == .exited(status: 3))
        #expect(
            damagedTarget.stderr.hasPrefix("hostctl discard: sessions/B.json in \(state) is damaged (not valid JSON"),
            "\(damagedTarget.stderr)"
        )
        #expect(damagedTarget.stderr.hasSuffix("nothing recorded: move the file away to discard the session\n"))
        #expect(Set(SessionStoreHardeningTests.list(state + "/sessions")) == ["A.json", "B.json"])
        #expect(SessionStoreHardeningTests.list(state + "/discarded").isEmpty)

        // Discarding A succeeds and warns of B, which it leaves for the next host.
        let discard = try await CommandLineTests.run(["discard", "A", "--state-dir", state])
        #expect(discard.exit == .exited(status: 0), "\(discard.stderr)")
        #expect(discard.stderr.contains("warning: damaged session file \(state)/sessions/B.json, left in place"))
        #expect(Set(SessionStoreHardeningTests.list(state + "/sessions")) == ["A.json", "B.json"])
        #expect(SessionStoreHardeningTests.list(state + "/discarded") == ["A"])
    }

    @Test func aHostThatFailsToStartSetsNoDamagedFileAside() async throws {
        let directory = makeTemporaryDirectory()
        let state = try await Self.stateWithSession(directory)
        #expect(writeFile(state + "/sessions/B.json", "{not json"))
        let scenario = directory + "/empty.json"
        #expect(writeFile(scenario, #"{"config":{"stateDir":"\#(state)"},"steps":[]}"#))
        let failed = try await CommandLineTests.run([
            "run", scenario, "--quiet", "--trace", directory + "/no/such/t.jsonl",
        ])
        #expect(failed.exit != .exited(status: 0))
        #expect(Set(SessionStoreHardeningTests.list(state + "/sessions")) == ["A.json", "B.json"])
        // One that starts does, and says so.
        let trace = directory + "/t.jsonl"
        let started = try await CommandLineTests.run(["run", scenario, "--quiet", "--trace", trace])
        #expect(started.exit == .exited(status: 0), "\(started.stderr)")
        #expect(Set(SessionStoreHardeningTests.list(state + "/sessions")) == ["A.json", "B.json.damaged"])
        #expect(try readLines(trace).contains { $0.contains("kept aside as \(state)/sessions/B.json.damaged") })
    }

    @Test(arguments: ["sessions/A.json", "lock", "t.jsonl"])
    func aTraceInsideTheStateDirectoryIsRefused(_ name: String) async throws {
        let directory = makeTemporaryDirectory()
        let state = try await Self.stateWithSession(directory)
        let session = try #require(readWholeFile(state + "/sessions/A.json", limit: 1 << 20))
        let scenario = directory + "/empty.json"
        #expect(writeFile(scenario, #"{"config":{"stateDir":"\#(state)"},"steps":[]}"#))
        // Through another path to the same directory as well.
        #expect(symlink(state, directory + "/link") == 0)
        for trace in [state + "/" + name, directory + "/link/" + name] {
            let run = try await CommandLineTests.run(["run", scenario, "--quiet", "--trace", trace])
            #expect(run.exit == .exited(status: 2), "\(run.stderr)")
            #expect(run.stderr.contains("is inside the state directory"), "\(run.stderr)")
            let serve = try await CommandLineTests.run([
                "serve", "--socket", directory + "/s", "--state-dir", state, "--trace", trace,
            ])
            #expect(serve.exit == .exited(status: 2), "\(serve.stderr)")
        }
        #expect(readWholeFile(state + "/sessions/A.json", limit: 1 << 20) == session)
        #expect(access(state + "/t.jsonl", F_OK) != 0)
    }

    /// Where the host would write, however it is named: into a state directory it is about to
    /// make, or through a symlink (dangling or not) into one.
    @Test func aTraceThatWouldLandInTheStateDirectoryIsRefused() async throws {
        let directory = makeTemporaryDirectory()
        let state = try await Self.stateWithSession(directory)
        let session = try #require(readWholeFile(state + "/sessions/A.json", limit: 1 << 20))
        #expect(symlink(state + "/sessions/A.json", directory + "/to-session") == 0)
        #expect(symlink(state + "/sessions/B.json", directory + "/dangling") == 0)
        let cases: [(stateDirectory: String, trace: String)] = [
            (directory + "/fresh", directory + "/fresh/sessions/A.json"),
            (state, directory + "/to-session"),
            (state, directory + "/dangling"),
        ]
        for (stateDirectory, trace) in cases {
            let serve = try await CommandLineTests.run([
                "serve", "--socket", directory + "/s", "--state-dir", stateDirectory, "--trace", trace,
            ])
            #expect(serve.exit == .exited(status: 2), "\(trace): \(serve.stderr)")
            #expect(serve.stderr.contains("is inside the state directory"), "\(serve.stderr)")
        }
        #expect(access(directory + "/fresh", F_OK) != 0, "nothing made")
        #expect(readWholeFile(state + "/sessions/A.json", limit: 1 << 20) == session)
        #expect(access(state + "/sessions/B.json", F_OK) != 0)
    }
}
