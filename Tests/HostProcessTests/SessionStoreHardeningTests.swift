import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The session store under hostile conditions: a host SIGKILLed in the middle of session
/// writes, files damaged by hand, identifiers that would escape the state directory.
@Suite struct SessionStoreHardeningTests {
    // MARK: Crash safety

    /// One `hostctl run` of `scenario`, SIGKILLed once it has written `killAfter` trace lines
    /// (nil: left to finish). Returns the number of trace lines seen and whether the kill landed.
    static func runHost(_ scenario: String, killAfter: Int?) async throws -> (lines: Int, killed: Bool) {
        let host = try await ChildProcess.spawn(argv: [
            TestWorker.hostctl, "run", scenario, "--quiet", "--trace", "/dev/stdout",
        ])
        host.closeStdin()
        let counter = KillCounter(limit: killAfter)
        let exit = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                host,
                onStdout: { bytes in
                    if counter.count(bytes) { try? host.send(signal: SIGKILL) }
                },
                onStderr: { _ in },
                onExit: { continuation.resume(returning: $0) }
            )
        }
        return (counter.lines, exit == .signaled(signal: SIGKILL))
    }

    /// Every session file parses, and the store opens without finding anything damaged.
    static func checkStore(_ directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = Self.list(directory + "/sessions")
        for name in names where name.hasSuffix(".json") {
            let bytes = try #require(
                readWholeFile(directory + "/sessions/" + name, limit: 1 << 20),
                sourceLocation: sourceLocation
            )
            let value = try JSONParser.parse(bytes)
            let session = try #require(
                SceneSession(json: value),
                "\(name) is not a session",
                sourceLocation: sourceLocation
            )
            #expect(name == session.identifier + ".json", sourceLocation: sourceLocation)
        }
        let store = try SessionStore(directory: directory)
        #expect(store.damagedFiles.isEmpty, "\(store.damagedFiles)", sourceLocation: sourceLocation)
        #expect(
            !Self.list(directory + "/sessions").contains { $0.hasSuffix(".damaged") },
            sourceLocation: sourceLocation
        )
    }

    static func list(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // In place: a copy of `d_name` reads past the buffer's last record (ASan).
            let name = directoryEntryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    @Test func twoHundredSIGKILLsDuringSessionWritesNeverLeaveAHalfWrittenStore() async throws {
        let directory = makeTemporaryDirectory()
        let state = directory + "/state"
        let scenario = directory + "/churn.json"
        // Two scenes going to background and back: every background stores a session durably.
        var steps = [#"{"op":"connect","scene":"A"}"#, #"{"op":"connect","scene":"B"}"#]
        for _ in 0..<6 {
            for scene in ["A", "B"] {
                steps.append(#"{"op":"background","scene":"\#(scene)"}"#)
                steps.append(#"{"op":"foreground","scene":"\#(scene)"}"#)
            }
        }
        steps.append(#"{"op":"quit"}"#)
        let text =
            #"{"config":{"suspendDelayMs":60000,"stateDir":"\#(state)"},"steps":["# + steps.joined(separator: ",")
            + "]}"
        #expect(writeFile(scenario, text))

        // A complete run tells how many trace lines there are to choose a kill point from.
        let full = try await Self.runHost(scenario, killAfter: nil)
        #expect(!full.killed)
        #expect(full.lines > 50)
        try Self.checkStore(state)

        var random = KillPoints(seed: 0x5E55_1011)
        var kills = 0
        for _ in 0..<200 {
            let point = Int.random(in: 1...full.lines, using: &random)
            let run = try await Self.runHost(scenario, killAfter: point)
            if run.killed { kills += 1 }
            try Self.checkStore(state)
        }
        // Most runs are cut short. Not all: a kill point among the quit's last lines can come
        // after the host has exited, and so can any point the test reads late (the output is
        // read on this process's shared loop, which the parallel suite holds back: a whole
        // 40 ms run was seen to end before its 14th line was read). Three quarters must land,
        // or the store was hardly tested against a kill.
        #expect(kills >= 150, "only \(kills) of 200 runs were killed")
        #expect(try SessionStore(directory: state).session("A")?.restoration != nil)
    }

    // MARK: Damaged files

    @Test(arguments: [
        ("garbage", Array("\u{0}\u{1}this is not json{{{".utf8)),
        ("half-written", Array(#"{"configuration":"Default Configuration","identifier":"A","rest"#.utf8)),
        ("not a session", Array(#"{"hello":"world"}"#.utf8)),
        ("another scene's file", Array(#"{"configuration":"c","identifier":"B","role":"r"}"#.utf8)),
        ("an escaping identifier", Array(#"{"configuration":"c","identifier":"../A","role":"r"}"#.utf8)),
        ("invalid UTF-8", [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]),
        ("empty", []),
    ])
    func aDamagedSessionFileIsReportedKeptAsideAndTheHostStarts(kind: String, content: [UInt8]) async throws {
        let state = makeTemporaryDirectory()
        try SessionStore(directory: state).save(
            SceneSession(identifier: "B", restoration: .object(["stack": .array([.string("Root")])]))
        )
        let damaged = state + "/sessions/A.json"
        #expect(writeBytes(damaged, content), "\(kind)")

        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let report = host.trace.history.first { $0.kind == .error && $0.op == "sessions" }
            #expect(report?.message?.contains(damaged) == true, "\(kind): \(String(describing: report))")
            #expect(report?.message?.contains(damaged + ".damaged") == true, "\(kind)")
            #expect(access(damaged, F_OK) != 0, "\(kind): the damaged file is still in place")
            #expect(access(damaged + ".damaged", F_OK) == 0, "\(kind): the damaged file was not kept")
            // The intact session survives; the damaged one starts afresh.
            #expect(host.sessions.session("B") != nil)
            #expect(host.sessions.session("A") == nil)
            try await host.scene("A").connect()
            #expect(host.trace.history.contains { $0.scene == "A" && $0.name == "configurationForConnecting" })
        }
        // Nothing is reported twice: the next start finds a clean store.
        #expect(try SessionStore(directory: state).damagedFiles.isEmpty)
    }

    /// A damaged file whose name begins with a combining mark is the one kept aside: its name
    /// once merged with the `/` before it into one character, and the intact `x.json` was
    /// renamed in its place.
    @Test func aDamagedFileNamedWithACombiningMarkIsTheOneKeptAside() throws {
        let state = makeTemporaryDirectory()
        try SessionStore(directory: state).save(
            SceneSession(identifier: "x", restoration: .object(["stack": .array([.string("Root")])]))
        )
        let junk = state + "/sessions/\u{301}x.json"
        #expect(writeBytes(junk, Array("garbage".utf8)))
        let store = try SessionStore(directory: state)
        #expect(store.session("x") != nil)
        #expect(access(state + "/sessions/x.json", F_OK) == 0, "the intact session file was moved")
        #expect(access(junk, F_OK) != 0 && access(junk + ".damaged", F_OK) == 0, "the damaged file was not kept aside")
        #expect(store.damagedFiles.map(\.path) == [junk])
    }

    @Test func hostctlReportsADamagedStoreInItsTraceAndRuns() async throws {
        let directory = makeTemporaryDirectory()
        let state = directory + "/state"
        #expect(mkdir(state, 0o700) == 0 && mkdir(state + "/sessions", 0o700) == 0)
        #expect(writeBytes(state + "/sessions/A.json", Array("garbage".utf8)))
        let scenario = directory + "/one.json"
        #expect(
            writeFile(
                scenario,
                #"{"config":{"stateDir":"\#(state)"},"steps":[{"op":"connect","scene":"A"},{"op":"quit"}]}"#
            )
        )
        let trace = directory + "/trace.jsonl"
        let host = try await ChildProcess.spawn(argv: [
            TestWorker.hostctl, "run", scenario, "--quiet", "--trace", trace,
        ])
        host.closeStdin()
        let exit = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
            EventLoop.shared.watch(
                host,
                onStdout: { _ in },
                onStderr: { _ in },
                onExit: { continuation.resume(returning: $0) }
            )
        }
        #expect(exit == .exited(status: 0))
        let events = try HardeningProbe.readLines(trace).map { try TraceEvent(jsonLine: Array($0.utf8)) }
        let report = try #require(events.first { $0.kind == .error && $0.op == "sessions" })
        #expect(report.message?.contains("sessions/A.json") == true)
        #expect(report.seq == 2, "reported right after the host started")
        #expect(events.contains { $0.scene == "A" && $0.to == .foregroundActive })
    }

    /// A session whose state no connect frame can carry could never launch (each try ended
    /// at the launch watchdog): a file larger than a frame is kept aside at load, and a
    /// state over a smaller frame limit refuses the launch at once, spawning nothing.
    @Test func aSessionTooLargeForAConnectFrameIsKeptAsideOrRefused() async throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        func session(_ name: String, blobBytes: Int) -> [UInt8] {
            Array(
                (#"{"identifier":"\#(name)","configuration":"Default Configuration","role":"windowApplication","#
                    + #""restoration":{"blob":""# + String(repeating: "x", count: blobBytes) + #""}}"#).utf8
            )
        }
        #expect(writeBytes(state + "/sessions/Huge.json", session("Huge", blobBytes: 1_100_000)))
        #expect(writeBytes(state + "/sessions/Big.json", session("Big", blobBytes: 100_000)))
        var configuration = TestWorker.configuration(stateDirectory: state)
        configuration.maximumFrameSize = 64 << 10
        try await withSceneHost(configuration: configuration) { host in
            #expect(host.sessions.damagedFiles.map(\.path) == [state + "/sessions/Huge.json"])
            #expect(host.sessions.damagedFiles.first?.reason.contains("larger than a worker's connect frame") == true)
            let big = try host.scene("Big")
            await #expect(throws: HostError.self) { try await big.connect() }
            let status = await big.status()
            #expect(status.process == .none && status.pid == nil, "\(status)")
            #expect(!host.trace.history.contains { $0.scene == "Big" && $0.processEvent == .spawned })
            let refusal = host.trace.history.last { $0.scene == "Big" && $0.kind == .error }
            #expect(
                refusal?.message?.contains("a connect frame cannot carry it") == true,
                "\(String(describing: refusal))"
            )
            // Discarded, the name starts afresh.
            try await big.discard()
            try await big.connect()
            #expect(await big.status().activation == .foregroundActive)
        }
    }

    /// A state no frame could carry at all (2 MiB, or nested deeper than a frame's parser
    /// reads) is not sent: the worker answers with why, and the host keeps the session's
    /// earlier state and fails the request with `sessionNotStored`. Its reply used to be a
    /// frame the host refused, and the worker was killed for the app's state.
    @Test(arguments: ["Hoarder", "Deep"])
    func aStateNoFrameCanCarryIsNotSentAndTheWorkerLives(root: String) async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(root: root, worker: [TestWorker.customWorker])
            let pid = await scene.status().pid
            await #expect {
                try await scene.background()
            } throws: { error in
                guard case .sessionNotStored(let scene, let reason)? = error as? HostError else { return false }
                return scene == "A" && reason.contains("the worker could not send it")
            }
            let status = await scene.status()
            #expect(status.activation == .background && status.process.isAlive && status.pid == pid)
            #expect(host.sessions.session("A")?.restoration == nil)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A state a worker can send but no connect frame can give back would leave a session
    /// that never launches again: it is not stored. The request that saved it fails with
    /// `sessionNotStored`, the trace says why, the session keeps its state (on disk too), and
    /// the scene launches again with it.
    @Test func aRestorationStateNoConnectFrameCanGiveBackIsNotStored() async throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        var configuration = TestWorker.configuration(stateDirectory: state)
        configuration.maximumFrameSize = 64 << 10
        // About sizes, not the watchdogs: a sanitized worker that saves a 64 KiB state in the
        // full suite on two cores took over the 10 s terminate limit to end (ASan, in CI).
        configuration.transitionLimit = .seconds(600)
        configuration.terminateLimit = .seconds(600)
        // Just under what a connect frame carries: the recording app saves it back inside its
        // own state (`restoredFrom`), which is a little larger.
        let wrapper = #"{"blob":""}"#.utf8.count
        let limit = configuration.maximumFrameSize - SceneMachine.connectFrameRoom
        let blob = String(repeating: "x", count: limit - wrapper - 16)
        let file = state + "/sessions/Big.json"
        let original = Array(
            (#"{"identifier":"Big","configuration":"Default Configuration","role":"windowApplication","#
                + #""restoration":{"blob":""# + blob + #""}}"#).utf8
        )
        #expect(writeBytes(file, original))
        let keptState: JSONValue = .object(["blob": .string(blob)])
        func restorationOnDisk() throws -> JSONValue? {
            guard case .object(let stored) = try JSONParser.parse(try readFileBytes(file)) else { return nil }
            return stored["restoration"]
        }
        let host = try await withSceneHost(configuration: configuration) { host in
            let big = try host.scene("Big")
            try await big.connect()
            await #expect {
                try await big.background()
            } throws: { error in
                guard case .sessionNotStored(let scene, let reason)? = error as? HostError else { return false }
                return scene == "Big" && reason.contains("more than a connect frame gives back")
            }
            let report = host.trace.history.last { $0.scene == "Big" && $0.kind == .error }
            #expect(report?.op == "background", "\(String(describing: report))")
            #expect(report?.message?.contains("not stored") == true)
            #expect(try restorationOnDisk() == keptState, "the session on disk keeps the state it had")
            #expect(host.sessions.session("Big")?.restoration == keptState)
            // It is in the background all the same, and launches again with the state it kept.
            #expect(await big.status().activation == .background)
            try await big.kill()
            try await big.connect()
            #expect(await big.status().activation == .foregroundActive)
            let restored = host.trace.history.last { $0.scene == "Big" && $0.name == "willConnectTo" }
            #expect(restored?.restoration == keptState)
            return host
        }
        // The quit still ends the app in order: its state is not stored either.
        let exits = host.trace.history.filter { $0.scene == "Big" && $0.processEvent == .exited }
        #expect(exits.last?.reason == .terminated, "\(exits)")
        #expect(host.trace.history.last { $0.kind == .error }?.op == "terminate")
        #expect(try restorationOnDisk() == keptState)
    }

    @Test func twoDamagedVersionsOfASessionAcrossTwoStartsAreBothKept() async throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        let file = state + "/sessions/A.json"
        let firstDamage = Array("first damaged version".utf8)
        let secondDamage = Array(#"{"identifier":"A","second":"#.utf8)
        #expect(writeBytes(file, firstDamage))

        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { first in
            #expect(first.sessions.damagedFiles.map(\.keptAs) == [file + ".damaged"])
            // A fresh session A is stored under the original name, then damaged again.
            try await first.scene("A").connect()
        }
        #expect(writeBytes(file, secondDamage))

        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { second in
            #expect(second.sessions.damagedFiles.map(\.keptAs) == [file + ".damaged.1"])
            let report = second.trace.history.first { $0.kind == .error && $0.op == "sessions" }
            #expect(
                report?.message?.contains("kept aside as \(file).damaged.1: ") == true,
                "\(String(describing: report))"
            )
            #expect(second.sessions.session("A") == nil)
            // Both versions are kept, each as it was.
            #expect(readWholeFile(file + ".damaged", limit: 1 << 20) == firstDamage)
            #expect(readWholeFile(file + ".damaged.1", limit: 1 << 20) == secondDamage)

            // Discarding the session deletes its own file, never one kept aside.
            try await second.scene("A").connect()
            try await second.scene("A").discard()
        }
        #expect(Set(Self.list(state + "/sessions")) == ["A.json.damaged", "A.json.damaged.1"])

        // Kept-aside files are never loaded: the next start finds nothing damaged, no session A.
        let third = try SessionStore(directory: state)
        #expect(third.damagedFiles.isEmpty)
        #expect(third.session("A") == nil)
        #expect(Set(Self.list(state + "/sessions")) == ["A.json.damaged", "A.json.damaged.1"])
    }

    @Test func aDamagedFileThatCannotBeRenamedIsReportedAndLeftInPlace() async throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        // 255 bytes, the longest file name: no `.damaged` name can be made from it.
        let file = state + "/sessions/" + String(repeating: "x", count: 250) + ".json"
        let content = Array("garbage".utf8)
        #expect(writeBytes(file, content))

        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let record = try #require(host.sessions.damagedFiles.first)
            #expect(record.keptAs == nil)
            guard case .leftInPlace(let failure) = record.disposition else {
                Issue.record("\(record.disposition)")
                return
            }
            #expect(failure.contains("File name too long"), "\(failure)")
            let report = host.trace.history.first { $0.kind == .error && $0.op == "sessions" }
            let expected =
                "damaged session file \(file) could not be kept aside (\(failure)); it stays in place and is never replaced: not valid JSON"
            #expect(report?.message?.hasPrefix(expected) == true, "\(String(describing: report?.message))")
            #expect(readWholeFile(file, limit: 1 << 20) == content)
            try await host.scene("A").connect()
        }
        // Still there and still reported: nothing was done to it that could lose it.
        #expect(readWholeFile(file, limit: 1 << 20) == content)
        #expect(try SessionStore(directory: state).damagedFiles.map(\.path) == [file])
    }

    @Test func aSessionWhoseDamagedFileStaysInPlaceIsNeverWrittenOverNorDeleted() throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        let file = state + "/sessions/A.json"
        let content = Array("{{{".utf8)
        #expect(writeBytes(file, content))
        // A rename that fails as it might on a broken file system (as root nothing else does).
        let store = try SessionStore(directory: state) { _, _, _ in
            errno = EIO
            return -1
        }
        #expect(
            store.damagedFiles.map(\.disposition) == [
                .leftInPlace(because: "cannot rename it to \(file).damaged: Input/output error")
            ]
        )
        #expect {
            try store.save(SceneSession(identifier: "A"))
        } throws: { error in
            "\(error)".contains("sessions/A.json is a damaged file that could not be kept aside")
        }
        try store.delete("A")
        #expect(readWholeFile(file, limit: 1 << 20) == content)
        // Other sessions are stored as usual.
        try store.save(SceneSession(identifier: "B"))
        #expect(access(state + "/sessions/B.json", F_OK) == 0)
    }

    // MARK: Identifiers

    static let escaping = [
        "../x", "..", ".", "/abs", "/etc/passwd", "a/b", "a\u{0}b", "\u{0}", String(repeating: "a", count: 65),
        "", ".hidden", "a b", "é", "A\n", "sessions/../../x", "x.json/..", "\\x",
    ]

    @Test func identifiersThatWouldEscapeTheStateDirectoryAreInvalid() {
        for identifier in Self.escaping {
            #expect(!SceneSession.isValidIdentifier(identifier), "\(Array(identifier.utf8))")
        }
        for identifier in ["A", "a.b_c-1", "Mail", "x..y", String(repeating: "z", count: 64)] {
            #expect(SceneSession.isValidIdentifier(identifier), "\(identifier)")
        }
    }

    @Test func escapingIdentifiersAreRefusedByTheHostAndTheStore() async throws {
        let root = makeTemporaryDirectory()
        let state = root + "/state"
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: state)) { host in
            let store = host.sessions  // a second store cannot open the directory the host holds
            for identifier in Self.escaping {
                #expect(throws: HostError.self) { try host.scene(identifier) }
                #expect(throws: HostError.self) { try store.save(SceneSession(identifier: identifier)) }
                #expect(throws: HostError.self) { try store.markDiscarded(identifier) }
                try store.delete(identifier)
            }
        }
        // Nothing was written anywhere but the state directory's own folders.
        #expect(Set(Self.list(root)) == ["state"])
        #expect(Set(Self.list(state)) == ["sessions", "discarded", "lock"])
        #expect(Self.list(state + "/sessions").isEmpty)
        #expect(Self.list(state + "/discarded").isEmpty)
    }
}

