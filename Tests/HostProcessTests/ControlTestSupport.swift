import Dispatch
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

// What the live control-plane tests share: a real `hostctl serve` process, real clients
// (the `hostctl` binary) and raw sockets for clients that misbehave.

/// A spawned process: its stdout as lines, its stderr, and its exit.
final class Spawned: Sendable {
    let child: ChildProcess
    let lines: AsyncStream<String>
    private struct State {
        var partial: [UInt8] = []
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var exit: ChildExit?
        var exitWaiters: [CheckedContinuation<ChildExit, Never>] = []
    }
    private final class Box: Sendable {
        let state = Locked(State())
    }
    private let box = Box()

    init(_ argv: [String]) throws {
        child = try ChildProcess.spawn(argv: argv)
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        let box = self.box
        EventLoop.shared.watch(
            child,
            onStdout: { bytes in
                let complete: [String] = box.state.withLock { state in
                    state.stdout += bytes
                    state.partial += bytes
                    var result: [String] = []
                    while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                        result.append(String(decoding: state.partial[..<newline], as: UTF8.self))
                        state.partial.removeSubrange(...newline)
                    }
                    return result
                }
                for line in complete { continuation.yield(line) }
            },
            onStderr: { bytes in box.state.withLock { $0.stderr += bytes } },
            onExit: { exit in
                continuation.finish()
                let waiters = box.state.withLock { state in
                    state.exit = exit
                    defer { state.exitWaiters = [] }
                    return state.exitWaiters
                }
                for waiter in waiters { waiter.resume(returning: exit) }
            }
        )
    }

    var stdout: String { box.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { box.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Its exit, or `TimedOut` after `limit` (by default a launch's: a `serve` quitting
    /// stops its workers, which under a sanitizer has taken 20 s).
    func exit(within limit: Duration = TestLimit.launch) async throws -> ChildExit {
        let box = self.box
        return try await abandoning(after: limit, "the exit of \(child.pid)") {
            await withCheckedContinuationFromAnyThread { continuation in
                let exit = box.state.withLock { state in
                    if state.exit == nil { state.exitWaiters.append(continuation) }
                    return state.exit
                }
                if let exit { continuation.resume(returning: exit) }
            }
        }
    }

    /// The exit status (128 + signal for a signal), like a shell's `$?`.
    func status(within limit: Duration = TestLimit.launch) async throws -> Int32 {
        switch try await exit(within: limit) {
        case .exited(let status): status
        case .signaled(let signal): 128 + signal
        }
    }

    /// The first stdout line matching `predicate`; nil when stdout ended first; `TimedOut`
    /// after `limit` (by default a launch's: the lines waited for are a start's).
    func line(
        within limit: Duration = TestLimit.launch,
        where predicate: @escaping @Sendable (String) -> Bool
    ) async throws -> String? {
        let lines = self.lines
        return try await within(limit, "a line of \(child.pid)") {
            for await line in lines where predicate(line) { return line }
            return nil
        }
    }
}

/// A finished client command.
struct ClientResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A `hostctl serve` in a fresh private directory.
struct TestServer {
    let directory: String
    let socket: String
    let process: Spawned

    /// Starts `hostctl serve` and returns once it printed its ready line. `fileLimit`: run it
    /// under `ulimit -n` (a shell that execs it, so the pid is the server's).
    ///
    /// The server is SIGKILLed if the test process dies (`setpriv --pdeathsig`, which execs it
    /// too): a test runner that crashes must not leave a server behind. A server outlives its
    /// parent otherwise, as it should outside tests.
    static func start(
        socket: String? = nil,
        directory: String? = nil,
        extra: [String] = [],
        fileLimit: Int? = nil
    ) async throws -> TestServer {
        let directory = try directory ?? makePrivateDirectory()
        let socket = socket ?? directory + "/host.sock"
        var argv =
            [
                TestWorker.hostctl, "serve", "--socket", socket, "--suspend-delay-ms", "50", "--terminate-limit-ms",
                "2000",
            ]
            + extra
        let setprivs: [String] = ["/usr/bin/setpriv", "/bin/setpriv"]
        if let setpriv = setprivs.first(where: { access($0, X_OK) == 0 }) {
            argv = [setpriv, "--pdeathsig", "KILL", "--"] + argv
        }
        if let fileLimit { argv = ["/bin/sh", "-c", #"ulimit -n \#(fileLimit) && exec "$0" "$@""#] + argv }
        let process = try Spawned(argv)
        let ready = try await process.line { $0.hasPrefix("serving on ") }
        try #require(ready == "serving on \(socket) (pid \(process.child.pid))", "serve failed: \(process.stderr)")
        return TestServer(directory: directory, socket: socket, process: process)
    }

    /// Runs `hostctl ARGS --socket SOCKET` to completion.
    func run(_ arguments: String...) async throws -> ClientResult {
        try await runHostctlClient(arguments + ["--socket", socket])
    }

    /// Starts `hostctl ARGS --socket SOCKET` without waiting.
    func spawn(_ arguments: String...) throws -> Spawned {
        try Spawned([TestWorker.hostctl] + arguments + ["--socket", socket])
    }

    /// The `ps --json` rows by scene.
    func scenes() async throws -> [String: ControlSceneRow] {
        let result = try await run("ps", "--json")
        try #require(result.status == 0, "ps failed: \(result.stderr)")
        guard case .array(let items) = try JSONParser.parse(Array(result.stdout.utf8)) else {
            Issue.record("ps --json did not print an array: \(result.stdout)")
            return [:]
        }
        var rows: [String: ControlSceneRow] = [:]
        for item in items {
            let row = try #require(ControlSceneRow(json: item))
            rows[row.scene] = row
        }
        return rows
    }

    /// Sends `quit` and expects both the client and the server to exit 0.
    func quit() async throws {
        let result = try await run("quit")
        #expect(result.status == 0, "quit: \(result.stderr)")
        #expect(try await process.exit() == .exited(status: 0), "serve stderr: \(process.stderr)")
        #expect(access(socket, F_OK) != 0, "the socket file is removed at exit")
    }

    /// For `defer`: a failed test must not leave a server (its workers die with it).
    func kill() {
        try? process.child.send(signal: SIGKILL)
    }
}

/// `runHostctl` (bounded: a hung command is killed) with the exit as a shell status.
func runHostctlClient(_ arguments: [String]) async throws -> ClientResult {
    let outcome = try await runHostctl(arguments)
    let status: Int32
    switch outcome.exit {
    case .exited(let code): status = code
    case .signaled(let signal): status = 128 + signal
    }
    return ClientResult(status: status, stdout: outcome.stdout, stderr: outcome.stderr)
}

/// A fresh directory of mode 0700 (mkdtemp's mode).
func makePrivateDirectory() throws -> String {
    var template = Array("/tmp/scenehost-control-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    try #require(made, "mkdtemp: \(String(cString: strerror(errno)))")
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Runs blocking socket code on its own OS thread, never on the cooperative pool.
func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuationFromAnyThread { continuation in
        PlatformThread.startDetached(name: "test-client") { continuation.resume(returning: body()) }
    }
}

/// A raw client: sends `bytes`, optionally half-closes, then reads frames until the server
/// closes the connection (or 60 s pass). Returns the frames it received.
func rawExchange(socket: String, _ bytes: [UInt8], halfClose: Bool = true) async -> [String] {
    await onThread {
        guard let descriptor = try? ControlSocket.connect(path: socket) else { return ["<connect failed>"] }
        defer { close(descriptor) }
        // Sanitized, a host decoding a large frame on two loaded cores has taken over 60 s.
        var timeout = timeval(tv_sec: TestLimit.sanitized ? 240 : 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count <= 0 { return }  // the server may hang up on a misbehaving client
                offset += count
            }
        }
        if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A raw blocking connection for tests that hold many clients: every read gives up after
/// 60 s (a whole suite under TSan on a loaded machine has taken over 20 s to answer), so a
/// server that never answers fails the test instead of hanging it.
struct RawClient {
    let descriptor: Int32

    init?(socket: String) {
        guard let descriptor = try? ControlSocket.connect(path: socket) else { return nil }
        // Sanitized, a host decoding a large frame on two loaded cores has taken over 60 s.
        var timeout = timeval(tv_sec: TestLimit.sanitized ? 240 : 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    /// Writes everything; false when the server hung up first (MSG_NOSIGNAL: no SIGPIPE).
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    enum Read: Equatable {
        case frame(String)
        /// EOF, or a reset: the server closed the connection.
        case closed
        /// Nothing for 60 s.
        case timedOut

        /// The frame read, if one was.
        var frame: String? {
            if case .frame(let text) = self { return text }
            return nil
        }
    }

    /// The next newline-terminated frame, read a byte at a time so nothing after it is consumed.
    func readFrame() -> Read {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return .frame(String(decoding: line, as: UTF8.self)) }
                line.append(byte)
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .timedOut }
            return .closed
        }
    }

    func close() {
        Glibc.close(descriptor)
    }
}

/// A reply frame's id and error code (nil when ok).
func decodeReply(_ frame: String) -> (id: JSONValue, code: Int?)? {
    guard let value = try? JSONParser.parse(Array(frame.utf8)), let reply = ControlReply(json: value) else {
        return nil
    }
    if case .failure(let error) = reply.result { return (reply.id, error.code.rawValue) }
    return (reply.id, nil)
}

/// A blocking barrier for test threads (never used on the cooperative pool): `wait()`
/// returns once `count` threads have called it.
final class Barrier: Sendable {
    private let arrived = Locked(0)
    private let released = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int) { self.count = count }

    func wait() {
        let last = arrived.withLock { arrived in
            arrived += 1
            return arrived == count
        }
        if last {
            for _ in 1..<count { released.signal() }
        } else {
            released.wait()
        }
    }
}

/// A started in-process control server for `host`, on `host.sock` in a new private
/// directory, with the limits a test needs smaller than the defaults.
func startedControlServer(
    for host: SceneHost,
    bufferBudget: Int = ControlServer.bufferBudget,
    idleLimit: Duration = ControlServer.defaultIdleLimit,
    stallLimit: Duration = ControlConnection.defaultStallLimit
) throws -> ControlServer {
    let server = try ControlServer(
        host: host,
        listener: try ControlSocket.listen(path: try makePrivateDirectory() + "/host.sock"),
        bufferBudget: bufferBudget,
        idleLimit: idleLimit,
        stallLimit: stallLimit
    )
    try server.start()
    return server
}
