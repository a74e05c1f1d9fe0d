import Dispatch
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

// End-to-end tests of the live control plane: a real `hostctl serve` process and real
// clients (the `hostctl` binary, or raw sockets where the test needs to misbehave).
// Everything synchronizes on output lines and exits; nothing sleeps.

@Suite("Live control plane: hostctl serve and its clients")
struct ControlTests {
    @Test("connect, push, a refusal, ps --json, quit")
    func connectPushPs() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }

        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await server.run("connect", "B", "--background", "--root", "Library").status == 0)
        #expect(try await server.run("notify", "A", "--name", "sync", "--value", #"{"n":1}"#).status == 0)

        let refused = try await server.run("activate", "A")
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("hostctl activate: scene A: activate refused"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        let usage = try await server.run("push", "A")
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--vc"))

        let scenes = try await server.scenes()
        let a = try #require(scenes["A"])
        #expect(a.activation == .foregroundActive)
        #expect(a.process == .running)
        #expect(a.hasSession)
        #expect(a.stack == ["Root", "Detail"])
        #expect((a.pid ?? 0) > 0)
        #expect((a.residentBytes ?? 0) > 0)
        #expect(a.uptimeSeconds != nil)
        let b = try #require(scenes["B"])
        #expect(b.activation == .background)
        #expect(b.stack == ["Library"])

        let table = try await server.run("ps")
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("SCENE"))
        #expect(table.stdout.contains("foregroundActive"))

        // The readable trace, from the start, without --follow: prints and exits.
        let events = try await server.run("events")
        #expect(events.status == 0)
        #expect(events.stdout.contains("A            viewDidAppear             Detail"), "\(events.stdout)")
        #expect(events.stdout.contains("didReceiveNotification  sync = {\"n\":1}"))

        try await server.quit()
    }

    @Test("a worker killed from outside shows up in events --follow --json as exited/killed")
    func killFromOutside() async throws {
        let directory = try makePrivateDirectory()
        let tracePath = directory + "/trace.jsonl"
        let server = try await TestServer.start(directory: directory, extra: ["--trace", tracePath])
        defer { server.kill() }
        let follower = try server.spawn("events", "--follow", "--json")
        defer { try? follower.child.send(signal: SIGKILL) }

        #expect(try await server.run("connect", "A").status == 0)
        let pid = try #require(try await server.scenes()["A"]?.pid)
        #expect(Glibc.kill(pid, SIGKILL) == 0)

        let exitedLine = try await follower.line { line in
            guard let event = try? TraceEvent(jsonLine: Array(line.utf8)) else { return false }
            return event.scene == "A" && event.processEvent == .exited && event.pid == pid
        }
        let exited = try TraceEvent(jsonLine: Array(try #require(exitedLine).utf8))
        #expect(exited.reason == .killed)
        #expect(exited.signal == "KILL")

        try await server.quit()
        // The follow stream ends when the host quits; the client then exits 0.
        #expect(try await follower.status() == 0)
        #expect(follower.stdout.contains(#""name":"stopped""#))
        // Everything the follower saw is the trace file, line for line.
        let file = String(decoding: readWholeFile(tracePath, limit: 1 << 24) ?? [], as: UTF8.self)
        #expect(follower.stdout == file)
        #expect(try TraceVerifier.verify(contentsOf: tracePath).failure == nil)
    }

    @Test("16 concurrent clients each get exactly one reply")
    func concurrentClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)

        let socket = server.socket
        let (statuses, rawReplies) = try await withThrowingTaskGroup(of: (Int32?, [String]?).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let result = try await server.run("notify", "A", "--name", "cli", "--value", String(index))
                    return (result.status, nil)
                }
                group.addTask {
                    let request = #"{"id":\#(100 + index),"op":"notify","scene":"A","name":"raw","value":\#(index)}"#
                    return (nil, await rawExchange(socket: socket, Array((request + "\n").utf8)))
                }
            }
            var statuses: [Int32] = []
            var replies: [[String]] = []
            for try await (status, frames) in group {
                if let status { statuses.append(status) }
                if let frames { replies.append(frames) }
            }
            return (statuses, replies)
        }
        #expect(statuses == [Int32](repeating: 0, count: 16))
        var ids: Set<Int> = []
        for frames in rawReplies {
            #expect(frames.count == 1, "exactly one reply, got \(frames)")
            if let reply = frames.first.flatMap(decodeReply), case .int(let id) = reply.id, reply.code == nil {
                ids.insert(id)
            }
        }
        #expect(ids == Set(100..<116))

        // Every one of the 32 operations ran.
        let trace = try await server.run("events", "--json")
        let notifications = trace.stdout.split(separator: "\n").filter {
            $0.contains(#""name":"didReceiveNotification""#)
        }
        #expect(notifications.count == 32)
        try await server.quit()
    }

    @Test("garbage, oversized frames and vanished clients affect nobody else")
    func misbehavingClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)

        let frames = await rawExchange(
            socket: server.socket,
            Array(
                """
                {"id":6,"op":"sleep","ms":50}
                this is not json
                {"id":7,"op":"ps"}
                {"id":8,"op":"teleport","scene":"A"}
                {"id":9,"op":"push","scene":"A"}
                [1,2]
                {"id":10,"op":"push","scene":"A","vc":"Detail","colour":"red"}

                """.utf8
            )
        )
        // One reply per frame, in the frames' order (CONTROL.md): a frame refused as it was
        // read waits for the replies of the requests before it, the sleep's included, so a
        // client can tell which frame a reply with a null id answers.
        let replies = frames.compactMap(decodeReply)
        #expect(
            replies.map { "\($0.id) \($0.code.map(String.init) ?? "ok")" } == [
                "\(JSONValue.int(6)) ok",
                "\(JSONValue.null) \(ProtocolError.Code.parseError.rawValue)",
                "\(JSONValue.int(7)) ok",
                "\(JSONValue.int(8)) \(ProtocolError.Code.unknownOperation.rawValue)",
                "\(JSONValue.int(9)) \(ProtocolError.Code.invalidParameters.rawValue)",
                "\(JSONValue.null) \(ProtocolError.Code.invalidMessage.rawValue)",
                "\(JSONValue.int(10)) \(ProtocolError.Code.invalidParameters.rawValue)",
            ],
            "\(frames)"
        )

        // A frame over 1 MiB: an error, then the server hangs up.
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 4096) + [UInt8(ascii: "\n")]
        let oversized = await rawExchange(socket: server.socket, huge, halfClose: false)
        #expect(oversized.first.flatMap(decodeReply)?.code == ProtocolError.Code.frameTooLarge.rawValue, "\(oversized)")

        // A client that sends a push and vanishes at once: the push still happens.
        let follower = try server.spawn("events", "--follow", "--json")
        defer { try? follower.child.send(signal: SIGKILL) }
        _ = await onThread { [socket = server.socket] in
            guard let descriptor = try? ControlSocket.connect(path: socket) else { return false }
            let request = Array(#"{"id":1,"op":"push","scene":"A","vc":"Gone"}"#.utf8) + [10]
            let written = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            return written == request.count
        }
        let appeared = try await follower.line { $0.contains(#""name":"viewDidAppear","vc":"Gone""#) }
        #expect(appeared != nil)

        // Everyone else is fine.
        #expect(try await server.run("pop", "A").status == 0)
        #expect(try await server.scenes()["A"]?.stack == ["Root"])
        try await server.quit()
        #expect(try await follower.status() == 0)
    }

    /// Hosts started at once on a stale socket: exactly one serves, however they interleave
    /// (each could remove the socket another had just bound, and two served, one of them at
    /// a path nobody could reach). Three rounds of three.
    @Test func hostsStartedAtOnceOnAStaleSocketServeOneAtATime() async throws {
        let directory = try makePrivateDirectory()
        let socket = directory + "/host.sock"
        for _ in 0..<3 {
            let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            close(stale)
            let hosts = try (0..<3).map { _ in try Spawned([TestWorker.hostctl, "serve", "--socket", socket]) }
            defer { for host in hosts { try? host.child.send(signal: SIGKILL) } }
            var serving: [Spawned] = []
            for host in hosts {
                if try await host.line(where: { $0.hasPrefix("serving on") }) != nil { serving.append(host) }
            }
            #expect(serving.count == 1, "\(hosts.map(\.stderr))")
            #expect(try await runHostctlClient(["quit", "--socket", socket]).status == 0)
            for host in hosts { _ = try await host.exit() }
            #expect(access(socket, F_OK) != 0, "the socket went with its host")
        }
    }

    @Test("a stale socket is replaced, a live one is never stolen, unsafe paths are refused")
    func socketSafety() async throws {
        let directory = try makePrivateDirectory()
        let socket = directory + "/host.sock"

        // A stale socket: bound, then its listener went away without removing it.
        let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(stale)

        let server = try await TestServer.start(socket: socket, directory: directory)
        defer { server.kill() }
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode 0600")

        // A second host on the same path: refused, exit 3; the first keeps serving.
        let second = try await runHostctlClient(["serve", "--socket", socket])
        #expect(second.status == 3)
        #expect(second.stderr.contains("already serving on \(socket)"), "\(second.stderr)")
        #expect(try await server.run("ps").status == 0)

        // Unsafe or impossible paths: usage errors (exit 2) that say why.
        let shared = directory + "/shared"
        mkdir(shared, 0o700)
        chmod(shared, 0o777)
        let writable = try await runHostctlClient(["serve", "--socket", shared + "/host.sock"])
        #expect(writable.status == 2)
        #expect(writable.stderr.contains("directory \(shared) is writable by others"), "\(writable.stderr)")
        let long = try await runHostctlClient([
            "serve", "--socket", directory + "/" + String(repeating: "s", count: 120),
        ])
        #expect(long.status == 2)
        #expect(long.stderr.contains("longer than the 107"), "\(long.stderr)")
        let file = directory + "/file"
        close(open(file, O_CREAT | O_WRONLY, 0o600))
        let notSocket = try await runHostctlClient(["serve", "--socket", file])
        #expect(notSocket.status == 2)
        #expect(notSocket.stderr.contains("not a socket"))

        // A client with nobody serving: runtime failure.
        let nobody = try await runHostctlClient(["ps", "--socket", directory + "/nobody.sock"])
        #expect(nobody.status == 3)
        #expect(nobody.stderr.contains("no host is serving"))
        #expect(nobody.stderr.contains("start one with hostctl serve --socket"), "\(nobody.stderr)")
        // In a directory `serve` refuses, the advice to start one there would fail: not given.
        let inTmp = try await runHostctlClient(["ps", "--socket", "/tmp/scenehost-nobody-\(getpid()).sock"])
        #expect(inTmp.status == 3)
        #expect(!inTmp.stderr.contains("start one"), "\(inTmp.stderr)")
        #expect(
            inTmp.stderr.contains("no host can serve there (directory /tmp is writable by others"),
            "\(inTmp.stderr)"
        )

        // SIGINT stops the host like quit.
        try server.process.child.send(signal: SIGINT)
        #expect(try await server.process.exit() == .exited(status: 0))
        #expect(access(socket, F_OK) != 0)
        unlink(file)
        rmdir(shared)
        rmdir(directory)
    }

    @Test("SIGTERM: every scene is terminated, no worker is left, exit 0")
    func sigterm() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("connect", "B", "--background").status == 0)
        #expect(try await server.run("waitFor", "B", "--process", "suspended", "--timeout-ms", "5000").status == 0)
        let follower = try server.spawn("events", "--follow", "--json", "--from-seq", "1")
        defer { try? follower.child.send(signal: SIGKILL) }
        // Its first line proves it is subscribed: the SIGTERM must not beat its connect.
        #expect(try await follower.line { _ in true } != nil)
        let pids = try await server.scenes().values.compactMap(\.pid)
        #expect(pids.count == 2)

        try server.process.child.send(signal: SIGTERM)
        #expect(try await server.process.exit() == .exited(status: 0), "\(server.process.stderr)")
        for pid in pids {
            #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH, "worker \(pid) is gone")
        }
        #expect(try await follower.status() == 0)
        // A running scene is told (applicationWillTerminate); a suspended one is killed silently.
        let lines = follower.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains(#""scene":"A""#) && $0.contains("applicationWillTerminate") })
        #expect(!lines.contains { $0.contains(#""scene":"B""#) && $0.contains("applicationWillTerminate") })
        #expect(lines.last?.contains(#""name":"stopped""#) == true)
    }

    @Test("ps after a restart on the same --state-dir lists the stored sessions as unattached")
    func psAfterRestart() async throws {
        let directory = try makePrivateDirectory()
        let state = ["--state-dir", directory + "/state"]
        let first = try await TestServer.start(directory: directory, extra: state)
        defer { first.kill() }
        #expect(try await first.run("connect", "A").status == 0)
        #expect(try await first.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await first.run("background", "A").status == 0)
        #expect(try await first.run("connect", "B").status == 0)
        #expect(try await first.run("connect", "C", "--lifecycle", "app").status == 0)
        try await first.quit()

        let second = try await TestServer.start(directory: directory, extra: state)
        defer { second.kill() }
        let scenes = try await second.scenes()
        #expect(Set(scenes.keys) == ["A", "B", "C"])
        // A stored session shows the lifecycle its next connect runs.
        #expect(scenes["C"]?.lifecycle == .app && scenes["A"]?.lifecycle == .scene)
        for row in scenes.values {
            #expect(row.hasSession && row.activation == .unattached && row.process == .none, "\(row)")
            #expect(row.pid == nil && row.residentBytes == nil && row.uptimeSeconds == nil && row.stack == [])
        }
        let table = try await second.run("ps")
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(
            Array(rows.dropFirst()) == [
                // The last columns: no app process, nothing presented, no tab bar, scene-based, no worker yet.
                ["A", "yes", "unattached", "none", "-", "-", "-", "-", "-", "-", "scene", "-"],
                ["B", "yes", "unattached", "none", "-", "-", "-", "-", "-", "-", "scene", "-"],
                ["C", "yes", "unattached", "none", "-", "-", "-", "-", "-", "-", "app", "-"],
            ],
            "\(table.stdout)"
        )

        // Connecting A hands its stored state to the new worker; B stays listed.
        #expect(try await second.run("connect", "A").status == 0)
        let after = try await second.scenes()
        #expect(after["A"]?.process == .running)
        #expect(after["B"]?.activation == .unattached && after["B"]?.hasSession == true)
        let events = try await second.run("events", "--json")
        let connected = events.stdout.split(separator: "\n").filter { $0.contains(#""name":"willConnectTo""#) }
        #expect(
            connected.count == 1 && connected[0].contains(#""restoration":"#) && connected[0].contains("Detail"),
            "\(connected)"
        )
        try await second.quit()
    }

    @Test("serve names each damaged session file on stderr at start")
    func damagedSessionsOnStderr() async throws {
        let directory = try makePrivateDirectory()
        let sessions = directory + "/state/sessions"
        mkdir(directory + "/state", 0o700)
        mkdir(sessions, 0o700)
        for (name, content) in [
            ("A.json", "{garbage\n"), ("B.json", #"{"identifier":"C","configuration":"x","role":"y"}"#),
        ] {
            let descriptor = open(sessions + "/" + name, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
            _ = Array(content.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        let server = try await TestServer.start(directory: directory, extra: ["--state-dir", directory + "/state"])
        defer { server.kill() }
        #expect(try await server.scenes().isEmpty)
        try await server.quit()  // stderr is complete once the process has exited

        let lines = server.process.stderr.split(separator: "\n").sorted()
        #expect(lines.count == 2, "\(server.process.stderr)")
        for (line, name) in zip(lines, ["A.json", "B.json"]) {
            let path = sessions + "/" + name
            #expect(
                line.hasPrefix("hostctl serve: damaged session file \(path) kept aside as \(path).damaged: "),
                "\(line)"
            )
        }
        #expect(lines.first?.contains("not valid JSON") == true)
        #expect(lines.last?.contains("does not match the file name") == true)
    }
}