/// `path` with symbolic links resolved, as `/proc/*/fd` shows it.
func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// A real `hostctl` left running: its stdout as it comes, and its exit.
struct WatchedHostctl {
    let child: ChildProcess
    private let stdout: AsyncStream<String>
    private let exits: AsyncStream<ChildExit>

    init(_ arguments: [String]) throws {
        child = try ChildProcess.spawn(argv: [TestWorker.hostctl] + arguments)
        child.closeStdin()
        let (stdout, output) = AsyncStream.makeStream(of: String.self)
        let (exits, exit) = AsyncStream.makeStream(of: ChildExit.self)
        self.stdout = stdout
        self.exits = exits
        EventLoop.shared.watch(
            child,
            onStdout: { output.yield(String(decoding: $0, as: UTF8.self)) },
            onStderr: { _ in },
            onExit: {
                output.finish()
                exit.yield($0)
                exit.finish()
            }
        )
    }

    /// Whether it printed its `serving on` line (false: it exited first); `TimedOut` after
    /// a launch's limit.
    func waitUntilServing() async throws -> Bool {
        let stdout = self.stdout
        return try await within(TestLimit.launch, "serve's start") {
            var text = ""
            for await chunk in stdout {
                text += chunk
                if text.contains("serving on ") && text.contains("\n") { return true }
            }
            return false
        }
    }

    /// Its exit (nil: the wait was cancelled); `TimedOut` after a launch's limit (a quit
    /// stops workers, which under a sanitizer has taken 20 s).
    func exit() async throws -> ChildExit? {
        let exits = self.exits
        return try await within(TestLimit.launch, "the exit") {
            for await exit in exits { return exit }
            return nil
        }
    }
}

/// The seeded generator of kill points (SplitMix64), so a failure reproduces.
struct KillPoints: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Counts trace lines on the event loop thread; says when the kill point is reached.
final class KillCounter: @unchecked Sendable {
    // Only touched on the event loop thread (then read after the exit, which comes last).
    private(set) var lines = 0
    private let limit: Int?
    private var fired = false

    init(limit: Int?) { self.limit = limit }

    /// Counts the newlines in `bytes`; true exactly once, when the limit is reached.
    func count(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
        guard let limit, !fired, lines >= limit else { return false }
        fired = true
        return true
    }
}

/// Writes `bytes` to `path` (created or truncated).
func writeBytes(_ path: String, _ bytes: [UInt8]) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

extension SessionStoreHardeningTests {
    /// A stored state that fits a connect frame alone, and a long escaped URL (or activity)
    /// that fits one alone, may not fit together: the worker's `willConnectTo` echoes both.
    /// The launch is refused before anything is spawned, and the scene still launches with
    /// less.
    @Test func aLaunchWhoseStateAndURLTogetherPassTheFrameLimitIsRefused() async throws {
        let state = makeTemporaryDirectory()
        #expect(mkdir(state + "/sessions", 0o700) == 0)
        let blob = String(repeating: "x", count: 40_000)
        let file =
            #"{"identifier":"Big","configuration":"Default Configuration","role":"windowApplication","#
            + #""restoration":{"blob":""# + blob + #""}}"#
        #expect(writeBytes(state + "/sessions/Big.json", Array(file.utf8)))
        var configuration = TestWorker.configuration(stateDirectory: state)
        configuration.maximumFrameSize = 64 << 10
        try await withSceneHost(configuration: configuration) { host in
            let big = try host.scene("Big")
            // 8,000 control characters: 8,000 bytes, 48,000 once escaped in JSON.
            let url = "notes://" + String(repeating: "\u{1}", count: 8_000)
            await #expect(throws: HostError.self) { try await big.openURL(url) }
            await #expect(throws: HostError.self) {
                try await big.continueUserActivity("edit", userInfo: .string(String(repeating: "\u{1}", count: 8_000)))
            }
            #expect(!host.trace.history.contains { $0.scene == "Big" && $0.processEvent == .spawned })
            let refusal = host.trace.history.last { $0.scene == "Big" && $0.kind == .error }
            #expect(refusal?.message?.contains("cannot fit a connect frame") == true, "\(String(describing: refusal))")
            try await big.openURL("notes://7")
            #expect(await big.status().activation == .foregroundActive)
        }
    }
}
